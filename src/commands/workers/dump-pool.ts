// `--threads N`: one large .log file dumped by N worker threads (commands/workers/dump-worker.ts), the output
// byte for byte that of the sequential dump (commands/dump/dump-log.ts).
//
// The file is cut into ranges of whole entries at positions a header walk (scanFrames, headers only)
// found to be entry starts; the walk stops at the first framing damage or tail, and everything from the
// last cut on is one range, so damage, resync and tails are handled by one sequential scan exactly as
// without workers. Each worker dumps its ranges with the sequential code and a printer made from the same
// options; the main thread writes the ranges' output in file order, then their findings, and merges what
// crosses a cut: the summary counts, the byte totals and the offset gap at the cut (deep iteration).
// Memory: each worker holds one read window and its output ring (RING_BYTES, shared memory) of output not yet written.
import type { Worker } from 'node:worker_threads'
import type { LogSummary } from '../../analysis/log-summary.js'
import { walkEntryStarts } from '../../decode/frame-walk.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { KafkaFile } from '../../io/discover.js'
import { sizeOf } from '../../io/dir-listing.js'
import type { CommandContext } from '../context.js'
import type { LogBody } from '../dump/dump-log.js'
import type { LogRange, RangeTotals } from '../dump/dump-range.js'
import { dumpLogRange, newGapList, viewEnd } from '../dump/dump-range.js'
import type { DumpInternals, DumpOptions } from '../dump/dump-options.js'
import type { ChunkMessage, RangeRequest, WorkerMessage, WorkerSetup } from './dump-wire.js'
import { RING_BYTES } from './dump-wire.js'
import type { DumpPrinter } from '../../format/printer.js'
import type { FindingLog } from '../dump/finding-log.js'
import type { Progress } from '../dump/progress.js'
import { defaultThreads, MIN_PARALLEL_BYTES, workerThreads, workerUrl } from './threads.js'

/**
 * Input bytes of the first ranges; then each range is sized so that its output fits half a worker's ring
 * (RING_BYTES), from the output/input ratio so far, within [MIN_RANGE_BYTES, MAX_RANGE_BYTES]. A worker whose
 * range is not the one being written can only run ahead by its ring: with fixed ranges, an input whose output
 * is larger than the input (a shallow dump of small batches) kept each worker waiting for the other
 * (bench/RESULTS.md, "Figures behind choices in the code").
 */
export const RANGE_BYTES = 1024 * 1024
const MIN_RANGE_BYTES = 64 * 1024
const MAX_RANGE_BYTES = 8 * 1024 * 1024
/** ranges queued at a worker, so it never waits for the next one */
const QUEUED_PER_WORKER = 2
/**
 * V8 young generation of a worker; the default (16-32 MiB semi-spaces) made each worker cost ~30 MiB of RSS, and
 * 4 MiB left 1 M bad-CRC batches (--json, 2 workers) at 122-128 MiB once the main thread grows its heap in 10%
 * steps: 2 MiB, 117-119 MiB at the same CPU time
 */
const YOUNG_GENERATION_MB = 2

/** How to dump `file` with worker threads; undefined when it is dumped with one scan (one thread, a small file). */
export function parallelBody(
  file: KafkaFile,
  opts: DumpOptions,
  cli: CommandContext,
  log: FindingLog,
  printer: DumpPrinter,
  internals: DumpInternals,
): LogBody | undefined {
  const threads = opts.threads ?? defaultThreads()
  // an Aiven remote segment's object holds transformed chunks: only its source (io/remote/aiven-source.ts) reads it
  if (threads <= 1 || file.kind !== 'log' || file.stdin === true || file.remote?.aiven !== undefined) return undefined
  const size = sizeOf(file.path)
  if (size === undefined) return undefined // the sequential dump reports it
  if (Math.min(size, opts.maxBytes ?? size) < (internals.parallelMinBytes ?? MIN_PARALLEL_BYTES)) return undefined
  const rangeBytes = internals.rangeBytes ?? RANGE_BYTES
  return async (source, summary, progress) => {
    const pace: Pace = { bytes: rangeBytes, adapt: internals.rangeBytes === undefined, input: 0, output: 0 }
    const ranges = cutRanges(source, opts, pace)
    const first = ranges.next()
    // one range (a huge entry, damage early in the file): the sequential scan, without the workers' memory
    if (first.done === true || first.value.end === viewEnd(source.size, opts)) {
      const range = first.done === true ? { from: 0, end: viewEnd(source.size, opts) } : first.value
      internals.onRanges?.(1)
      return dumpLogRange(source, file, opts, cli.stdout, log, printer, summary, range, progress)
    }
    return await runWorkers(
      file,
      opts,
      cli,
      log,
      summary,
      internals,
      threads,
      prepend(first.value, ranges),
      progress,
      Math.max(rangeBytes, 64 * 1024),
      pace,
    )
  }
}

