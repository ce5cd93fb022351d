// A partition's history as runs: each transaction is one run (however its batches interleave with
// other producers'), adjacent non-transactional batches of one producer form a plain run, and
// control batches that are not COMMIT/ABORT (LEADER_CHANGE ...) are runs of their own.
// TimelineRecorder (timeline-recorder.ts) hands them out in first-offset order while the analyzer
// streams (`tsdump txns`); the lane below is built on the fly in memory bounded by its width.
import type { Transaction } from './transactions.js'

export type TimelineRun =
  | {
    kind: 'transaction', firstOffset: bigint, txn: Transaction, interleaved: boolean
    /**
     * Only when the transaction stayed open behind more runs than the recorder holds back
     * (MAX_HELD_RUNS): 'early' = listed, as it stood, before the runs that started after it;
     * 'end' = the same transaction again where it ended (or at the end of the log, still open).
     */
    listed?: 'early' | 'end'
  }
  | { kind: 'plain', firstOffset: bigint, lastOffset: bigint, producerId: bigint, producerEpoch: number, records: number, batches: number }
  | { kind: 'control', firstOffset: bigint, typeName: string, producerId: bigint }

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

export interface Lane { chars: LaneChar[], batchesPerChar: number }

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

  constructor (batches: number, width: number) {
    this.batchesPerChar = Math.max(1, Math.ceil(batches / Math.max(1, width)))
    this.best = new Uint8Array(Math.max(1, Math.ceil(batches / this.batchesPerChar)))
  }

  /** the group batch `index` falls into (the last one should the log have grown since the first pass) */
  group (index: number): number {
    if (index >= this.seen) this.seen = index + 1
    return Math.min(this.best.length - 1, Math.floor(index / this.batchesPerChar))
  }

  mark (group: number, c: LaneChar): void {
    const p = PRIORITY[c]
    if (p > this.best[group]!) this.best[group] = p
  }

  result (): Lane {
    const n = Math.min(this.best.length, Math.ceil(this.seen / this.batchesPerChar))
    const chars: LaneChar[] = []
    for (let i = 0; i < n; i++) chars.push(BY_PRIORITY[this.best[i]!]!)
    return { chars, batchesPerChar: this.batchesPerChar }
  }
}

/** thrown by HeldLane past the batches it holds, and by `txns`' one scan past the runs it holds */
export class HoldExceeded extends Error {}

/**
 * A lane of one character per batch while the batch count is not known yet (`txns` in one scan: the header line
 * needs the scan's end), for at most `max` batches; fold() gives what LaneBuilder(batches, width) would have built
 * from the same marks (the most important kind of a group's batches).
 */
export class HeldLane extends LaneBuilder {
  constructor (private readonly max: number) { super(1024, 1024) }

  override group (index: number): number {
    if (index >= this.best.length) {
      if (index >= this.max) throw new HoldExceeded()
      const b = new Uint8Array(Math.min(this.max, Math.max(index + 1, this.best.length * 2)))
      b.set(this.best)
      this.best = b
    }
    return super.group(index)
  }

  fold (batches: number, width: number): Lane {
    const lane = new LaneBuilder(batches, width)
    for (let i = 0; i < this.seen; i++) lane.mark(lane.group(i), BY_PRIORITY[this.best[i]!]!)
    return lane.result()
  }
}
