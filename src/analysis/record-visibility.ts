// What each isolation level makes of a batch's records, decided batch by batch in log order, the way the
// consumer decides it (CompletedFetch.nextFetchedRecord, Kafka's clients): a fetch is bounded by the high
// watermark (read_uncommitted) or the last stable offset (read_committed), whole batches only (LogSegment.read
// cuts at the batch holding the bound), control batches are never returned, and read_committed drops a
// transactional batch whose producer has an aborted transaction started at or before it (the broker's
// aborted-transaction list from .txnindex, FetchResponse.abortedTransactions) until that producer's ABORT marker.
//
// A transaction's outcome is written after its records, so a bounded reader cannot know it when it reaches
// them: the facts come from a first, header-only pass (scan/export-scan.ts), which keeps what Kafka keeps
// itself, the aborted transactions' ranges (its .txnindex) and the transactions still open, never one entry
// per committed transaction. This file then answers per batch in a second pass, in constant memory beyond those.
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import type { RunSink, StreamedTransaction } from './run-sink.js'

export type TransactionOutcome = 'committed' | 'aborted' | 'open' | 'unknown' | 'none'

export interface BatchVisibility {
  visibleReadCommitted: boolean
  visibleReadUncommitted: boolean
  transactionOutcome: TransactionOutcome
  /**
   * the log start (analysis/log-start.ts): a consumer fetching from it gets the whole batch that holds it and
   * skips the records below it, so a batch's visible records are those at or above this offset
   */
  fromOffset: bigint
}

/** What the visibility of a batch depends on (BatchHeader and BatchFacts both have these). */
export interface VisibilityBatch {
  baseOffset: I64
  lastOffset: I64
  producerId: I64
  isTransactional: boolean
  isControl: boolean
}

/**
 * The first pass's sink: every aborted transaction's producer, first offset and marker offset (the entries
 * Kafka's .txnindex holds), in typed arrays: 24 bytes an aborted transaction, nothing for a committed one.
 */
export class AbortedRanges implements RunSink {
  private pids = new BigInt64Array(64)
  private firsts = new BigInt64Array(64)
  private markers = new BigInt64Array(64)
  length = 0

  plainBatch (): void {}
  controlBatch (): void {}
  transactionEnded (t: StreamedTransaction): void {
    if (t.outcome !== 'ABORT' || t.empty || t.markerOffset === null) return
    if (this.length === this.pids.length) this.grow()
    this.pids[this.length] = toBigInt(t.producerId)
    this.firsts[this.length] = toBigInt(t.firstOffset)
    this.markers[this.length++] = toBigInt(t.markerOffset)
  }

  private grow (): void {
    const more = (a: BigInt64Array<ArrayBuffer>): BigInt64Array<ArrayBuffer> => { const b = new BigInt64Array(a.length * 2); b.set(a); return b }
    this.pids = more(this.pids); this.firsts = more(this.firsts); this.markers = more(this.markers)
  }

  /** indexes by first offset: the consumer's queue (a PriorityQueue on firstOffset in Kafka's client) */
  byFirstOffset (): Uint32Array {
    const ix = new Uint32Array(this.length)
    for (let i = 0; i < ix.length; i++) ix[i] = i
    const f = this.firsts
    return ix.sort((a, b) => (f[a]! < f[b]! ? -1 : f[a]! > f[b]! ? 1 : a - b))
  }

  producerId (i: number): bigint { return this.pids[i]! }
  firstOffset (i: number): bigint { return this.firsts[i]! }
  markerOffset (i: number): bigint { return this.markers[i]! }
}

export interface VisibilityFacts {
  /** no consumer reads below it (DeleteRecords, retention) */
  logStartOffset: bigint
  highWatermark: bigint
  lastStableOffset: bigint
  aborted: AbortedRanges
  /** the transactions without a marker at the end of the log: producer id -> first offset */
  open: ReadonlyMap<bigint, bigint>
  /** open transactions whose marker may lie in unreadable bytes (the partition analyzer's damage-marks.ts): outcome unknown */
  unknown: ReadonlySet<bigint>
}

/** Steps through a partition's batches in log order (the second pass) and says what each isolation level makes of them. */
export class RecordVisibility {
  private readonly queue: Uint32Array
  private qi = 0
  /** producers inside an aborted transaction at this point of the log: producer id -> its ABORT marker's offset */
  private readonly abortedNow = new Map<bigint, bigint>()
  private readonly out: BatchVisibility = { visibleReadCommitted: false, visibleReadUncommitted: false, transactionOutcome: 'none', fromOffset: 0n }

  constructor (private readonly facts: VisibilityFacts) {
    this.queue = facts.aborted.byFirstOffset()
  }

  /**
   * The batch's visibility (one reused object: read it before the next call). `controlType` is a control
   * batch's marker type (0 ABORT, 1 COMMIT; others for KRaft and leader-change records).
   */
  batch (b: VisibilityBatch, controlType?: number): BatchVisibility {
    const f = this.facts
    const last = toBigInt(b.lastOffset)
    const o = this.out
    o.fromOffset = f.logStartOffset
    const fetched = last >= f.logStartOffset
    o.visibleReadUncommitted = fetched && !b.isControl && last < f.highWatermark
    const pid = toBigInt(b.producerId)
    if (b.isControl) {
      o.visibleReadCommitted = false
      o.transactionOutcome = controlType === 1 ? 'committed' : controlType === 0 ? 'aborted' : 'none'
      if (controlType === 0) this.abortedNow.delete(pid)
      return o
    }
    if (!b.isTransactional) {
      o.visibleReadCommitted = fetched && last < f.lastStableOffset
      o.transactionOutcome = 'none'
      return o
    }
    const a = f.aborted
    while (this.qi < this.queue.length && a.firstOffset(this.queue[this.qi]!) <= last) {
      const i = this.queue[this.qi++]!
      this.abortedNow.set(a.producerId(i), a.markerOffset(i))
    }
    const base = toBigInt(b.baseOffset)
    const abortMarker = this.abortedNow.get(pid)
    const openFrom = f.open.get(pid)
    if (abortMarker !== undefined && abortMarker > base) o.transactionOutcome = 'aborted'
    else if (openFrom !== undefined && openFrom <= base) o.transactionOutcome = f.unknown.has(pid) ? 'unknown' : 'open'
    else o.transactionOutcome = 'committed'
    o.visibleReadCommitted = fetched && last < f.lastStableOffset && o.transactionOutcome !== 'aborted'
    return o
  }
}
