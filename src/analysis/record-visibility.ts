// What each isolation level makes of a batch's records, decided batch by batch in log order, the way the
// consumer decides it (CompletedFetch.nextFetchedRecord, Kafka's clients): a fetch is bounded by the high
// watermark (read_uncommitted) or the last stable offset (read_committed), whole batches only (LogSegment.read
// cuts at the batch holding the bound), control batches are never returned, and read_committed drops a
// transactional batch whose producer has an aborted transaction started at or before it (the broker's
// aborted-transaction list from .txnindex, FetchResponse.abortedTransactions) until that producer's ABORT marker.
//
// A transaction's outcome is written after its records, so a bounded reader cannot know it when it reaches
// them: the facts are what Kafka keeps itself, the aborted transactions' ranges (its .txnindex) and the
// transactions still open, never one entry per committed transaction; from a first, header-only pass
// (scan/export-scan.ts, AbortedRanges), or, in export's one read (scan/export-read.ts), as the markers pass
// (AbortedQueueAsRead) for the batches no open transaction can still change. This file answers per batch, in
// constant memory beyond those.
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
 * Kafka's .txnindex holds), nothing for a committed one. 16 bytes an aborted transaction, in blocks of BLOCK
 * entries that are never copied to grow: the first offset (8), the marker's distance from it (4; a larger one
 * goes to a map) and the producer as an index into the distinct producers (4). A 1 GiB segment of small
 * transactions holds a million or more: 24 bytes each in arrays doubled to grow peaked at three times that.
 */
export class AbortedRanges implements RunSink {
  private readonly firsts: Array<BigInt64Array<ArrayBuffer>> = []
  private readonly spans: Uint32Array[] = []
  private readonly pidIxs: Uint32Array[] = []
  private readonly far = new Map<number, bigint>()
  private readonly pids: bigint[] = []
  private readonly pidIndex = new Map<bigint, number>()
  length = 0

  plainBatch(): void {}
  controlBatch(): void {}
  transactionEnded(t: StreamedTransaction): void {
    if (t.marker === null || t.marker.type !== 'ABORT' || t.empty) return
    const n = this.length++
    const b = n >>> BLOCK_BITS
    const j = n & BLOCK_MASK
    if (b === this.firsts.length) {
      this.firsts.push(new BigInt64Array(BLOCK))
      this.spans.push(new Uint32Array(BLOCK))
      this.pidIxs.push(new Uint32Array(BLOCK))
    }
    const pid = toBigInt(t.producerId)
    let ix = this.pidIndex.get(pid)
    if (ix === undefined) {
      ix = this.pids.length
      this.pids.push(pid)
      this.pidIndex.set(pid, ix)
    }
    const first = toBigInt(t.firstOffset)
    const span = toBigInt(t.marker.offset) - first
    this.firsts[b]![j] = first
    this.pidIxs[b]![j] = ix
    if (span >= 0n && span < FAR) this.spans[b]![j] = Number(span)
    else {
      this.spans[b]![j] = FAR_MARK
      this.far.set(n, span)
    }
  }

  /** indexes by first offset: the consumer's queue (a PriorityQueue on firstOffset in Kafka's client) */
  byFirstOffset(): Uint32Array {
    const ix = new Uint32Array(this.length)
    for (let i = 0; i < ix.length; i++) ix[i] = i
    return ix.sort((a, b) => {
      const fa = this.firstOffset(a)
      const fb = this.firstOffset(b)
      return fa < fb ? -1 : fa > fb ? 1 : a - b
    })
  }

  producerId(i: number): bigint {
    return this.pids[this.pidIxs[i >>> BLOCK_BITS]![i & BLOCK_MASK]!]!
  }
  firstOffset(i: number): bigint {
    return this.firsts[i >>> BLOCK_BITS]![i & BLOCK_MASK]!
  }
  markerOffset(i: number): bigint {
    const s = this.spans[i >>> BLOCK_BITS]![i & BLOCK_MASK]!
    return this.firstOffset(i) + (s === FAR_MARK ? this.far.get(i)! : BigInt(s))
  }
}

const BLOCK_BITS = 16
const BLOCK = 1 << BLOCK_BITS
const BLOCK_MASK = BLOCK - 1
/** a marker this far or farther from its transaction's first offset is kept in the map */
const FAR_MARK = 0xffffffff
const FAR = BigInt(FAR_MARK)

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

