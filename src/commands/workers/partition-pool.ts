// reconcile and lso over many partitions: each partition is scanned (scan/partition-scan.ts) by one
// of a few worker threads (commands/workers/partition-worker.ts), and the results come back in partition order,
// the same objects the sequential scan makes, so the printers write the same bytes. A scan is one
// partition whole: the analysis is sequential within a partition (transactions span its segments).
// Small inputs are scanned here: a worker costs about 40 ms and 20 MiB to start (commands/workers/dump-pool.ts).
import type { Worker } from 'node:worker_threads'
import type { Finding } from '../../analysis/findings.js'
import type { RangeSpec } from '../../analysis/range-filter.js'
import type { OffsetCheckpoint } from '../../io/checkpoints.js'
import type { PartitionDir } from '../../io/discover.js'
import { sizeOf } from '../../io/dir-listing.js'
import { defaultThreads, MIN_PARALLEL_BYTES, workerThreads, workerUrl } from './threads.js'
import type { ScannedPartition } from '../../scan/partition-scan.js'
import type { ScannedPaths } from '../../scan/partition-paths.js'
import { scanPartition } from '../../scan/partition-scan.js'
import { resolvePartitions } from '../../scan/partition-paths.js'
import { remoteLogBytes, scannedDir, withRemoteSegments } from '../../scan/remote-segments.js'
import type { WireScanned } from './partition-wire.js'
import { fromWireScanned } from './partition-wire.js'
import type { RemoteInput } from '../../io/remote/spec.js'

/** what a partition command asks of each scan */
export interface PartitionScanRequest {
  /** keep each producer's last marker coordinator epoch (lso) */
  markerEpochs: boolean
  /** count only the records in this range (reconcile --start-offset ...: PartitionScanOptions.filter) */
  filter?: RangeSpec
  /** worker threads (default: threads.ts defaultThreads); 1 = none */
  threads?: number
  /** --remote-storage (PartitionScanOptions.remote) */
  remote?: RemoteInput
  /** false: --no-resync (PartitionScanOptions.resync) */
  resync?: boolean
  /** tests: inputs smaller than this are scanned without workers (0: always workers), and how many ran */
  internals?: WorkerInternals
  /**
   * partitions only this thread can scan (lso: the coordinator's, their records read in the same pass), scanned
   * here first while the workers start on the others
   */
  here?: HereScan
}

/** partitions this thread scans itself (`run`, which keeps what it reads), before it takes the others' */
export interface HereScan {
  dirs: readonly PartitionDir[]
  run: () => void
}

export interface WorkerInternals {
  minBytes?: number
  onWorkers?: (n: number) => void
}

export interface PartitionJob {
  id: number
  dir: PartitionDir
  markerEpochs: boolean
  filter?: RangeSpec
  resync?: boolean
}

export type PartitionWorkerMessage =
  | { type: 'done'; id: number; scanned: WireScanned }
  | { type: 'error'; id: number; message: string }

/** The one scan, here or in a worker: a command's marker-epoch choice and range applied. */
export function scanOne(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  job: Pick<PartitionJob, 'markerEpochs' | 'filter' | 'resync'>,
): ScannedPartition {
  // reconcile prints no marker coordinator epochs (lso does): without them, 1 M producers peak 126 -> 74 MiB
  return scanPartition(dir, checkpoints, {
    ...(job.markerEpochs ? {} : { analyzer: () => ({ markerEpochs: false }) }),
    ...(job.filter !== undefined ? { filter: job.filter } : {}),
    ...(job.resync === false ? { resync: false } : {}),
  })
}

/** the thread options of a partition command's options, as a PartitionScanRequest takes them */
export function threadsOf(o: {
  threads?: number
  workerInternals?: WorkerInternals
}): Pick<PartitionScanRequest, 'threads' | 'internals'> {
  return {
    ...(o.threads !== undefined ? { threads: o.threads } : {}),
    ...(o.workerInternals !== undefined ? { internals: o.workerInternals } : {}),
  }
}

/** scan/partition-scan.ts scanPaths with the partitions spread over worker threads */
export async function scanPathsInWorkers(paths: string[], req: PartitionScanRequest): Promise<ScannedPaths> {
  const { partitions, unusable, unreadable } = resolvePartitions(paths, req.remote)
  return { unusable, unreadable, scanned: unusable.length > 0 ? [] : await scanPartitions(partitions, req) }
}

/** Every partition scanned, in the order given. */
export async function scanPartitions(
  partitions: readonly PartitionDir[],
  req: PartitionScanRequest,
): Promise<ScannedPartition[]> {
  const all: ScannedPartition[] = []
  await scanPartitionsEach(partitions, req, (s) => all.push(s))
  return all
}

/**
 * Every partition scanned, each handed to `each` in the order given as soon as it and those before it are done,
 * and not kept: a command that writes each partition as it comes holds none of them (reconcile).
 */
export async function scanPartitionsEach(
  partitions: readonly PartitionDir[],
  req: PartitionScanRequest,
  each: (s: ScannedPartition) => void,
): Promise<void> {
  const threads = Math.min(req.threads ?? defaultThreads(), partitions.length)
  if (threads <= 1 || logBytes(partitions) < (req.internals?.minBytes ?? MIN_PARALLEL_BYTES)) {
    req.here?.run()
    const checkpoints = new Map<string, OffsetCheckpoint | null>()
    for (const p of partitions) each(scanOne(p, checkpoints, req))
    return
  }
  req.internals?.onWorkers?.(threads)
  await inWorkers(partitions, req, threads, each)
}

