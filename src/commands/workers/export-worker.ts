// The export's worker thread (commands/workers/export-pool.ts starts it): runs the whole export with a small
// young generation, which the main thread cannot be given at run time, and posts the result back.
import { parentPort, workerData } from 'node:worker_threads'
import { exportDataset } from '../export.js'
import type { ExportOptions } from '../export.js'
import type { ExportJob, ExportWorkerMessage } from './export-pool.js'
import { TsdumpError } from '../../analysis/tsdump-error.js'

const port = parentPort
if (port === null) throw new Error('export-worker.ts runs as a worker thread only')
const job = workerData as ExportJob
let m: ExportWorkerMessage
try {
  m = { type: 'done', result: exportDataset(job.paths, job.opts as ExportOptions) }
} catch (e) {
  const err = e as NodeJS.ErrnoException
  m = {
    type: 'error',
    message: err.message,
    ...(typeof err.code === 'string' ? { code: err.code } : {}),
    stack: err.stack ?? '',
    // a transactional id with no record: thrown again as such on the main thread (a usage error, not an I/O one)
    ...(e instanceof TsdumpError ? { tsdumpError: e.code } : {}),
  }
}
port.postMessage(m)
