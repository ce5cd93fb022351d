// The cleaner's view of transactions while it walks the log (Kafka's CleanedTransactionMetadata): the aborted
// transactions (what .txnindex lists, UnifiedLog.collectAbortedTransactions; here from the markers), the ones in
// progress, and whether a batch or a marker can be discarded.
import type { I64 } from '../../bytes/int64.js'
import { toBigInt } from '../../bytes/int64.js'
import { TombstoneMap } from '../../bytes/tombstone-map.js'
import type { AbortedTxn } from './aborted-pack.js'
import { AbortedPack } from './aborted-pack.js'
import type { CleanBatch, CleanSegment } from './model.js'

export type { AbortedTxn } from './aborted-pack.js'

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
 * of small transactions aborts hundreds of thousands, held until cleanup runs after the whole scan (doctor's join
 * runs between): they are kept packed (AbortedPack, 4-7 bytes each where int64 triples took 24, their arrays' room
 * to grow up to 48) and made objects only for a partition that compacts (`abortedTxns`).
 */
export class HeaderFacts {
  private readonly segs = new Map<string, SegmentFacts>()
  /** the segment of the previous batch (batches come segment by segment) */
  private file: string | null = null
  private seg: SegmentFacts | null = null
  /** producer id -> first offset of its transaction in progress */
  private readonly open = new TombstoneMap<I64, I64>()
  private readonly aborted = new AbortedPack()

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
    this.aborted.add(producerId, first, last)
  }

  /** The partition's scan is over: the packed bytes' room to grow let go, and the open transactions (no batch comes) */
  trim(): void {
    this.aborted.trim()
    this.open.clear()
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
    return this.aborted
      .list()
      .sort((x, y) => (x.firstOffset < y.firstOffset ? -1 : x.firstOffset > y.firstOffset ? 1 : 0))
  }

  /** bytes the aborted transactions are held in (the tests bound it) */
  get abortedBytes(): number {
    return this.aborted.bytes
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
