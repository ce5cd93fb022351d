// What consumers of each isolation level can read (spec §6.4), from a transaction model.
//
// Whole batches: a fetch bounded by the HW or the LSO is cut at the file position of the batch that
// contains the bound (LogSegment.read with maxPosition from the bound's offset metadata), so a batch
// counts only when its lastOffset < bound. HW and LSO normally fall on batch boundaries anyway
// (the HW is some batch's lastOffset + 1, the LSO a transaction's first offset).
// Counts use the header's recordsCount, which compaction can make smaller than the offset span.
import type { BatchRole, Transaction, TxnModel } from './transactions.js'
import type { BatchSummary, TxnIndexEntry } from './txn-input.js'

export interface Bounds {
  logStartOffset: bigint
  highWatermark: bigint
}

/**
 * Transactions that hold the LSO: still open, or ended by a marker the HW has not passed yet
 * (Kafka keeps those in unreplicatedTxns until the HW moves past the marker).
 */
export function unstableTransactions (model: TxnModel, highWatermark: bigint): Transaction[] {
  return model.transactions
    .filter((t) => !t.empty && (t.markerOffset === null || t.markerOffset >= highWatermark))
    .sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : a.seq - b.seq))
}

/** LSO = min(HW, first offset of the earliest unstable transaction), clamped to the log start (UnifiedLog). */
export function lastStableOffset (model: TxnModel, b: Bounds): bigint {
  const first = unstableTransactions(model, b.highWatermark)[0]
  if (first === undefined || first.firstOffset >= b.highWatermark) return b.highWatermark
  return first.firstOffset < b.logStartOffset ? b.logStartOffset : first.firstOffset
}

export interface VisibilityCounts {
  readUncommitted: number
  readCommitted: number
  /** aborted-transaction records below the LSO: read_uncommitted sees them, read_committed never will */
  abortedRecords: number
  /** data records in [LSO, HW): read_uncommitted sees them, read_committed waits */
  pendingRecords: number
}

/** readUncommitted = readCommitted + abortedRecords + pendingRecords. */
export function countVisibility (batches: readonly BatchSummary[], roles: readonly BatchRole[], hw: bigint, lso: bigint): VisibilityCounts {
  const c: VisibilityCounts = { readUncommitted: 0, readCommitted: 0, abortedRecords: 0, pendingRecords: 0 }
  for (let i = 0; i < batches.length; i++) {
    const b = batches[i]!
    const role = roles[i]
    if (b.isControl || role === undefined || role.kind !== 'data' || b.lastOffset >= hw) continue
    c.readUncommitted += b.recordsCount
    if (b.lastOffset >= lso) { c.pendingRecords += b.recordsCount; continue }
    const t = role.txn
    if (t === null || t.outcome === 'COMMIT') c.readCommitted += b.recordsCount
    else if (t.outcome === 'ABORT') c.abortedRecords += b.recordsCount
    else c.pendingRecords += b.recordsCount // cannot happen below the LSO; kept so the identity holds
  }
  return c
}

/**
 * read_committed as a real consumer computes it: it trusts the aborted-transaction list the broker
 * builds from .txnindex, not the markers (CompletedFetch.nextFetchedRecord). Only producerId is matched.
 */
export function consumerReadCommitted (batches: readonly BatchSummary[], txnIndex: readonly TxnIndexEntry[], lso: bigint): number {
  const queue = txnIndex.filter((e) => e.firstOffset < lso).sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0))
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
