// A partition worker thread (commands/workers/partition-pool.ts starts it): scans the partitions it is sent,
// one at a time, with the sequential scan, and posts each result back.
import { parentPort } from 'node:worker_threads'
import type { OffsetCheckpoint } from '../../io/checkpoints.js'
import type { PartitionJob, PartitionWorkerMessage } from './partition-pool.js'
import { scanOne } from './partition-pool.js'
import { toWireScanned } from './partition-wire.js'

const port = parentPort
if (port === null) throw new Error('partition-worker.ts runs as a worker thread only')
const checkpoints = new Map<string, OffsetCheckpoint | null>()

port.on('message', (job: PartitionJob) => {
  let m: PartitionWorkerMessage
  try {
    m = { type: 'done', id: job.id, scanned: toWireScanned(scanOne(job.dir, checkpoints, job)) }
  } catch (e) {
    const err = e as Error
    m = { type: 'error', id: job.id, message: err.stack ?? err.message }
  }
  port.postMessage(m)
})
