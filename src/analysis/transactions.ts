// The transaction model of one partition, from batch headers and control records alone.
//
// Per producerId (ProducerStateManager / ProducerAppendInfo): a transaction begins at the producer's
// first transactional data batch and ends at that producer's next COMMIT or ABORT control batch,
// recognised by the parsed control type (never by key bytes). Epochs are reported, not matched: a
// coordinator that times a transaction out bumps the epoch, and with transaction.version 2 (KIP-890)
// every marker carries epoch + 1. A marker with no open transaction is an empty transaction
// (KAFKA-10702: no txnindex entry, no effect on the LSO). Transactions open before the first scanned
// offset come from the newest producer snapshot at or before it (its currentTxnFirstOffset).
// The state machine itself runs in PartitionAnalyzer (partition-analyzer.ts), one batch at a time.
import type { SnapshotInput } from './partition-input.js'
import type { MarkerType, TransactionFacts } from './partition-transaction.js'

export type { DamageRef, MarkerType } from './partition-transaction.js'

/**
 * The analyzer's working record of a transaction (analysis/partition-transaction.ts TransactionFacts: producerEpoch is
 * the first data batch's epoch, or the snapshot entry's for a seeded one; markerEpoch the marker batch's), published
 * as a PartitionTransaction by partitionTransactionOf.
 */
export interface Transaction extends TransactionFacts {
  /** creation order, stable across runs */
  seq: number
  /**
   * for completed transactions: the LSO Kafka writes into the txnindex entry, i.e. the first offset of
   * the earliest other producer's ongoing transaction, else marker.offset + 1
   * (ProducerStateManager.lastStableOffset(CompletedTxn))
   */
  completionLastStableOffset: bigint | null
  // damage (TransactionFacts): set when its data or its marker may lie in bytes that could not be read (it was open at
  // the damage, or its producer had no marker since the damage): its outcome is unknown whatever marker was read after it
}

export const MARKER_TYPES: Record<number, MarkerType> = { 0: 'ABORT', 1: 'COMMIT' }

/** The newest snapshot whose offset is ≤ `offset` (it describes producer state at that point). */
export function pickSeedSnapshot(snapshots: readonly SnapshotInput[], offset: bigint): SnapshotInput | null {
  let best: SnapshotInput | null = null
  for (const s of snapshots) if (s.offset <= offset && (best === null || s.offset > best.offset)) best = s
  return best
}

/**
 * The transaction version (KIP-890 `transaction.version`) a completed transaction shows, from its epochs:
 * with version 2 every transaction end bumps the producer epoch and the marker carries data epoch + 1;
 * before it (0 and 1 look the same in the log) the marker carries the data epoch. A coordinator that aborts
 * a timed-out transaction bumps the epoch in every version, so an ABORT at epoch + 1 may also be that.
 * null: not inferable (no marker, no data batch, or epochs that fit neither: a fenced producer's epochs).
 */
export type InferredTxnVersion = '2' | '2 or timeout abort' | '0/1'

export function inferTransactionVersion(
  t: Pick<Transaction, 'producerEpoch' | 'markerEpoch' | 'empty' | 'seeded'> & { marker: { type: MarkerType } | null },
): InferredTxnVersion | null {
  if (t.markerEpoch === null || t.marker === null || t.empty || t.seeded) return null
  if (t.markerEpoch === t.producerEpoch + 1) return t.marker.type === 'COMMIT' ? '2' : '2 or timeout abort'
  if (t.markerEpoch === t.producerEpoch) return '0/1'
  return null
}
