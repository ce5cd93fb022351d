// What the dump of a partition's .log segments saw of their batches' leader epochs, for the leader-epoch-checkpoint
// dumped after them (dump-partition-files.ts checks every batch's epoch against the cache): runs of consecutive
// batches with one epoch, each kept as its first and last base offset, its batch count and where its first batch
// is. The check needs no second read of the segments when no cache entry starts inside a run (then every batch of
// the run gets the same cached epoch): the cache's start offsets, read before the segments (`cacheStarts`), end a
// run where an entry starts. Past MAX_RUNS, or when a segment was not read whole here, it reads them as before.
//
// The check reads a segment as Kafka's reader does (its log recovery truncates at the first damage: no resync), so
// the runs are told a segment's batches up to its first damage, and the entry there when Kafka's reader frames it
// (CorruptEvent.kafkaEntry); past an entry set aside only for --max-batch-bytes they go on when the dump resumed at
// its end, as Kafka's reader does, and otherwise cannot give the answer.
import type { I64 } from '../../bytes/int64.js'
import type { CorruptEvent } from '../../decode/frame.js'
import type { EpochEntry } from '../../io/partition-files.js'
import type { HeldSegments } from '../../io/held-segments.js'
import { upperBound } from '../../bytes/sorted-search.js'

const MAX_RUNS = 1 << 16

/** last: the largest base offset in the run */
interface Run {
  first: bigint
  last: bigint
  epoch: number
  batches: number
  log: string
  position: number
  /** the first cache entry start above `first`: a batch at or past it begins a new run */
  splitAt: bigint | null
}

export class EpochRuns {
  private readonly runs: Run[] = []
  /** the segments read whole, in order */
  readonly segments: string[] = []
  private valid = true
  /** the segment being told reached damage: Kafka's reader stops there */
  private stopped = false
  /** the cache's entry start offsets, ascending (none known: empty) */
  private starts: bigint[] = []
  /** what the check's first read of the leader-epoch-checkpoint held, for its dump after the segments */
  held: HeldSegments | undefined

  /** `dir`: the partition directory */
  constructor(readonly dir: string) {}

  /** the leader-epoch-checkpoint's entry start offsets, before any batch is told (ignored unless strictly ascending) */
  cacheStarts(starts: bigint[]): void {
    if (this.runs.length > 0 || starts.length > MAX_RUNS) return
    for (let i = 1; i < starts.length; i++) if (starts[i]! <= starts[i - 1]!) return
    this.starts = starts
  }

  /** a v2 batch of segment `log`, in order */
  batch(baseOffset: I64, epoch: number, log: string, position: number): void {
    if (!this.valid || this.stopped || epoch < 0) return
    const base = BigInt(baseOffset)
    const r = this.runs[this.runs.length - 1]
    if (r !== undefined && r.epoch === epoch && (r.splitAt === null || base < r.splitAt)) {
      if (base > r.last) r.last = base
      r.batches++
      return
    }
    if (this.runs.length === MAX_RUNS) {
      this.valid = false
      return
    }
    const next = upperBound(this.starts, base)
    const splitAt = next < this.starts.length ? this.starts[next]! : null
    this.runs.push({ first: base, last: base, epoch, batches: 1, log, position, splitAt })
  }

  /** the segment was read whole (its batches told up to its first damage) */
  segmentDone(log: string): void {
    this.segments.push(log)
    this.stopped = false
  }

  /** framing damage in segment `log`, or its tail (no event): what Kafka's reader makes of it */
  damage(log: string, ev?: CorruptEvent): void {
    const entry = ev?.kafkaEntry
    if (ev === undefined || entry === undefined) {
      this.stopped = true
      return
    }
    if (entry.magic === 2) this.batch(entry.baseOffset, entry.partitionLeaderEpoch, log, ev.position)
    if (entry.damageAfter) this.stopped = true
    // over --max-batch-bytes: Kafka's reader goes on at the entry's end; the runs only when the dump did too (or
    // the entry ends the segment)
    else if ((ev.resyncPosition ?? ev.position + ev.length) !== ev.position + entry.sizeInBytes) this.valid = false
  }

  /** some batches were not told (a filter, worker threads, damage, --max-bytes): the check reads the segments */
  invalidate(): void {
    this.valid = false
  }

  /**
   * checkEpochs' answer for segments `logs` (the partition's, in order) against the cache's entries, or undefined
   * when these runs cannot give it
   */
  check(
    entries: Iterable<EpochEntry>,
    logs: readonly string[],
  ):
    | {
        wrong: number
        first: { epoch: number; cached: number | null; baseOffset: bigint; log: string; position: number } | null
      }
    | undefined {
    if (!this.valid || logs.length !== this.segments.length || logs.some((l, i) => l !== this.segments[i]))
      return undefined
    const it = entries[Symbol.iterator]()
    let cur: EpochEntry | null = null
    let next: EpochEntry | null = it.next().value ?? null
    let wrong = 0
    let first: { epoch: number; cached: number | null; baseOffset: bigint; log: string; position: number } | null = null
    let lastBase: bigint | null = null
    for (const r of this.runs) {
      // base offsets out of order: the cache would be walked differently batch by batch
      if (lastBase !== null && r.first < lastBase) return undefined
      lastBase = r.last
      while (next !== null && next.startOffset <= r.first) {
        cur = next
        next = it.next().value ?? null
      }
      if (next !== null && next.startOffset <= r.last) return undefined
      const cached = cur === null ? null : cur.epoch
      if (cached !== r.epoch) {
        wrong += r.batches
        if (first === null) first = { epoch: r.epoch, cached, baseOffset: r.first, log: r.log, position: r.position }
      }
    }
    return { wrong, first }
  }
}
