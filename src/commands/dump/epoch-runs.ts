// What the dump of a partition's .log segments saw of their batches' leader epochs, for the leader-epoch-checkpoint
// dumped after them (dump-partition-files.ts checks every batch's epoch against the cache): runs of consecutive
// batches with one epoch, each kept as its first and last base offset, its batch count and where its first batch
// is. The check needs no second read of the segments when no cache entry starts inside a run (then every batch of
// the run gets the same cached epoch); otherwise, or past MAX_RUNS, or when a segment was not read whole here,
// it reads them as before.
import type { I64 } from '../../bytes/int64.js'
import type { EpochEntry } from '../../io/partition-files.js'

const MAX_RUNS = 1 << 16

/** last: the largest base offset in the run */
interface Run {
  first: bigint
  last: bigint
  epoch: number
  batches: number
  log: string
  position: number
}

export class EpochRuns {
  private readonly runs: Run[] = []
  /** the segments read whole, in order */
  readonly segments: string[] = []
  private valid = true

  /** `dir`: the partition directory */
  constructor(readonly dir: string) {}

  /** a v2 batch of segment `log`, in order */
  batch(baseOffset: I64, epoch: number, log: string, position: number): void {
    if (!this.valid || epoch < 0) return
    const base = BigInt(baseOffset)
    const r = this.runs[this.runs.length - 1]
    if (r !== undefined && r.epoch === epoch) {
      if (base > r.last) r.last = base
      r.batches++
      return
    }
    if (this.runs.length === MAX_RUNS) {
      this.valid = false
      return
    }
    this.runs.push({ first: base, last: base, epoch, batches: 1, log, position })
  }

  /** the segment was read whole and sound (its batches all told) */
  segmentDone(log: string): void {
    this.segments.push(log)
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
