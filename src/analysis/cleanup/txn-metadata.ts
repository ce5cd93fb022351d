// The cleaner's view of transactions while it walks the log (Kafka's CleanedTransactionMetadata): the aborted
// transactions (what .txnindex lists, UnifiedLog.collectAbortedTransactions; here from the markers), the ones in
// progress, and whether a batch or a marker can be discarded.
import type { CleanBatch, CleanSegment } from './model.js'

export interface AbortedTxn {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
}

/**
 * What the cleanup rules take from the batch headers, told each batch as the partition scan streams it (no pass
 * of its own): each segment's timestamps and declared records, and the aborted transactions with data.
 */
export class HeaderFacts {
  private readonly segs = new Map<string, { first: bigint | null; largest: bigint; dataRecords: number }>()
  /** producer id -> first offset of its transaction in progress */
  private readonly open = new Map<bigint, bigint>()
  private readonly aborted: AbortedTxn[] = []

  /** one batch of the segment `file`, in log order */
  batch(
    file: string,
    b: Pick<CleanBatch, 'baseOffset' | 'maxTimestamp' | 'producerId' | 'transactional' | 'control' | 'records'>,
  ): void {
    let s = this.segs.get(file)
    if (s === undefined) {
      s = { first: null, largest: -1n, dataRecords: 0 }
      this.segs.set(file, s)
    }
    if (s.first === null) s.first = b.maxTimestamp
    if (b.maxTimestamp > s.largest) s.largest = b.maxTimestamp
    if (b.control === null) {
      if (b.records > 0) s.dataRecords += b.records
      if (b.transactional && !this.open.has(b.producerId)) this.open.set(b.producerId, b.baseOffset)
    } else if (b.control === 'ABORT' || b.control === 'COMMIT') {
      const first = this.open.get(b.producerId)
      if (b.control === 'ABORT' && first !== undefined)
        this.aborted.push({ producerId: b.producerId, firstOffset: first, lastOffset: b.baseOffset })
      this.open.delete(b.producerId)
    }
  }

  /** the segments' timestamps and record counts filled in; the aborted transactions by first offset */
  fill(segs: readonly CleanSegment[]): AbortedTxn[] {
    for (const seg of segs) {
      const s = this.segs.get(seg.file)
      if (s === undefined) continue
      seg.firstBatchTimestamp = s.first
      seg.largestTimestamp = s.largest
      seg.dataRecords = s.dataRecords
    }
    return this.aborted.sort((x, y) => (x.firstOffset < y.firstOffset ? -1 : x.firstOffset > y.firstOffset ? 1 : 0))
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
