// The cleaner's view of transactions while it walks the log (Kafka's CleanedTransactionMetadata): the aborted
// transactions (what .txnindex lists, UnifiedLog.collectAbortedTransactions; here from the markers), the ones in
// progress, and whether a batch or a marker can be discarded.
import type { CleanBatch, CleanSegment, ReadSegment } from './model.js'

export interface AbortedTxn { producerId: bigint, firstOffset: bigint, lastOffset: bigint }

/** The aborted transactions with data, by first offset, and the segments' timestamps and record counts: one header pass. */
export function headerPass (segs: readonly CleanSegment[], read: ReadSegment): AbortedTxn[] {
  const aborted: AbortedTxn[] = []
  const open = new Map<bigint, bigint>()
  for (const s of segs) {
    read(s, {
      headersOnly: true,
      batch (b) {
        if (s.firstBatchTimestamp === null) s.firstBatchTimestamp = b.maxTimestamp
        if (b.maxTimestamp > s.largestTimestamp) s.largestTimestamp = b.maxTimestamp
        if (b.control === null) {
          if (b.records > 0) s.dataRecords += b.records
          if (b.transactional && !open.has(b.producerId)) open.set(b.producerId, b.baseOffset)
        } else if (b.control === 'ABORT' || b.control === 'COMMIT') {
          const first = open.get(b.producerId)
          if (b.control === 'ABORT' && first !== undefined) aborted.push({ producerId: b.producerId, firstOffset: first, lastOffset: b.baseOffset })
          open.delete(b.producerId)
        }
        return 'skip'
      },
    })
  }
  return aborted.sort((x, y) => (x.firstOffset < y.firstOffset ? -1 : x.firstOffset > y.firstOffset ? 1 : 0))
}

export class CleanedTransactionMetadata {
  private next = 0
  private readonly ongoingCommitted = new Set<bigint>()
  /** producer id -> whether a batch of its aborted transaction was seen */
  private readonly ongoingAborted = new Map<bigint, boolean>()

  constructor (private readonly aborted: readonly AbortedTxn[]) {}

  private consumeUpTo (offset: bigint): void {
    while (this.next < this.aborted.length && this.aborted[this.next]!.firstOffset <= offset) {
      const t = this.aborted[this.next++]!
      if (!this.ongoingAborted.has(t.producerId)) this.ongoingAborted.set(t.producerId, false)
    }
  }

  /** onControlBatchRead: an ABORT stays while batches of its transaction were seen; a COMMIT goes when none were */
  onControlBatchRead (b: CleanBatch): boolean {
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

  /** onBatchRead: true when the batch belongs to an aborted transaction */
  onBatchRead (b: CleanBatch): boolean {
    this.consumeUpTo(b.lastOffset)
    if (!b.transactional) return false
    if (this.ongoingAborted.has(b.producerId)) { this.ongoingAborted.set(b.producerId, true); return true }
    this.ongoingCommitted.add(b.producerId)
    return false
  }
}
