// `tsdump export` of 16 MiB or more runs in one worker thread whose young generation is 2 MiB. Every record
// passes through short-lived objects (the decoded record, its row cells, the copies a row group keeps), and the
// main thread's young generation is sized by V8 when the heap is set up (bin/tsdump.js says why it cannot be
// set from there). bench/RESULTS.md ("export") has the figures.
import { sizeOf } from '../../io/dir-listing.js'
import { discover } from '../../io/discover.js'
import { workerThreads, workerUrl } from './threads.js'
import type { TsdumpErrorCode } from '../../analysis/tsdump-error.js'
import { TsdumpError } from '../../analysis/tsdump-error.js'

/** what the worker is given: exportDataset's arguments (commands/export.ts; not imported here: it imports this file) */
export interface ExportJob {
  paths: string[]
  opts: unknown
}
export type ExportWorkerMessage =
  | { type: 'done'; result: unknown }
  | { type: 'error'; message: string; code?: string; stack: string; tsdumpError?: TsdumpErrorCode }

const YOUNG_GENERATION_MB = 2
/** smaller inputs are exported on the main thread: a worker's start-up would be most of their time */
export const MIN_WORKER_BYTES = 16 * 1024 * 1024

/** the .log bytes under `paths` (a path that cannot be read is the export's to report) */
export function logBytes(paths: string[]): number {
  let n = 0
  for (const f of discover(paths.filter((p) => p !== '-')).files) if (f.kind === 'log') n += sizeOf(f.path) ?? 0
  return n
}

/** exportDataset's result, computed in a worker thread with a small young generation */
export async function exportInWorker<R>(job: ExportJob): Promise<R> {
  const { Worker } = workerThreads()
  const w = new Worker(workerUrl('export-worker'), {
    workerData: job,
    resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
  })
  return await new Promise<R>((resolve, reject) => {
    let settled = false
    w.on('message', (m: ExportWorkerMessage) => {
      settled = true
      if (m.type === 'done') resolve(m.result as R)
      else if (m.tsdumpError !== undefined) reject(new TsdumpError(m.tsdumpError, m.message))
      else reject(Object.assign(new Error(m.message), m.code !== undefined ? { code: m.code } : {}, { stack: m.stack }))
    })
    w.on('error', (e) => {
      settled = true
      reject(e)
    })
    w.on('exit', (code) => {
      if (!settled) reject(new Error(`export worker exited with code ${code}`))
    })
  })
}
