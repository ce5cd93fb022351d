// `txns` over several partitions with worker threads: each worker (commands/workers/txns-worker.ts) runs the
// sequential per-partition code (scan/txns-partition.ts txnsPartition) on whole partitions and posts what it would have
// streamed to the printer (the report's head, the runs in chunks, the lane and the report);
// this thread replays those events through the real printer, partition by partition in order, so the
// output, the findings and the exit code are those of one thread. The formatting (about 40% of txns' CPU)
// is this thread's, the scanning the workers': the partition being written is a pipeline, the others are
// scanned ahead. Memory stays bounded: a worker waits (Atomics.wait on a shared credit counter) while
// MAX_RUNS_IN_FLIGHT of its runs are posted and not yet written, so a partition that is not yet the one
// being written is held back after its scan and that many runs.
import type { Worker } from 'node:worker_threads'
import type { Finding } from '../../analysis/findings.js'
import { exitCodeFor } from '../../analysis/findings.js'
import type { PartitionResult } from '../../analysis/partition-results.js'
import type { RangeSpec } from '../../analysis/range-filter.js'
import type { Lane } from '../../analysis/timeline.js'
import type { TxnsStream } from '../../analysis/partition-results.js'
import type { PartitionDir } from '../../io/discover.js'
import { MIN_PARALLEL_BYTES, workerThreads, workerUrl } from './threads.js'
import type { WorkerInternals } from './partition-pool.js'
import { logBytes } from './partition-pool.js'
import type { WireReport } from './partition-wire.js'
import { fromWireReport } from './partition-wire.js'
import type { WireRuns } from './txns-wire.js'
import { decodeRun } from './txns-wire.js'
import { withRemoteSegments } from '../../scan/remote-segments.js'

/** runs a worker posts at once */
export const RUNS_PER_CHUNK = 512
/** runs of a worker posted and not yet written (about 0.5 KiB each once read back here): the per-worker bound */
export const MAX_RUNS_IN_FLIGHT = 8192
/** partitions queued at a worker, so it starts the next one's scan without waiting for a message */
const QUEUED = 2

export interface TxnsJob {
  id: number
  dir: PartitionDir
  width: number
  filter?: RangeSpec
  resync?: boolean
}
export interface TxnsWorkerSetup {
  credit: SharedArrayBuffer
}
export interface WirePartition {
  label: string
  path: string
  report: WireReport
}

export type TxnsWorkerMessage =
  | { type: 'start'; id: number; p: WirePartition }
  | { type: 'runs'; id: number; runs: WireRuns }
  | { type: 'end'; id: number; p: WirePartition; lane: Lane }
  | { type: 'error'; id: number; message: string }

const isStateLog = (d: PartitionDir): boolean => d.topic === '__transaction_state'

/**
 * How many workers `txns` uses: none for one thread, one timeline partition, or less than MIN_PARALLEL_BYTES
 * of logs; else threads - 1 (this thread formats and writes), at least one, at most one per timeline partition.
 * Unlike reconcile's, the default is one thread: with one worker, 4 partitions x 128 MiB of small transactions
 * peaked at 129-133 MiB in text (107 with one thread), over the 128 MiB bound. The main isolate's young
 * generation grew to 32 MiB (bin's runtime --max-semi-space-size=4 does not reach it; given to node on the
 * command line: 103-105 MiB). bench/RESULTS.md, txns across workers.
 */
export function txnsWorkerCount(
  partitions: readonly PartitionDir[],
  threads: number | undefined,
  internals?: WorkerInternals,
): number {
  const n = threads ?? 1
  const timelines = partitions.filter((d) => !isStateLog(d))
  if (n <= 1 || timelines.length < 2 || logBytes(timelines) < (internals?.minBytes ?? MIN_PARALLEL_BYTES)) return 0
  return Math.max(1, Math.min(n - 1, timelines.length))
}

const fromWire = (w: WirePartition): PartitionResult => ({
  label: w.label,
  path: w.path,
  report: fromWireReport(w.report),
})

interface Slot {
  worker: Worker
  credit: Int32Array
  queued: number
}

/**
 * Streams every partition to `to` in order, the timelines scanned by `workers` workers and the
 * __transaction_state partitions (and those `alsoHere` names: scanned ahead) by `here` in their turn; returns the
 * findings' exit code.
 */
