// tsdump as a library: `import { openPartition, reconcile } from 'tsdump'`. No side effects on import.
// Everything here returns plain objects; int64 values are bigint. See README "Library".

// the version in tsdump's package.json (what `tsdump --version` prints)
export { VERSION } from './io/package-version.js'

// reading segments, partitions and log directories
export type {
  Partition,
  Segment,
  SegmentRecord,
  V2Batch,
  LegacyFrame,
  ReadOptions,
  KafkaRecord,
} from './commands/library.js'
export { openLogDir, openPartition, openSegment } from './commands/library.js'
export { detachEvent, readLog } from './decode/log-reader.js'
export type { ControlInfo, LogEvent } from './decode/log-reader.js'
export { decodeRecords } from './decode/records.js'
export type { BatchHeader } from './decode/batch-header.js'
export { DecodeError } from './decode/errors.js'
export type { DecodeErrorCode } from './decode/errors.js'
export type { SegmentSource } from './decode/segment-source.js'
export { BufferSource } from './io/buffer-source.js'
export { FileSource } from './io/file-source.js'

// the partition analyses behind `tsdump reconcile | txns | lso`
export { reconcile } from './commands/reconcile.js'
export { txns } from './commands/txns.js'
export { lso } from './commands/lso.js'
export type { ReconcileOptions } from './commands/reconcile.js'
export type { TxnsOptions } from './commands/txns.js'
// one transaction across partitions (`tsdump transactions`)
export { transactions, transactionsStream } from './commands/transactions.js'
export type { TransactionsStream } from './scan/transactions-stream.js'
export type { TransactionsLibraryOptions, TransactionsLibraryResult } from './commands/transactions.js'
export type {
  JoinedTransaction,
  PartitionRun,
  TransactionsResult,
  TransactionsStreamed,
} from './analysis/transaction-join/types.js'
export type { LsoOptions } from './commands/lso.js'
export type { RangeCounted, RangeSpec } from './analysis/range-filter.js'
export { cleanup } from './commands/cleanup.js'
export type { CleanupOptions } from './commands/cleanup.js'
export type { CleanupPartition, CleanupResult } from './analysis/cleanup/result.js'
// copies of a partition across brokers (`tsdump replicas`), remote segments (`tsdump remote`), the report's model
export { replicas } from './commands/replicas.js'
export type { ReplicasOptions, ReplicasResult } from './commands/replicas.js'
export type { PartitionComparison } from './analysis/replicas/compare.js'
export { remote } from './commands/remote.js'
export type { RemoteLibraryOptions } from './commands/remote.js'
export type { RemoteResult } from './analysis/remote-inventory.js'
export { report } from './commands/report-library.js'
export type { ReportLibraryOptions, ReportResult } from './commands/report-library.js'
// every analysis over the paths, ranked by harm (`tsdump doctor`)
export { doctor } from './commands/doctor.js'
export type { DoctorOptions } from './commands/doctor.js'
export type { DoctorFinding, DoctorGroup, DoctorResult, DoctorSummary } from './analysis/doctor/types.js'
export type {
  CoordinatorLookup,
  LsoPartition,
  LsoResult,
  PartitionResult,
  ReconcileResult,
  TimelinePartition,
  TransactionStatePartition,
  TxnsResult,
} from './analysis/partition-results.js'
export type { OpenTransaction, PartitionReport } from './analysis/partition-analyzer.js'
export type { BlockingTransaction } from './analysis/lso.js'
// the one partition-level transaction every analysis extends, and the shapes that extend or pick it
export type {
  DamageRef,
  MarkerType,
  PartitionTransaction,
  TransactionMarker,
  TransactionOutcome,
} from './analysis/partition-transaction.js'
export type { Transaction } from './analysis/transactions.js'
export type { HangingTransaction } from './analysis/hanging.js'
export type { CleanupBlocker } from './analysis/cleanup/result.js'

// what cannot be read or answered at all is thrown, with a code
export { TsdumpError } from './analysis/tsdump-error.js'
export type { TsdumpErrorCode } from './analysis/tsdump-error.js'

// findings
export { exitCodeFor, FINDING_SEVERITY } from './analysis/findings.js'
export type { Finding, FindingCode, Severity } from './analysis/findings.js'
export { MAX_LISTED_PER_CODE } from './analysis/finding-list.js'
export type { OmittedFindings } from './analysis/finding-list.js'