export function logBytes(partitions: readonly PartitionDir[]): number {
  let n = 0
  for (const p of partitions) {
    n += remoteLogBytes(p)
    for (const f of p.files) if (f.kind === 'log') n += sizeOf(f.path) ?? 0 // the scan reports an unreadable one
  }
  return n
}

/**
 * threads - 1 workers and this thread: it scans partitions too, between them letting the workers' results in
 * and giving them more. One isolate fewer: 4 partitions of 128 MiB peaked at 121-128 MiB with 2 workers and
 * an idle main thread, against 90 MiB with one thread.
 */
async function inWorkers(
  partitions: readonly PartitionDir[],
  req: PartitionScanRequest,
  threads: number,
  each: (s: ScannedPartition) => void,
): Promise<void> {
  const { Worker } = workerThreads()
  // the results that came before one ahead of them in order: only these are held
  const waiting = new Map<number, ScannedPartition>()
  let handed = 0
  const handOn = (): void => {
    for (let s = waiting.get(handed); s !== undefined; s = waiting.get(handed)) {
      waiting.delete(handed++)
      each(s)
    }
  }
  const workers: Worker[] = []
  const checkpoints = new Map<string, OffsetCheckpoint | null>()
  let next = 0
  let done = 0
  let failed: Error | undefined
  let wake: (() => void) | undefined
  const settle = (): void => {
    const w = wake
    wake = undefined
    w?.()
  }
  // a worker keeps QUEUED partitions in hand, so it does not wait while this thread scans one of its own
  const give = (w: Worker): void => {
    if (next >= partitions.length) return
    const id = next++
    const job: PartitionJob = {
      id,
      // a worker's store lists nothing: its remote segments planned here, as its scan starts
      dir: withRemoteSegments(partitions[id]!),
      markerEpochs: req.markerEpochs,
      ...(req.filter !== undefined ? { filter: req.filter } : {}),
      ...(req.resync === false ? { resync: false } : {}),
    }
    w.postMessage(job)
  }
  try {
    for (let i = 0; i < threads - 1; i++) {
      const w = new Worker(workerUrl('partition-worker'), { resourceLimits: { maxYoungGenerationSizeMb: 4 } })
      w.on('message', (m: PartitionWorkerMessage) => {
        if (m.type === 'error') failed ??= new Error(`partition worker, ${partitions[m.id]!.path}: ${m.message}`)
        else {
          waiting.set(m.id, { ...fromWireScanned(m.scanned), dir: scannedDir(partitions[m.id]!, m.scanned.dir) })
          done++
          handOn()
        }
        give(w)
        settle()
      })
      w.on('error', (e) => {
        failed ??= e
        settle()
      })
      w.on('exit', (code) => {
        if (code !== 0) failed ??= new Error(`partition worker exited with code ${code}`)
        settle()
      })
      workers.push(w)
      for (let q = 0; q < QUEUED; q++) give(w)
    }
    if (req.here !== undefined) {
      // this thread reads the `here` partitions first and hands out no work meanwhile: the workers are given
      // about as much to do as it has (a coordinator byte, records read, costs about HERE_COST data bytes)
      const owed = (HERE_COST * logBytes(req.here.dirs)) / workers.length
      for (const w of workers)
        for (let given = 0; given < owed && next < partitions.length; ) {
          given += logBytes([partitions[next]!])
          give(w)
        }
      req.here.run()
    }
    while (next < partitions.length && failed === undefined) {
      // a worker's partition far behind this thread's: wait for it rather than hold ever more results ahead of it
      if (waiting.size >= MAX_WAITING) {
        await new Promise<void>((resolve) => {
          wake = resolve
        })
        continue
      }
      const id = next++
      waiting.set(id, scanOne(partitions[id]!, checkpoints, req))
      done++
      handOn()
      await new Promise((resolve) => setImmediate(resolve))
    }
    while (done < partitions.length && failed === undefined)
      await new Promise<void>((resolve) => {
        wake = resolve
      })
    if (failed !== undefined) throw failed
  } finally {
    for (const w of workers) {
      w.removeAllListeners('exit')
      void w.terminate()
    }
  }
}

/**
 * results held ahead of a partition a worker still scans, before this thread stops taking partitions: each holds its
 * report (findings at most MAX_LISTED_PER_CODE a code), a few KiB for most
 */
const MAX_WAITING = 64
/** partitions queued at a worker */
const QUEUED = 2
/**
 * what a byte of the `here` partitions costs this thread against a byte of the others: the coordinator's records read
 * with the partition scan (scan/transaction-state-read.ts) about as much as the scan of the others (over
 * bench/make-scale.mjs's 1M input: 1.2 s for 456 MB of coordinator records in-process, the others' 1 GB about 3 s
 * of lso's CPU). Twice, as it was before the coordinator's records were read in place, gave the worker nine tenths
 * of the others before this thread had read its own, and this thread then waited for it.
 */
const HERE_COST = 1