/** The aborted transactions as the consumer meets them: each one's producer and ABORT marker, by first offset. */
export interface AbortedQueue {
  /** every aborted transaction not yet admitted whose first offset is at or below `last`, in first-offset order */
  admit: (last: bigint, to: (producerId: bigint, markerOffset: bigint) => void) => void
}

/** AbortedRanges in first-offset order (the consumer's PriorityQueue on firstOffset in Kafka's client) */
class SortedRanges implements AbortedQueue {
  private readonly queue: Uint32Array
  private qi = 0
  constructor(private readonly a: AbortedRanges) {
    this.queue = a.byFirstOffset()
  }
  admit(last: bigint, to: (producerId: bigint, markerOffset: bigint) => void): void {
    const a = this.a
    while (this.qi < this.queue.length && a.firstOffset(this.queue[this.qi]!) <= last) {
      const i = this.queue[this.qi++]!
      to(a.producerId(i), a.markerOffset(i))
    }
  }
}

/** Steps through a partition's batches in log order (the second pass) and says what each isolation level makes of them. */
export class RecordVisibility {
  private readonly queue: AbortedQueue
  /** producers inside an aborted transaction at this point of the log: producer id -> its ABORT marker's offset */
  private readonly abortedNow = new Map<bigint, bigint>()
  private readonly enter = (pid: bigint, marker: bigint): void => {
    this.abortedNow.set(pid, marker)
  }
  private readonly out: BatchVisibility = {
    visibleReadCommitted: false,
    visibleReadUncommitted: false,
    transactionOutcome: 'none',
    fromOffset: 0n,
  }

  /** `queue`: the aborted transactions as they become known (export's one read), else all of facts.aborted */
  constructor(
    private facts: Omit<VisibilityFacts, 'aborted'> & { aborted?: AbortedRanges },
    queue?: AbortedQueue,
  ) {
    this.queue = queue ?? new SortedRanges(facts.aborted!)
  }

  /** the facts from here on (export's one read: the partition's final facts once its last batch was read) */
  settle(facts: Omit<VisibilityFacts, 'aborted'>): void {
    this.facts = facts
  }

  /**
   * The batch's visibility (one reused object: read it before the next call). `controlType` is a control
   * batch's marker type (0 ABORT, 1 COMMIT; others for KRaft and leader-change records).
   */
  batch(b: VisibilityBatch, controlType?: number): BatchVisibility {
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
    this.queue.admit(last, this.enter)
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

interface AbortedEntry {
  first: bigint
  seq: number
  producerId: bigint
  marker: bigint
}

/**
 * The aborted transactions told as their markers are read (a RunSink, like AbortedRanges), handed out by first
 * offset: export's one read steps a batch only once every transaction begun at or before it has ended, so the
 * queue holds all the consumer would admit there. A min-heap on (first offset, marker order): what the sorted
 * AbortedRanges gives, holding only the transactions not yet admitted.
 */
export class AbortedQueueAsRead implements RunSink, AbortedQueue {
  private readonly heap: AbortedEntry[] = []
  private seq = 0

  plainBatch(): void {}
  controlBatch(): void {}
  transactionEnded(t: StreamedTransaction): void {
    if (t.marker === null || t.marker.type !== 'ABORT' || t.empty) return
    const e = {
      first: toBigInt(t.firstOffset),
      seq: this.seq++,
      producerId: toBigInt(t.producerId),
      marker: toBigInt(t.marker.offset),
    }
    const h = this.heap
    let i = h.push(e) - 1
    while (i > 0) {
      const p = (i - 1) >> 1
      if (!before(h[i]!, h[p]!)) break
      ;[h[i], h[p]] = [h[p]!, h[i]!]
      i = p
    }
  }

  admit(last: bigint, to: (producerId: bigint, markerOffset: bigint) => void): void {
    const h = this.heap
    while (h.length > 0 && h[0]!.first <= last) {
      const top = h[0]!
      const end = h.pop()!
      if (h.length > 0) {
        h[0] = end
        for (let i = 0; ; ) {
          const l = 2 * i + 1
          const r = l + 1
          let m = i
          if (l < h.length && before(h[l]!, h[m]!)) m = l
          if (r < h.length && before(h[r]!, h[m]!)) m = r
          if (m === i) break
          ;[h[i], h[m]] = [h[m]!, h[i]!]
          i = m
        }
      }
      to(top.producerId, top.marker)
    }
  }
}

function before(a: AbortedEntry, b: AbortedEntry): boolean {
  return a.first < b.first || (a.first === b.first && a.seq < b.seq)
}
