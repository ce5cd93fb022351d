// What consumers of each isolation level can read.
//
// Whole batches: a fetch bounded by the HW or the LSO is cut at the file position of the batch that
// contains the bound (LogSegment.read with maxPosition from the bound's offset metadata), so a batch
// counts only when its lastOffset < bound. HW and LSO normally fall on batch boundaries anyway
// (the HW is some batch's lastOffset + 1, the LSO a transaction's first offset).
// Counts use the header's recordsCount, which compaction can make smaller than the offset span.
// The counting itself is done in one pass by PartitionAnalyzer (partition-analyzer.ts); this file
// holds the count types and the consumer's rule in its plainest form (a reference for tests).
import type { BatchSummary } from './batch-facts.js'
import type { TxnIndexEntry } from '../decode/txn-index-table.js'

export interface VisibilityCounts {
  readUncommitted: number
  readCommitted: number
  /** aborted-transaction records below the LSO: read_uncommitted sees them, read_committed never will */
  abortedRecords: number
  /** data records in [LSO, HW): read_uncommitted sees them, read_committed waits */
  pendingRecords: number
}

/**
 * read_committed as a real consumer computes it: it trusts the aborted-transaction list the broker
 * builds from .txnindex, not the markers (CompletedFetch.nextFetchedRecord). Only producerId is matched.
 * Array form, kept as the plain statement of the rule; PartitionAnalyzer applies it while streaming.
 */
export function consumerReadCommitted(
  batches: readonly BatchSummary[],
  txnIndex: readonly TxnIndexEntry[],
  lso: bigint,
): number {
  const queue = txnIndex
    .filter((e) => e.firstOffset < lso)
    .sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0))
  const aborted = new Set<bigint>()
  let qi = 0
  let n = 0
  for (const b of batches) {
    if (b.lastOffset >= lso) break
    if (b.producerId >= 0n) {
      while (qi < queue.length && queue[qi]!.firstOffset <= b.lastOffset) aborted.add(queue[qi++]!.producerId)
      if (b.isControl) {
        if (b.control?.type === 0) aborted.delete(b.producerId)
        continue
      }
      if (b.isTransactional && aborted.has(b.producerId)) continue
    }
    if (!b.isControl) n += b.recordsCount
  }
  return n
}
