// One partition-level transaction, as every analysis publishes it: the producer, its first and last data
// offset, how many records, the marker that ended it (or none) and what came of it. An analysis adds its own
// facts by extending it (an open one's state, lso's blocking figures and hanging verdict, cleanup's abort
// commands). Kafka's own words: ProducerStateManager's transaction runs from the producer's first
// transactional data batch to its COMMIT or ABORT control batch (the marker); with no marker it is open, and
// where its data or marker may lie in bytes that could not be read its outcome is unknown.

/** a marker's type (ControlRecordType 0 ABORT, 1 COMMIT) */
export type MarkerType = 'COMMIT' | 'ABORT'

/** where bytes of a partition's log could not be read (the first byte of a damaged region, a torn tail or batch) */
export interface DamageRef {
  file: string
  position: number
}

/** what came of a transaction: its marker's type, none yet, or not knowable (damage) */
export type TransactionOutcome = 'committed' | 'aborted' | 'open' | 'unknown'

/** the COMMIT or ABORT control batch that ended a transaction */
export interface TransactionMarker<N = bigint> {
  offset: N
  type: MarkerType
}

export interface PartitionTransaction<N = bigint> {
  producerId: N
  producerEpoch: number
  firstOffset: N
  /** the last offset of its last data batch; null when none was read (an empty transaction, a seeded one whose data is gone) */
  lastDataOffset: N | null
  records: number
  marker: TransactionMarker<N> | null
  outcome: TransactionOutcome
  /** its data or marker may lie in bytes that could not be read: then its outcome is 'unknown' */
  damage?: DamageRef
}

/**
 * A PartitionTransaction as the analyzer records it (analysis/transactions.ts `Transaction`, streaming-txn.ts `Txn`,
 * run-sink.ts `StreamedTransaction`), with what it learns while batches stream past. The same fields, the same
 * names: `marker` is set when the COMMIT/ABORT is read and `outcome` with it (`unknown` as soon as damage may hide
 * its data or marker: analysis/damage-marks.ts).
 */
export interface TransactionFacts<N = bigint> extends PartitionTransaction<N> {
  /** the marker batch's producer epoch (transaction version 2 bumps it: analysis/transactions.ts inferTransactionVersion) */
  markerEpoch: number | null
  batches: number
  firstTimestamp: N | null
  lastTimestamp: N | null
  /** the marker's coordinator epoch; while open, the producer's newest one known (its snapshot entry) */
  coordinatorEpoch: number | null
  /** opened before the first scanned offset, known from a producer snapshot */
  seeded: boolean
  /** a marker without data (an empty transaction) */
  empty: boolean
}

/** the outcome of a marker type (null: no marker), unknown when damage may hide the real one */
export function outcomeOf(type: MarkerType | null, damage: DamageRef | undefined): TransactionOutcome {
  if (damage !== undefined) return 'unknown'
  return type === 'COMMIT' ? 'committed' : type === 'ABORT' ? 'aborted' : 'open'
}
