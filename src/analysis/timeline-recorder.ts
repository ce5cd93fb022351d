// Hands out the runs of `tsdump txns` while the analyzer streams, in first-offset order, each as soon
// as it and every run before it are complete: a plain run when another batch follows it, a control
// run at once, a transaction at its marker. Runs that start while an earlier transaction is still
// open are held back (that is what keeps the order of the timeline), at most MAX_HELD_RUNS of them;
// beyond that the open transaction at the head is listed early and listed again where it ends
// (TimelineRun.listed), so memory stays bounded by the open transactions, not by the log.
// Per transaction the recorder keeps state only while it is open.
import { toBigInt } from '../bytes/int64.js'
import type { I64 } from '../bytes/int64.js'
import type { OpenRec, Txn } from './streaming-txn.js'
import { toTransaction } from './streaming-txn.js'
import type { LaneBuilder, LaneChar, Timeline, TimelineOptions, TimelineRun } from './timeline.js'
import { LANE_MARKER } from './timeline.js'
import type { BatchFacts } from './batch-facts.js'

/** how many complete runs may wait behind an open transaction before it is listed early */
export const MAX_HELD_RUNS = 10_000

/** a run not yet handed out; transactions stay in Txn (I64) form until then */
type Held =
  | { kind: 'transaction'; txn: Txn; listed?: 'end' }
  | {
      kind: 'plain'
      firstOffset: I64
      lastOffset: I64
      producerId: I64
      producerEpoch: number
      records: number
      batches: number
      done: boolean
    }
  | { kind: 'control'; firstOffset: I64; typeName: string; producerId: I64 }

export class TimelineRecorder {
  private readonly held: Held[] = []
  private head = 0
  private plainRun: (Held & { kind: 'plain' }) | null = null
  /**
   * the transactions opened, in order, for the end of the log: those still open (tl set) and some that ended
   * since, left out when they are most of it (an open transaction's state is its `tl`, not a map entry: a Map
   * keyed by millions of short-lived objects was a fifth of the recorder's time)
   */
  private opened: Txn[] = []
  private openCount = 0
  private readonly sink: (r: TimelineRun) => void
  private readonly lane: LaneBuilder | null
  private readonly maxHeld: number
  /** collected runs and transactions when no sink was given (memory proportional to the output) */
  private readonly collected: Timeline | null

  /** `opts`: where the runs go (AnalyzerHook.timeline); null: collect them. `maxHeldRuns`: AnalyzerInternals (tests) */
  constructor(opts: TimelineOptions | null, maxHeldRuns = MAX_HELD_RUNS) {
    if (opts === null) {
      const c: Timeline = { runs: [], transactions: [] }
      this.collected = c
      this.sink = (r) => {
        c.runs.push(r)
        if (r.kind === 'transaction' && r.listed !== 'end') c.transactions.push(r.txn)
      }
      this.lane = null
      this.maxHeld = Number.MAX_SAFE_INTEGER
    } else {
      this.collected = null
      this.sink = opts.sink
      this.lane = opts.lane
      this.maxHeld = maxHeldRuns
    }
  }

  /** a new transaction, one run however its batches interleave */
  transaction(t: Txn): void {
    this.held.push({ kind: 'transaction', txn: t })
    t.tl = { groups: [], early: false }
    if (this.opened.length >= 2 * this.openCount + 1024) this.opened = this.opened.filter((x) => x.tl !== null)
    this.opened.push(t)
    this.openCount++
  }

  private laneChar(index: number, c: LaneChar): void {
    if (this.lane !== null) this.lane.mark(this.lane.group(index), c)
  }

  private endPlain(): void {
    if (this.plainRun === null) return
    this.plainRun.done = true
    this.plainRun = null
    this.flush()
  }

  /** a non-transactional data batch: adjacent ones of one producer form a plain run */
  plain(b: BatchFacts, index: number): void {
    const p = this.plainRun
    if (p !== null && p.producerId === b.producerId && p.producerEpoch === b.producerEpoch) {
      p.lastOffset = b.lastOffset
      p.records += b.recordsCount
      p.batches++
    } else {
      this.endPlain()
      this.plainRun = {
        kind: 'plain',
        firstOffset: b.baseOffset,
        lastOffset: b.lastOffset,
        producerId: b.producerId,
        producerEpoch: b.producerEpoch,
        records: b.recordsCount,
        batches: 1,
        done: false,
      }
      this.held.push(this.plainRun)
    }
    this.laneChar(index, '.')
  }

