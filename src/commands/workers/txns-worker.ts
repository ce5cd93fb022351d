// A txns worker thread (commands/workers/txns-pool.ts starts it): runs txns' per-partition code on each partition
// it is sent and posts what that streams (txns-pool.ts TxnsWorkerMessage). Before posting runs it waits
// while MAX_RUNS_IN_FLIGHT of its runs are not yet written by the main thread (the shared credit counter).
import { parentPort, workerData } from 'node:worker_threads'
import type { PartitionResult } from '../../analysis/partition-results.js'
import type { TimelineRun } from '../../analysis/timeline.js'
import type { OffsetCheckpoint } from '../../io/checkpoints.js'
import { toWireReport } from './partition-wire.js'
import { encodeRuns } from './txns-wire.js'
import { txnsPartition } from '../../scan/txns-partition.js'
import type { TxnsJob, TxnsWorkerMessage, TxnsWorkerSetup, WirePartition } from './txns-pool.js'
import { MAX_RUNS_IN_FLIGHT, RUNS_PER_CHUNK } from './txns-pool.js'

const port = parentPort
if (port === null) throw new Error('txns-worker.ts runs as a worker thread only')
const credit = new Int32Array((workerData as TxnsWorkerSetup).credit)
const checkpoints = new Map<string, OffsetCheckpoint | null>()
const post = (m: TxnsWorkerMessage): void => {
  port.postMessage(m)
}
const wire = (p: PartitionResult): WirePartition => ({ label: p.label, path: p.path, report: toWireReport(p.report) })

port.on('message', (job: TxnsJob) => {
  const id = job.id
  let runs: TimelineRun[] = []
  const flush = (): void => {
    if (runs.length === 0) return
    // the main thread subtracts what it wrote and notifies
    for (let c = Atomics.load(credit, 0); c + runs.length > MAX_RUNS_IN_FLIGHT; c = Atomics.load(credit, 0))
      Atomics.wait(credit, 0, c, 1000)
    Atomics.add(credit, 0, runs.length)
    const w = encodeRuns(runs)
    port.postMessage({ type: 'runs', id, runs: w } satisfies TxnsWorkerMessage, [w.words.buffer as ArrayBuffer])
    runs = []
  }
  try {
    txnsPartition(
      job.dir,
      checkpoints,
      job.width,
      {
        timelineStart: (p) => {
          post({ type: 'start', id, p: wire(p) })
        },
        run: (r) => {
          runs.push(r)
          if (runs.length >= RUNS_PER_CHUNK) flush()
        },
        timelineEnd: (p, lane) => {
          flush()
          post({ type: 'end', id, p: wire(p), lane })
        },
        transactionStates: () => {
          throw new Error('a __transaction_state partition is read by the main thread')
        },
        end: () => {},
      },
      job.filter,
      job.resync !== false,
    )
  } catch (e) {
    const err = e as Error
    post({ type: 'error', id, message: err.stack ?? err.message })
  }
})
