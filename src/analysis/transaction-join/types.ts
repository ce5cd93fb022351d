// The shapes `tsdump transactions` joins: one partition's transactional run (its data batches up to its
// COMMIT/ABORT marker, or still open), the coordinator's records of one transaction (an episode of its
// __transaction_state key), and the joined transaction.
import type { Finding } from '../findings.js'
import type { HangingVerdict } from '../hanging.js'
import type { TransactionalIdState } from '../transactional-id-state.js'
import type { PartitionTransaction, TransactionMarker, TransactionOutcome } from '../partition-transaction.js'
import type { FlinkSink } from './flink-ids.js'
import type { StreamsApplication } from './streams-types.js'

export interface RunMarker extends TransactionMarker {
  coordinatorEpoch: number | null
  /** producer epoch of the marker batch */
  epoch: number
  timestamp: bigint
  file: string
  position: number
}

/** one partition's part of a transaction: the partition-level transaction, where it is and when */
export interface PartitionRun extends PartitionTransaction {
  topic: string
  partition: number
  // producerEpoch: of the data batches (of the marker for a marker without data); firstOffset: the first data
  // offset (the marker's for a marker without data, whose lastDataOffset is null); outcome: in this partition
  firstTimestamp: bigint | null
  lastTimestamp: bigint | null
  marker: RunMarker | null
  /** began before the first scanned offset (known from a producer snapshot) */
  seeded: boolean
  /** where its first batch is */
  file: string
  position: number
  /** a run without a marker: the hanging rule's verdict on it (analysis/hanging.ts, open-runs.ts) */
  verdict?: HangingVerdict
}

export interface CoordinatorState {
  state: string
  producerId: bigint
  producerEpoch: number
  /** transactionLastUpdateTimestampMs: when the coordinator wrote this state */
  timestamp: bigint
  /** transactionStartTimestampMs: when the transaction's first partition was added (-1 in Empty/Complete* states of old records) */
  startTimestamp: bigint
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

export interface OffsetCommit {
  group: string
  topic: string
  partition: number
  offset: bigint | null
  metadata: string | null
  /** the __consumer_offsets partition and the record's offset there */
  log: string
  recordOffset: bigint
  /** the group's committed offset for this input partition before the transaction, and after it (null: none; after: null while open) */
  committedBefore: bigint | null
  committedAfter: bigint | null
}

/** who aborted a transaction (abort-cause.ts says how it is told) */
export type AbortedBy =
  /** the coordinator's timeout: PrepareAbort after txnStartTimestamp + transactionTimeoutMs */
  | 'coordinator-timeout'
  /** transaction version 1, epoch fenced before the deadline: InitProducerId of a new session of the id */
  | 'new-producer-session'
  /** transaction version 1, epoch kept: the client's own abortTransaction */
  | 'client'
  /** transaction version 2 before the deadline: both bump the epoch, so the records cannot tell them apart */
  | 'client-or-new-session'

export interface AbortCause {
  by: AbortedBy
  /** txnStartTimestamp of the transaction (its first Ongoing record's) */
  startedAt: bigint
  /** startedAt + transactionTimeoutMs: when the coordinator would abort it */
  deadline: bigint
  /** when the coordinator wrote PrepareAbort */
  preparedAt: bigint
  transactionTimeoutMs: number
  /** the PrepareAbort record */
  prepare: CoordinatorState
}

export type JoinBasis = 'producer-epoch' | 'coordinator' | 'coordinator-timestamps' | 'marker-timestamps'

/** a partition's outcomes, and `prepared`: the coordinator wrote PrepareCommit/PrepareAbort, not every marker is read */
export type TxOutcome = TransactionOutcome | 'prepared'

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
  /** partitions the coordinator listed for it that are not among the paths */
  notRead: string[]
  /** who aborted it, from the coordinator's records (abort-cause.ts); null when not aborted or not known */
  abortCause: AbortCause | null
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
  /** per transactional producer: the groups its transactions carry, mixed commits, output without offsets */
  exactlyOnce: ProducerOffsets[]
  /** set when there were more producers than the check takes (exactly-once.ts MAX_CHECKED_PRODUCERS): those past it */
  exactlyOnceNotChecked?: { checked: number; producerIds: number; transactions: number }
  /** transactional-id families by shape (Flink KafkaSink, Kafka Streams, plain prefixes) */
  idFamilies: FamilySummary[]
  /** Flink KafkaSinks: naming strategy, the subtasks that wrote, ids that never wrote, lingering ids' causes, lost data (flink-ids.ts) */
  flinkSinks?: FlinkSink[]
  /** Kafka Streams applications: process ids, changelogs, what a restart does to their open transactions (streams-ids.ts) */
  streams?: StreamsApplication[]
  /** findings of the partitions' own reading (decode errors, undecodable offset commits ...) and the exactly-once check */
  findings: Finding[]
  /** the time open runs' ages are measured against (epoch ms), whether it came from --now, and the hanging timeout */
  nowMs: number
  nowGiven: boolean
  maxTransactionTimeoutMinutes: number
}

/**
 * TransactionsResult with its transactions as a sequence (`transactions` in bounded memory): the counts are known
 * before `items` is iterated, exactlyOnce, idFamilies and the exactly-once findings are complete after it.
 */
export interface TransactionsStreamed extends Omit<TransactionsResult, 'transactions'> {
  /** how many transactions `items` gives, and of how many producer ids */
  count: number
  producers: number
  /** the transactions in the listed order; iterated once */
  items: Iterable<JoinedTransaction>
}

export interface ProducerOffsets {
  transactionalId: string | null
  producerIds: bigint[]
  transactions: number
  /** transactions that wrote data outside __consumer_offsets */
  withOutput: number
  /** groups whose offsets its transactions carry, with how many transactions carried them */
  groups: Array<{ group: string; transactions: number }>
  /** groups it carries whose offsets were also committed outside transactions, for the same input partitions */
  mixedCommits: Array<{ group: string; partitions: string[]; plainCommits: number }>
  /** it writes output but no transaction carries offsets */
  noOffsets: boolean
  /** groups committing outside transactions while its transactions ran (when noOffsets): EOS_NO_OFFSETS */
  groupsAdvancingOutside: Array<{ group: string; commits: number }>
}

export interface FamilySummary {
  kind: 'kafka-streams' | 'flink-kafka-sink' | 'plain'
  prefix: string
  ids: number
  /** Flink: the subtasks seen and the highest checkpoint counter; Streams: the process ids */
  subtasks?: number[]
  maxCounter?: number
  processIds?: string[]
  /** ids first seen per hour, from the coordinator's first record of each: hour (ISO) -> count */
  perHour: Array<{ hour: string; ids: number }>
}