function* prepend<T>(head: T, rest: Iterator<T>): Generator<T> {
  yield head
  for (let r = rest.next(); r.done !== true; r = rest.next()) yield r.value
}

/**
 * Ranges of about `rangeBytes`, cut at entry starts the walk reached (decode/frame-walk.ts); it stops at the
 * first entry that is not whole and sound (framing damage, a tail), which stays in the last range with all after it.
 */
function* cutRanges(source: SegmentSource, opts: DumpOptions, pace: Pace): Generator<LogRange> {
  const end = viewEnd(source.size, opts)
  let from = 0
  for (const at of walkEntryStarts(source, end, () => pace.bytes, opts.maxBatchBytes)) {
    yield { from, end: at }
    from = at
  }
  yield { from, end }
}

/** the range size, and the input and output bytes of the ranges written so far */
interface Pace {
  bytes: number
  readonly adapt: boolean
  input: number
  output: number
}

function paced(p: Pace, input: number, output: number): void {
  p.input += input
  p.output += output
  if (!p.adapt || p.output === 0) return
  p.bytes = Math.max(MIN_RANGE_BYTES, Math.min(MAX_RANGE_BYTES, Math.floor(((RING_BYTES / 2) * p.input) / p.output)))
}

interface Pending {
  range: LogRange
  chunks: ChunkMessage[]
  slot: number
  output: number
  done?: Extract<WorkerMessage, { type: 'done' }>
}

interface Ring {
  bytes: Buffer
  inFlight: Int32Array
}

