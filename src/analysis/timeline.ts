// A partition's history as runs: each transaction is one run (however its batches interleave with
// other producers'), adjacent non-transactional batches of one producer form a plain run, and
// control batches that are not COMMIT/ABORT (LEADER_CHANGE ...) are runs of their own.
// TimelineRecorder (timeline-recorder.ts) hands them out in first-offset order while the analyzer
// streams (`tsdump txns`); the lane below is built on the fly in memory bounded by its width.
import type { Transaction } from './transactions.js'

export type TimelineRun =
  | {
      kind: 'transaction'
      firstOffset: bigint
      txn: Transaction
      interleaved: boolean
      /**
       * Only when the transaction stayed open behind more runs than the recorder holds back
       * (MAX_HELD_RUNS): 'early' = listed, as it stood, before the runs that started after it;
       * 'end' = the same transaction again where it ended (or at the end of the log, still open).
       */
      listed?: 'early' | 'end'
    }
  | {
      kind: 'plain'
      firstOffset: bigint
      lastOffset: bigint
      producerId: bigint
      producerEpoch: number
      records: number
      batches: number
    }
  | { kind: 'control'; firstOffset: bigint; typeName: string; producerId: bigint }

/** what the analyzer tells the recorder a transaction's batch is: its COMMIT/ABORT marker, or data (LANE_TXN + seq) */
export const LANE_MARKER = 1
export const LANE_TXN = 3

/** What an analyzer collects when no sink streams the runs away (library use, tests): as long as the output. */
export interface Timeline {
  /** in order of first offset */
  runs: TimelineRun[]
  /** every transaction, by seq */
  transactions: Transaction[]
}

export interface TimelineOptions {
  /** receives each run, in first-offset order */
  sink: (r: TimelineRun) => void
  /** the lane, sized from a first pass; null: no lane */
  lane: LaneBuilder | null
}

export type LaneChar = 'C' | 'A' | 'O' | '.' | '|' | '+'

export interface Lane {
  chars: LaneChar[]
  batchesPerChar: number
}

/** the more important kind wins a character that stands for several batches */
const BY_PRIORITY: readonly LaneChar[] = ['.', '+', '|', 'C', 'A', 'O']
const PRIORITY: Record<LaneChar, number> = { '.': 0, '+': 1, '|': 2, C: 3, A: 4, O: 5 }

/**
 * One character per batch, or per group of `batchesPerChar` batches when there are more than `width`
 * (most important kind wins). The batch count comes from a first pass, so memory is one byte per
 * character however many batches and transactions there are; a transaction's data characters are set
 * when its outcome is known (the recorder remembers which groups it touched while it is open).
 */
export class LaneBuilder {
  readonly batchesPerChar: number
  protected best: Uint8Array
  protected seen = 0

  constructor(batches: number, width: number) {
    this.batchesPerChar = Math.max(1, Math.ceil(batches / Math.max(1, width)))
    this.best = new Uint8Array(Math.max(1, Math.ceil(batches / this.batchesPerChar)))
  }

  /** the group batch `index` falls into (the last one should the log have grown since the first pass) */
  group(index: number): number {
    if (index >= this.seen) this.seen = index + 1
    return Math.min(this.best.length - 1, Math.floor(index / this.batchesPerChar))
  }

  mark(group: number, c: LaneChar): void {
    const p = PRIORITY[c]
    if (p > this.best[group]!) this.best[group] = p
  }

  result(): Lane {
    const n = Math.min(this.best.length, Math.ceil(this.seen / this.batchesPerChar))
    const chars: LaneChar[] = []
    for (let i = 0; i < n; i++) chars.push(BY_PRIORITY[this.best[i]!]!)
    return { chars, batchesPerChar: this.batchesPerChar }
  }
}

/** a PagedLane's window when it starts */
const FIRST_WINDOW = 4096

/** where a PagedLane keeps the batches that left its window: a byte a batch, read and written at positions */
export interface LaneStore {
  writeAt(position: number, b: Uint8Array): void
  /** fills `into`; bytes never written are zeros */
  readAt(position: number, into: Uint8Array): void
}

/**
 * A lane of one character per batch while the batch count is not known yet (`txns` in one scan: the header line
 * needs the scan's end), at any batch count: the newest `window` batches in memory, the older ones in a store (a transaction's
 * outcome marks its batches when its marker comes, so a mark may reach back into the store); fold() reads them back
 * in order into what LaneBuilder(batches, width) would have built from the same marks (the most important kind of
 * a group's batches). Memory is the window, whatever the log's length.
 */
export class PagedLane extends LaneBuilder {
  /** batch index of best[0] */
  private start = 0
  private readonly one = new Uint8Array(1)

  constructor(
    private readonly window: number,
    private readonly store: () => LaneStore,
  ) {
    // the window grows to its size as batches come: a partition of a few batches (there may be thousands) does
    // not allocate a whole window, which glibc would keep after it is freed (5,000 partitions: 192 -> 105 MiB)
    super(Math.min(window, FIRST_WINDOW), Math.min(window, FIRST_WINDOW))
  }

  override group(index: number): number {
    if (index >= this.seen) this.seen = index + 1
    while (index >= this.start + this.best.length && this.best.length < this.window) {
      const grown = new Uint8Array(Math.min(this.window, this.best.length * 2))
      grown.set(this.best)
      this.best = grown
    }
    while (index >= this.start + this.best.length) {
      // the older half leaves for the store
      const half = this.best.length >>> 1
      this.store().writeAt(this.start, this.best.subarray(0, half))
      this.best.copyWithin(0, half)
      this.best.fill(0, this.best.length - half)
      this.start += half
    }
    return index
  }

  override mark(group: number, c: LaneChar): void {
    const p = PRIORITY[c]
    if (group >= this.start) {
      if (p > this.best[group - this.start]!) this.best[group - this.start] = p
      return
    }
    const s = this.store()
    s.readAt(group, this.one)
    if (p > this.one[0]!) {
      this.one[0] = p
      s.writeAt(group, this.one)
    }
  }

  fold(batches: number, width: number): Lane {
    const lane = new LaneBuilder(batches, width)
    const chunk = new Uint8Array(1 << 16)
    for (let at = 0; at < Math.min(this.start, this.seen); at += chunk.length) {
      const n = Math.min(chunk.length, this.start - at)
      const part = chunk.subarray(0, n)
      this.store().readAt(at, part)
      for (let i = 0; i < n && at + i < this.seen; i++) lane.mark(lane.group(at + i), BY_PRIORITY[part[i]!]!)
    }
    for (let i = this.start; i < this.seen; i++) lane.mark(lane.group(i), BY_PRIORITY[this.best[i - this.start]!]!)
    return lane.result()
  }
}
