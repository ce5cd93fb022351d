// ReportModel: everything `tsdump report` draws, as a plain serialisable object (JSON-safe: int64
// values are numbers while exact, decimal strings beyond, as in `reconcile --json`). renderReport()
// turns it into HTML without any other input, so the page can be tested from hand-made models.
import type { Finding } from '../../analysis/findings.js'
import type { MarkerType, TransactionOutcome } from '../../analysis/partition-transaction.js'

/** an int64 as `reconcile --json` prints it */
export type Int64 = number | string

/** the marker that ended a drawn transaction, as txns --json names it */
export interface TxnBarMarker {
  offset: Int64
  type: MarkerType
  /** the marker batch's producer epoch (transaction version 2 bumps it) */
  producerEpoch: number
  coordinatorEpoch: number | null
}

/** one transaction drawn as its own bar, named as PartitionTransaction (analysis/partition-transaction.ts) */
export interface TxnBar {
  kind: 'txn'
  producerId: Int64
  producerEpoch: number
  firstOffset: Int64
  /** last data offset; null for an open transaction seeded from a snapshot with no data left */
  lastDataOffset: Int64 | null
  records: number
  /** null when unknown (a transaction still open: the analysis counts its records only) */
  batches: number | null
  firstTimestamp: Int64 | null
  lastTimestamp: Int64 | null
  /** 'unknown' when damage may hide its data or marker (drawn from the marker it has, if any) */
  outcome: TransactionOutcome
  /** the COMMIT/ABORT marker, null while open */
  marker: TxnBarMarker | null
  /** the marker's coordinator epoch; while open, the producer's newest one known (its snapshot entry) */
  coordinatorEpoch: number | null
  /** a marker whose transaction had no data (KAFKA-10702): drawn as its tick only */
  empty: boolean
  seeded: boolean
  /** marker at or above the HW: ended, but still holding the LSO */
  awaitingHighWatermark?: boolean
}

/** adjacent non-transactional batches of one producer */
export interface PlainBar {
  kind: 'plain'
  producerId: Int64
  producerEpoch: number
  firstOffset: Int64
  lastOffset: Int64
  records: number
  batches: number
  firstTimestamp: Int64 | null
  lastTimestamp: Int64 | null
}

/** a control batch that is not COMMIT/ABORT (LEADER_CHANGE, EMPTY ...) */
export interface ControlTick {
  kind: 'control'
  offset: Int64
  typeName: string
  producerId: Int64
  timestamp: Int64 | null
}

export type LaneItem = TxnBar | PlainBar | ControlTick

/** what a lane shows for [firstOffset, lastOffset] when it has too many items to draw one by one */
export interface Bucket {
  firstOffset: number
  lastOffset: number
  /** min/max batch timestamps, null when none was ≥ 0 */
  minTimestamp: number | null
  maxTimestamp: number | null
  /** transactions whose marker falls here, by outcome */
  committed: number
  aborted: number
  committedRecords: number
  abortedRecords: number
  plainRecords: number
  commitMarkers: number
  abortMarkers: number
  otherControl: number
}

export interface BlockingModel {
  producerId: Int64
  producerEpoch: number
  coordinatorEpoch: number | null
  coordinatorEpochSource: string
  firstOffset: Int64
  lastDataOffset: Int64 | null
  records: number
  recordsWaiting: number
  firstTimestamp: Int64 | null
  lastTimestamp: Int64 | null
  ageMs: Int64 | null
  /** what the age is measured from (analysis/hanging.ts), and when: the clock or --now */
  ageSource: 'coordinator' | 'eventTime'
  ageFrom: string
  nowMs: number
  state: 'open' | 'awaiting-high-watermark'
  hanging: boolean
  /** its coordinator's abort deadline passed more than the maximum timeout ago (TXN_COORDINATOR_OVERDUE) */
  overdue: boolean
  seeded: boolean
  /** kafka-transactions.sh abort commands (empty when the transaction already ended) */
  commands: string[]
}

