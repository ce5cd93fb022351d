// What reconcile, txns and lso find, as plain objects: the library API returns these, and every
// partition printer (text, json, and the next one, e.g. an HTML report) receives exactly these.
import type { TransactionImpact } from './lso-impact.js'
import type { OmittedFindings } from './finding-list.js'
import type { Finding } from './findings.js'
import type { HangingTransaction } from './hanging.js'
import type { CoordinatorPartitionCount } from './coordinator.js'
import type { BlockingTransaction } from './lso.js'
import type { PartitionReport } from './partition-analyzer.js'
import type { RangeCounted, RangeSpec } from './range-filter.js'
import type { Lane, TimelineRun } from './timeline.js'
import type { TransactionalIdState } from './transactional-id-state.js'
import type { SnapshotInput } from './partition-input.js'

export interface PartitionResult {
  /** `topic-partition`, else the directory path */
  label: string
  /** the partition directory */
  path: string
  report: PartitionReport
}

export interface ReconcileResult {
  /** paths that could not be used at all (exit 2), one UNREADABLE finding each */
  unusable: Finding[]
  /** partition directories inside a named log directory that could not be read while others were (exit 1) */
  unreadable?: Finding[]
  /** --start-offset, --from-time, --producer-id ...: the counts are of the records in this range (range-filter.ts) */
  filter?: RangeSpec
  /** with a filter: per partition, the batches that were in range */
  partitions: Array<PartitionResult & { snapshots: SnapshotInput[]; range?: RangeCounted }>
}

/** a partition of reconcile's result */
export type ReconciledPartition = ReconcileResult['partitions'][number]

/**
 * The events of `reconcile`, in output order: each partition as soon as its scan is done, then end with the range
 * counted (a filter's transactional id resolved). A printer holds of each only what it writes at the end.
 */
export interface ReconcileStream {
  partition(p: ReconciledPartition): void
  end(filter: RangeSpec | undefined): void
}

export interface TimelinePartition extends PartitionResult {
  kind: 'timeline'
  runs: readonly TimelineRun[]
  lane: Lane
}

/** a __transaction_state partition: the last known state of each transactional id */
export interface TransactionStatePartition extends PartitionResult {
  kind: 'transactional-ids'
  states: TransactionalIdState[]
  /** the report's findings and those of decoding the transaction log, at most MAX_LISTED_PER_CODE of a code */
  findings: Finding[]
  /** and how many more of each code (analysis/finding-list.ts) */
  omittedFindings: OmittedFindings
}

export interface TxnsResult {
  unusable: Finding[]
  /** as ReconcileResult's */
  unreadable?: Finding[]
  partitions: Array<TimelinePartition | TransactionStatePartition>
}

export interface LsoPartition extends PartitionResult {
  blocking: BlockingTransaction | null
  /** kafka-transactions.sh commands that abort the blocking transaction */
  commands: string[]
  /** states of the transactional ids the blocking producer has (from __transaction_state partitions given) */
  ids: TransactionalIdState[]
  /** the hanging rule's findings (TXN_HANGING, TXN_COORDINATOR_OVERDUE: analysis/hanging.ts) */
  findings: Finding[]
}

export interface CoordinatorLookup {
  transactionalId: string
  hashCode: number
  /** __transaction_state's partition count and where it came from (analysis/coordinator.ts); null when unknown */
  partitionCount: number | null
  partitionCountFrom: CoordinatorPartitionCount | null
  /** null when the count is unknown */
  partition: number | null
}

export interface LsoResult {
  unusable: Finding[]
  /** as ReconcileResult's */
  unreadable?: Finding[]
  maxTransactionTimeoutMinutes: number
  /** the time ages are measured against (epoch ms) */
  nowMs: number
  /** nowMs came from --now, not the clock */
  nowGiven: boolean
  partitions: LsoPartition[]
  /** some open transaction is hanging by find-hanging's rules (analysis/hanging.ts) */
  hanging: boolean
  /** find-hanging's table, every partition */
  hangingTransactions: HangingTransaction[]
  coordinator: CoordinatorLookup | null
  /** each open transaction's cost per topic and the commands that end it (analysis/lso-impact.ts) */
  impact?: TransactionImpact[]
  /**
   * the findings of the __transaction_state partitions read for the coordinator's states (their framing damage
   * and records that do not decode), by partition; a state read before lost bytes is marked unknownPast
   */
  coordinatorFindings?: Array<{ label: string; findings: Finding[] }>
}

/** what lso's output needs before its partitions: the timeout and the time ages are measured against */
export type LsoHead = Pick<LsoResult, 'maxTransactionTimeoutMinutes' | 'nowMs' | 'nowGiven'>

/** what lso knows once every partition is judged (its impact lines come first in the output, but are made last) */
export type LsoEnd = Pick<
  LsoResult,
  'impact' | 'hanging' | 'hangingTransactions' | 'coordinator' | 'coordinatorFindings'
>

/**
 * The events of `lso`: each partition judged as its scan ends, in partition order, then the end. The output puts
 * the end's impact first, so a printer holds each partition's text (format/printer.ts HeldWriter), not its report.
 */
export interface LsoStream {
  partition(p: LsoPartition): void
  end(e: LsoEnd): void
}

/**
 * The events of `txns`, in output order: per partition either its timeline (start, each run in
 * first-offset order, end with the lane) or its transactional-id states; then end. The partition scan
 * streams them (scan/txns-partition.ts), a printer writes them (format/printer.ts PartitionPrinter.txnsStream).
 */
export interface TxnsStream {
  /** `p.report` is complete (a first pass): the header needs the LSO and the log end */
  timelineStart(p: PartitionResult): void
  run(r: TimelineRun): void
  timelineEnd(p: PartitionResult, lane: Lane): void
  transactionStates(p: TransactionStatePartition): void
  end(): void
}