  /** a control batch that is not COMMIT/ABORT (or could not be read) */
  control(b: BatchFacts, typeName: string, index: number): void {
    this.endPlain() // any other batch ends a plain run, so runs read in log order
    this.held.push({ kind: 'control', firstOffset: b.baseOffset, typeName, producerId: b.producerId })
    this.laneChar(index, '+')
    this.flush()
  }

  /** a data batch (code LANE_TXN + seq) or the marker (LANE_MARKER) of transaction `t` */
  txnBatch(t: Txn, code: number, index: number): void {
    this.endPlain()
    if (t.spanBatches === 0) t.firstIndex = index
    t.lastIndex = index
    t.spanBatches++
    const rec = t.tl
    if (code !== LANE_MARKER) {
      if (this.lane !== null && rec !== null) {
        const g = this.lane.group(index)
        if (rec.groups[rec.groups.length - 1] !== g) rec.groups.push(g)
      }
      return
    }
    this.laneChar(index, '|')
    this.ended(t, rec)
    this.flush()
  }

  /** `t` has its marker, or the log ended with it open */
  private ended(t: Txn, rec: OpenRec | null): void {
    if (rec === null) return
    t.tl = null
    this.openCount--
    if (this.lane !== null) {
      const c: LaneChar = t.marker?.type === 'COMMIT' ? 'C' : t.marker?.type === 'ABORT' ? 'A' : 'O'
      for (const g of rec.groups) this.lane.mark(g, c)
    }
    if (rec.early) this.held.push({ kind: 'transaction', txn: t, listed: 'end' })
  }

  private emit(h: Held): void {
    if (h.kind === 'transaction') {
      const t = h.txn
      // interleaved: other batches sit between its first and last batch (data + marker)
      const interleaved = t.spanBatches > 0 && t.lastIndex - t.firstIndex + 1 > t.spanBatches
      const txn = toTransaction(t)
      const run: TimelineRun = { kind: 'transaction', firstOffset: txn.firstOffset, txn, interleaved }
      const listed = h.listed ?? (t.tl?.early === true ? 'early' : undefined)
      if (listed !== undefined) run.listed = listed
      this.sink(run)
    } else if (h.kind === 'plain') {
      this.sink({
        kind: 'plain',
        firstOffset: toBigInt(h.firstOffset),
        lastOffset: toBigInt(h.lastOffset),
        producerId: toBigInt(h.producerId),
        producerEpoch: h.producerEpoch,
        records: h.records,
        batches: h.batches,
      })
    } else {
      this.sink({
        kind: 'control',
        firstOffset: toBigInt(h.firstOffset),
        typeName: h.typeName,
        producerId: toBigInt(h.producerId),
      })
    }
  }

  private complete(h: Held): boolean {
    if (h.kind === 'plain') return h.done
    if (h.kind === 'control' || h.listed === 'end') return true
    return h.txn.tl === null
  }

  /** hand out the complete runs at the head; list the head's open transaction early when too many wait behind it */
  private flush(): void {
    const held = this.held
    while (this.head < held.length) {
      const h = held[this.head]!
      if (!this.complete(h)) {
        if (held.length - this.head <= this.maxHeld || h.kind !== 'transaction') break
        h.txn.tl!.early = true
      }
      this.emit(h)
      held[this.head++] = undefined as unknown as Held
    }
    if (this.head === held.length) {
      held.length = 0
      this.head = 0
    } else if (this.head > 4096 && this.head * 2 > held.length) {
      held.splice(0, this.head)
      this.head = 0
    }
  }

  /** After the last batch: hand out what is left (open transactions as they stand); the collected timeline when no sink was given. */
  build(_batchCount: number): Timeline | null {
    this.endPlain()
    const open = this.opened.filter((t) => t.tl !== null)
    for (const t of open) if (t.tl!.early) this.ended(t, t.tl)
    for (const t of open) this.ended(t, t.tl)
    this.opened = []
    for (let i = this.head; i < this.held.length; i++) this.emit(this.held[i]!)
    this.held.length = 0
    this.head = 0
    return this.collected
  }
}
