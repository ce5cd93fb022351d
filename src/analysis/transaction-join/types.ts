// The shapes `tsdump transactions` joins: one partition's transactional run (its data batches up to its
// COMMIT/ABORT marker, or still open), the coordinator's records of one transaction (an episode of its
// __transaction_state key), and the joined transaction.
import type { Finding } from '../findings.js'
import type { TransactionalIdState } from '../transactional-id-state.js'

export interface RunMarker {
  offset: bigint
  type: 'COMMIT' | 'ABORT'
  coordinatorEpoch: number | null
  /** producer epoch of the marker batch */
  epoch: number
  timestamp: bigint
  file: string
  position: number
}

export interface PartitionRun {
  topic: string
  partition: number
  producerId: bigint
  /** epoch of the data batches (of the marker for a marker without data) */
  producerEpoch: number
  /** first data offset (the marker's for a marker without data) */
  firstOffset: bigint
  lastOffset: bigint | null
  records: number
  firstTimestamp: bigint | null
  lastTimestamp: bigint | null
  marker: RunMarker | null
  /** began before the first scanned offset (known from a producer snapshot) */
  seeded: boolean
  /** where its first batch is */
  file: string
  position: number
}

export interface CoordinatorState {
  state: string
  producerId: bigint
  producerEpoch: number
  timestamp: bigint
  partitions: string[]
  transactionTimeoutMs: number
  clientTransactionVersion: number
  file: string
  position: number
  offset: bigint
}

/** one transaction as the coordinator logged it: Ongoing records, then Prepare*, then Complete* */
export interface Episode {
  transactionalId: string
  states: CoordinatorState[]
  producerId: bigint
  /** the epoch the Prepare* record carries (the markers' epoch); the last record's without one */
  endEpoch: number
  /** every partition the coordinator listed for it */
  partitions: Set<string>
  prepare: CoordinatorState | null
  complete: CoordinatorState | null
}

/** one offset commit record of __consumer_offsets (scan/offset-commit-scan.ts) with the producer of its batch */
export interface OffsetCommitRecord {
  /** the __consumer_offsets partition's record offset */
  recordOffset: bigint
  producerId: bigint
  producerEpoch: number
  transactional: boolean
  group: string
  topic: string
  partition: number
  /** null: a tombstone (the offset was deleted) */
  offset: bigint | null
  metadata: string | null
  timestamp: bigint
  file: string
  position: number
}

export interface OffsetCommit { group: string, topic: string, partition: number, offset: bigint | null, metadata: string | null }

export type JoinBasis = 'producer-epoch' | 'coordinator' | 'coordinator-timestamps' | 'marker-timestamps'

export type TxOutcome = 'committed' | 'aborted' | 'open' | 'prepared' | 'unknown'

export interface JoinedTransaction {
  transactionalId: string | null
  producerId: bigint
  producerEpoch: number
  transactionVersion: 'TV1' | 'TV2' | null
  outcome: TxOutcome
  joinedBy: JoinBasis
  firstTimestamp: bigint | null
  lastTimestamp: bigint | null
  runs: PartitionRun[]
  offsetCommits: OffsetCommit[]
  episode: Episode | null
  findings: Finding[]
}

/** what `tsdump transactions` found under its paths */
export interface TransactionsResult {
  transactions: JoinedTransaction[]
  /** the coordinator's newest state of each id (analysis/transactional-id-state.ts) */
  transactionalIds: TransactionalIdState[]
  /** the __transaction_state partitions read; where tsdump looked when there were none */
  stateLogs: string[]
  lookedIn: string[]
  /** findings of the partitions' own reading (decode errors, undecodable offset commits ...) */
  findings: Finding[]
}
