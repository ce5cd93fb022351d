// How many worker threads, from what size, and where their compiled code is: shared by the parallel dump
// (dump-pool.ts) and the partition workers (partition-pool.ts, txns-pool.ts). Its own module so that
// reconcile, lso and txns do not load the dump's code to ask (8 ms of their start-up, measured).
import { createRequire } from 'node:module'
import * as os from 'node:os'
import type * as WorkerThreads from 'node:worker_threads'

/** smaller files are dumped without workers: starting them costs more than they save (bench/RESULTS.md, threads) */
export const MIN_PARALLEL_BYTES = 64 * 1024 * 1024
/**
 * Default thread cap, set by memory: each worker costs about 22 MiB of RSS (an isolate with tsdump's modules
 * loaded, its heap, 2 MiB read window, 1 MiB output ring): with 3 the worst input measured (a deep dump with an
 * offset gap after every record, the hostile big tier) goes over the 128 MiB promise, with 2 it stays under
 * (bench/RESULTS.md, "Figures behind choices in the code"). More cores are used with --threads N.
 */
export const MAX_DEFAULT_THREADS = 2

export function defaultThreads(): number {
  return Math.max(1, Math.min(MAX_DEFAULT_THREADS, os.availableParallelism()))
}

/** A compiled worker of this directory (`dump-worker`): next to this file in dist/; when this file runs from src/ (the tests), the build in dist/. */
export function workerUrl(name: string): URL {
  const here = import.meta.url
  if (here.endsWith('.ts')) return new URL(`../../../dist/commands/workers/${name}.js`, here)
  return new URL(`./${name}.js`, here)
}

/**
 * node:worker_threads, loaded by the pools when they start a worker, not at import: it costs a start-up 3-6 ms
 * (bench/RESULTS-startup.md) and most runs start none. By require, not import(): the CLI's bundle is compiled
 * through V8's code cache (bin/tsdump.js), where a dynamic import has no loader.
 */
export function workerThreads(): typeof WorkerThreads {
  return createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads
}