export interface PartitionModel {
  /** `<topic>-<n>`, else the directory path */
  id: string
  topic: string | null
  partition: number | null
  path: string
  logStartOffset: Int64
  logEndOffset: Int64
  highWatermark: Int64
  highWatermarkSource: string
  lastStableOffset: Int64
  readCommitted: number
  readUncommitted: number
  abortedRecords: number
  pendingRecords: number
  /** pending less those of aborted transactions: what read_committed gets once the LSO moves (analysis/lso.ts recordsWaiting) */
  recordsWaiting: number
  batches: number
  controlBatches: Record<string, number>
  transactions: { committed: number; aborted: number; empty: number; open: number }
  /** every item in offset order, or null when the lane is aggregated */
  items: LaneItem[] | null
  /** the aggregated lane (offset order), null when `items` are drawn */
  buckets: Bucket[] | null
  /** transactions still holding the LSO, always drawn one by one (at most 200; `transactions.open` counts them all) */
  open: TxnBar[]
  blocking: BlockingModel | null
}

/** a finding of the catalogue (analysis/findings.ts), with the partition it was found in */
export type FindingRow = Finding & { partition: string }

export interface TopicRow {
  topic: string
  partitions: number
  readCommitted: number
  readUncommitted: number
  abortedRecords: number
  pendingRecords: number
  recordsWaiting: number
  openTransactions: number
}

export interface ReportModel {
  title: string
  /** e.g. `tsdump 0.1.0` */
  generator: string
  /** the paths given on the command line */
  inputs: string[]
  topics: TopicRow[]
  partitions: PartitionModel[]
  findings: FindingRow[]
  /** doctor's ranked findings, drawn first (absent in a model built by hand) */
  doctor?: DoctorModel
  capabilities?: CapabilitiesModel
}

/** one entry of doctor's ranked list on the page: a finding, or a group of one code's many (analysis/doctor/collect.ts) */
export interface DoctorRow {
  kind: 'finding' | 'group'
  code: string
  severity: string
  rank: number
  category: string
  message: string
  broker: string | null
  partition: string | null
  file: string | null
  position: number | null
  firstOffset: Int64 | null
  lastOffset: Int64 | null
  /** 1 for a finding; a group's count */
  count: number
  /** where, how much: as doctor's text words them */
  where: string
  figures: string
  /** minutes open, measured against --now or the clock (the hanging rule's) */
  minutes: number | null
  fix: string[]
  look: string[]
  /** a group's first examples, where each is */
  examples: string[]
}

/** doctor's picture at the top of the page: its summary lines and its ranked findings */
export interface DoctorModel {
  summary: string[]
  nowMs: number
  nowGiven: boolean
  counts: { error: number; warning: number; info: number }
  rows: DoctorRow[]
}

/** one transaction across the partitions it wrote, each run a link to that partition's lane */
export interface TransactionRow {
  transactionalId: string | null
  producerId: Int64
  producerEpoch: number
  outcome: string
  runs: Array<{ partition: string; firstOffset: Int64; lastDataOffset: Int64 | null; records: number }>
  codes: string[]
}

export interface TransactionsModel {
  count: number
  outcomes: Record<string, number>
  /** the first transactions in transactions' order (the rest counted) */
  shown: TransactionRow[]
}

/** cleanup's ranges of one partition on its offset axis: clean below firstDirty, dirty to firstUncleanable, then uncleanable */
export interface CleanupRow {
  partition: string
  policy: string
  logStartOffset: Int64
  logEndOffset: Int64
  highWatermark: Int64
  lastStableOffset: Int64
  firstDirtyOffset: Int64 | null
  firstUncleanableOffset: Int64 | null
  uncleanableBecause: string | null
  dirtyRatio: number | null
  cleanableNow: boolean | null
  /** segments retention deletes next, and the log start after it */
  retentionDeletes: number
  logStartAfterRetention: Int64 | null
  blockedBy: string | null
}

/** the copies of one partition on one offset axis */
export interface ReplicaRow {
  partition: string
  leader: string | null
  copies: Array<{
    broker: string
    isLeader: boolean
    logStartOffset: Int64
    logEndOffset: Int64
    highWatermark: Int64 | null
    divergenceOffset: Int64 | null
  }>
}

/** a partition's remote segments beside its local log */
export interface TieredRow {
  partition: string
  localStartOffset: Int64 | null
  segments: Array<{ startOffset: Int64; endOffset: Int64 | null; state: string | null; verdict: string }>
}

/** the sections drawn from doctor's analyses, each present when doctor ran it */
export interface CapabilitiesModel {
  transactions: TransactionsModel | null
  cleanup: CleanupRow[] | null
  replicas: ReplicaRow[] | null
  tiered: TieredRow[] | null
}
