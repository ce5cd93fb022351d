// The cleaner's view of transactions while it walks the log (Kafka's CleanedTransactionMetadata): the aborted
// transactions (what .txnindex lists, UnifiedLog.collectAbortedTransactions; here from the markers), the ones in
// progress, and whether a batch or a marker can be discarded.
import type { I64 } from '../../bytes/int64.js'
import { toBigInt } from '../../bytes/int64.js'
import type { CleanBatch, CleanSegment } from './model.js'

export interface AbortedTxn {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
}

/** a batch header as HeaderFacts takes it: the partition scan's numbers as they are (I64), nothing converted per batch */
export interface HeaderBatch {
  baseOffset: I64
  maxTimestamp: I64
  producerId: I64
  transactional: boolean
  control: string | null
  records: number
}

interface SegmentFacts {
  first: I64 | null
  largest: I64
  dataRecords: number
}

/**
 * What the cleanup rules take from the batch headers, told each batch as the partition scan streams it (no pass
 * of its own): each segment's timestamps and declared records, and the aborted transactions with data. A partition
 * of small transactions aborts hundreds of thousands, held until cleanup runs after the whole scan: they are kept as
 * int64 triples (producer id, first offset, last offset), 24 bytes each, and made objects only for a partition that
 * compacts (`abortedTxns`).
 */
export class HeaderFacts {
  private readonly segs = new Map<string, SegmentFacts>()
  /** the segment of the previous batch (batches come segment by segment) */
  private file: string | null = null
  private seg: SegmentFacts | null = null
  /** producer id -> first offset of its transaction in progress */
  private readonly open = new Map<I64, I64>()
  private aborted = new BigInt64Array(3 * 16)
  private abortedCount = 0

  /** one batch of the segment `file`, in log order */
  batch(file: string, b: HeaderBatch): void {
    let s = this.seg
    if (file !== this.file || s === null) {
      s = this.segs.get(file) ?? null
      if (s === null) {
        s = { first: null, largest: -1, dataRecords: 0 }
        this.segs.set(file, s)
      }
      this.file = file
      this.seg = s
    }
    if (s.first === null) s.first = b.maxTimestamp
    if (b.maxTimestamp > s.largest) s.largest = b.maxTimestamp
    if (b.control === null) {
      if (b.records > 0) s.dataRecords += b.records
      if (b.transactional && !this.open.has(b.producerId)) this.open.set(b.producerId, b.baseOffset)
    } else if (b.control === 'ABORT' || b.control === 'COMMIT') {
      const first = this.open.get(b.producerId)
      if (b.control === 'ABORT' && first !== undefined) this.abort(b.producerId, first, b.baseOffset)
      this.open.delete(b.producerId)
    }
  }

  private abort(producerId: I64, first: I64, last: I64): void {
    const at = 3 * this.abortedCount
    if (at + 3 > this.aborted.length) {
      const grown = new BigInt64Array(Math.max(3 * 16, 2 * this.aborted.length))
      grown.set(this.aborted)
      this.aborted = grown
    }
    this.aborted[at] = BigInt(producerId)
    this.aborted[at + 1] = BigInt(first)
    this.aborted[at + 2] = BigInt(last)
    this.abortedCount++
  }

  /**
   * The partition's scan is over: the triples' room to grow let go (each partition's array doubles as it fills: up
   * to twice its triples, 5 MiB over 50 partitions of 1,000,000 small transactions)
   */
  trim(): void {
    if (this.aborted.length > 3 * this.abortedCount) this.aborted = this.aborted.slice(0, 3 * this.abortedCount)
  }

  /** the segments' timestamps and record counts filled in */
  fill(segs: readonly CleanSegment[]): void {
    for (const seg of segs) {
      const s = this.segs.get(seg.file)
      if (s === undefined) continue
      seg.firstBatchTimestamp = s.first === null ? null : toBigInt(s.first)
      seg.largestTimestamp = toBigInt(s.largest)
      seg.dataRecords = s.dataRecords
    }
  }

  /** the aborted transactions by first offset (those with the same first offset in the order of their markers) */
  abortedTxns(): AbortedTxn[] {
    const a = this.aborted
    const out: AbortedTxn[] = []
    for (let i = 0; i < 3 * this.abortedCount; i += 3)
      out.push({ producerId: a[i]!, firstOffset: a[i + 1]!, lastOffset: a[i + 2]! })
    return out.sort((x, y) => (x.firstOffset < y.firstOffset ? -1 : x.firstOffset > y.firstOffset ? 1 : 0))
  }
}

export class CleanedTransactionMetadata {
  private next = 0
  private readonly ongoingCommitted = new Set<bigint>()
  /** producer id -> whether a batch of its aborted transaction was seen */
  private readonly ongoingAborted = new Map<bigint, boolean>()

  constructor(private readonly aborted: readonly AbortedTxn[]) {}

  private consumeUpTo(offset: bigint): void {
    while (this.next < this.aborted.length && this.aborted[this.next]!.firstOffset <= offset) {
      const t = this.aborted[this.next++]!
      if (!this.ongoingAborted.has(t.producerId)) this.ongoingAborted.set(t.producerId, false)
    }
  }

  /** onControlBatchRead: an ABORT stays while batches of its transaction were seen; a COMMIT goes when none were */
  onControlBatchRead(b: CleanBatch): boolean {
    this.consumeUpTo(b.lastOffset)
    if (b.control === 'EMPTY') return true // an emptied control batch: already cleaned
    if (b.control === 'ABORT') {
      const seen = this.ongoingAborted.get(b.producerId)
      this.ongoingAborted.delete(b.producerId)
      return seen !== true
    }
    if (b.control === 'COMMIT') return !this.ongoingCommitted.delete(b.producerId)
    return false
  }

  /** at this point of the walk: whether a batch of the producer's aborted transaction was seen (undefined: none in progress) */
  abortedSeen(producerId: bigint): boolean | undefined {
    return this.ongoingAborted.get(producerId)
  }

  /** at this point of the walk: whether the producer has a transaction in progress that is not aborted */
  committedOpen(producerId: bigint): boolean {
    return this.ongoingCommitted.has(producerId)
  }

  /** onBatchRead: true when the batch belongs to an aborted transaction */
  onBatchRead(b: CleanBatch): boolean {
    this.consumeUpTo(b.lastOffset)
    if (!b.transactional) return false
    if (this.ongoingAborted.has(b.producerId)) {
      this.ongoingAborted.set(b.producerId, true)
      return true
    }
    this.ongoingCommitted.add(b.producerId)
    return false
  }
}