async function runWorkers(
  file: KafkaFile,
  opts: DumpOptions,
  cli: CommandContext,
  log: FindingLog,
  summary: LogSummary,
  internals: DumpInternals,
  threads: number,
  ranges: Generator<LogRange>,
  progress: Progress,
  window: number,
  pace: Pace,
): Promise<RangeTotals> {
  const { Worker } = workerThreads()
  const rings: Ring[] = []
  const workers: Worker[] = []
  const queued: number[] = []
  const pending = new Map<number, Pending>()
  const merged: RangeTotals = {
    validBytes: 0,
    tailBytes: 0,
    pairs: newGapList(opts),
    firstTracked: null,
    lastTracked: null,
    clean: true,
  }
  let nextId = 0
  let head = 0
  let exhausted = false
  const out = cli.stdout

  return await new Promise<RangeTotals>((resolve, reject) => {
    let finished = false
    const stop = (err?: Error): void => {
      if (finished) return
      finished = true
      for (const w of workers) void w.terminate()
      if (err !== undefined) reject(err)
      else resolve(merged)
    }
    // hand out ranges in file order while workers have room
    const dispatch = (): void => {
      for (let slot = 0; slot < threads && !exhausted; slot++) {
        while ((queued[slot] ?? 0) < QUEUED_PER_WORKER && !exhausted) {
          const r = ranges.next()
          if (r.done === true) {
            exhausted = true
            break
          }
          if (slot === workers.length) startWorker()
          const id = nextId++
          pending.set(id, { range: r.value, chunks: [], slot, output: 0 })
          queued[slot]!++
          const req: RangeRequest = { id, from: r.value.from, end: r.value.end }
          workers[slot]!.postMessage(req)
        }
      }
      if (exhausted && pending.size === 0) {
        internals.onRanges?.(nextId)
        stop()
      }
    }
    // written from the worker's ring (or its own buffer) as it is, then the ring space is the worker's again:
    // a copy into the stdout buffer first was a third of the main thread's busy samples in a deep dump
    const writeChunk = (p: Pending, c: ChunkMessage): void => {
      const ring = rings[p.slot]!
      out.writeBytes(
        c.data !== undefined
          ? new Uint8Array(c.data, c.offset, c.length)
          : ring.bytes.subarray(c.offset, c.offset + c.length),
      )
      Atomics.sub(ring.inFlight, 0, c.length + c.skip)
      Atomics.notify(ring.inFlight, 0)
    }
    // the head range's output goes out as it comes; the ranges after it wait in order
    const advance = (): void => {
      for (let p = pending.get(head); p?.done !== undefined; p = pending.get(head)) {
        for (const c of p.chunks) writeChunk(p, c)
        absorb(p.done)
        paced(pace, p.range.end - p.range.from, p.output)
        pending.delete(head)
        progress.update(p.range.end)
        head++
        const next = pending.get(head)
        if (next !== undefined) {
          for (const c of next.chunks) writeChunk(next, c)
          next.chunks = []
        }
      }
      if (out.closed) {
        stop()
        return
      }
      safeDispatch()
    }
    const safeDispatch = (): void => {
      try {
        dispatch()
      } catch (e) {
        stop(e as Error)
      }
    }
    const absorb = (d: Extract<WorkerMessage, { type: 'done' }>): void => {
      if (d.stderr !== '') cli.stderr.write(d.stderr)
      // JSON lines are in the worker's output already; stderr lines are throttled here, per file as the sequential dump does
      log.absorbRange(d.findings, d.repeats)
      summary.absorb(d.summary)
      // the progress line's batches/s: the workers count the batches, this thread only writes their output
      progress.batches += d.summary.batches
      const t = d.totals
      merged.validBytes += t.validBytes
      merged.tailBytes += t.tailBytes
      merged.clean &&= t.clean
      // in offset order, as the sequential dump pushes them: the gap across the range boundary, then the range's own
      if (merged.lastTracked !== null && t.firstTracked !== null && t.firstTracked !== merged.lastTracked + 1n)
        merged.pairs.push(merged.lastTracked, t.firstTracked)
      const { a, b, length } = t.pairs
      merged.pairs.countEvicted(length - a.length)
      for (let i = 0; i < a.length; i++) merged.pairs.push(a[i]!, b[i]!)
      if (t.lastTracked !== null) merged.lastTracked = t.lastTracked
      if (merged.firstTracked === null) merged.firstTracked = t.firstTracked
    }
    const onMessage = (m: WorkerMessage): void => {
      if (finished) return
      const p = pending.get(m.id)
      if (p === undefined) return
      if (m.type === 'error') {
        stop(
          Object.assign(
            new Error(`dump worker, ${file.path} [${p.range.from}, ${p.range.end}): ${m.message}`),
            m.code !== undefined ? { code: m.code } : {},
          ),
        )
        return
      }
      if (m.type === 'chunk') {
        p.output += m.length
        if (m.id === head && p.chunks.length === 0) writeChunk(p, m)
        else p.chunks.push(m)
        return
      }
      p.done = m
      queued[p.slot]!-- // its output stays counted in the worker's in-flight budget until written
      if (m.id === head) advance()
      else safeDispatch()
    }
    const url = workerUrl('dump-worker')
    // what a worker needs of the test switches (functions cannot be sent)
    const workerInternals: DumpInternals = internals.fastPaths !== undefined ? { fastPaths: internals.fastPaths } : {}
    // started when the first range for it comes: a file of few ranges does not pay for idle workers
    const startWorker = (): void => {
      const ring = new SharedArrayBuffer(RING_BYTES)
      const inFlight = new SharedArrayBuffer(4)
      rings.push({ bytes: Buffer.from(ring), inFlight: new Int32Array(inFlight) })
      const setup: WorkerSetup = {
        file,
        opts,
        colorLevel: cli.colorLevel,
        internals: workerInternals,
        ring,
        inFlight,
        window: opts.window ?? window,
      }
      const w = new Worker(url, {
        workerData: setup,
        resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
      })
      w.on('message', onMessage)
      w.on('error', (e) => stop(e))
      w.on('exit', (code) => {
        if (!finished && code !== 0) stop(new Error(`dump worker exited with code ${code}`))
      })
      workers.push(w)
      queued.push(0)
    }
    safeDispatch()
  })
}