export async function streamTxnsInWorkers(
  partitions: readonly PartitionDir[],
  job: { width: number; filter?: RangeSpec; resync?: boolean },
  to: TxnsStream,
  workers: number,
  here: (dir: PartitionDir) => readonly Finding[],
  alsoHere: (dir: PartitionDir) => boolean = () => false,
): Promise<number> {
  const isHere = (d: PartitionDir): boolean => isStateLog(d) || alsoHere(d)
  const { Worker } = workerThreads()
  const slots: Slot[] = []
  /** events of each partition not written yet, and which worker scans it */
  const events = new Map<number, TxnsWorkerMessage[]>()
  const owner = new Map<number, Slot>()
  let code = 0
  let head = 0
  let next = 0
  return await new Promise<number>((resolve, reject) => {
    let finished = false
    const stop = (err?: Error): void => {
      if (finished) return
      finished = true
      for (const s of slots) {
        s.worker.removeAllListeners('exit')
        void s.worker.terminate()
      }
      if (err !== undefined) reject(err)
      else {
        to.end()
        resolve(code)
      }
    }
    const give = (s: Slot): void => {
      while (next < partitions.length && isHere(partitions[next]!)) next++
      if (next >= partitions.length) return
      const id = next++
      owner.set(id, s)
      events.set(id, [])
      s.queued++
      // its remote segments planned here (--remote-storage), as its scan starts: a worker's store lists nothing
      s.worker.postMessage({ id, dir: withRemoteSegments(partitions[id]!), ...job } satisfies TxnsJob)
    }
    const findings = (f: readonly Finding[]): void => {
      code = Math.max(code, exitCodeFor(f))
    }
    // write what the head partition has; a finished head hands over to the next partition
    const pump = (): void => {
      while (head < partitions.length) {
        const dir = partitions[head]!
        if (isHere(dir)) {
          findings(here(dir))
          head++
          continue
        }
        const queue = events.get(head)
        const slot = owner.get(head)
        if (queue === undefined || slot === undefined) return
        let ended = false
        for (const m of queue) {
          if (m.type === 'start') to.timelineStart(fromWire(m.p))
          else if (m.type === 'runs') {
            for (let i = 0; i < m.runs.count; i++) to.run(decodeRun(m.runs, i))
            // a wake-up is a futex call (10% of this thread's time when made per chunk): only when the worker may wait
            if (Atomics.sub(slot.credit, 0, m.runs.count) > MAX_RUNS_IN_FLIGHT - RUNS_PER_CHUNK)
              Atomics.notify(slot.credit, 0)
          } else if (m.type === 'end') {
            const p = fromWire(m.p)
            to.timelineEnd(p, m.lane)
            findings(p.report.findings)
            ended = true
          }
        }
        queue.length = 0
        if (!ended) return
        events.delete(head)
        owner.delete(head)
        head++
      }
      stop()
    }
    const onMessage = (s: Slot, m: TxnsWorkerMessage): void => {
      if (finished) return
      if (m.type === 'error') {
        stop(new Error(`txns worker, ${partitions[m.id]!.path}: ${m.message}`))
        return
      }
      events.get(m.id)!.push(m)
      if (m.type === 'end') {
        s.queued--
        give(s)
      }
      if (m.id === head) {
        try {
          pump()
        } catch (e) {
          stop(e as Error)
        }
      }
    }
    try {
      for (let i = 0; i < workers; i++) {
        const credit = new SharedArrayBuffer(4)
        const setup: TxnsWorkerSetup = { credit }
        const worker = new Worker(workerUrl('txns-worker'), {
          workerData: setup,
          resourceLimits: { maxYoungGenerationSizeMb: 4 },
        })
        const s: Slot = { worker, credit: new Int32Array(credit), queued: 0 }
        worker.on('message', (m: TxnsWorkerMessage) => {
          onMessage(s, m)
        })
        worker.on('error', (e) => {
          stop(e)
        })
        worker.on('exit', (c) => {
          if (c !== 0) stop(new Error(`txns worker exited with code ${c}`))
        })
        slots.push(s)
      }
      // in partition order, a few at each worker
      for (let q = 0; q < QUEUED; q++) for (const s of slots) give(s)
      pump()
    } catch (e) {
      stop(e as Error)
    }
  })
}
