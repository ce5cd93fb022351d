// ReportModel: everything `tsdump report` draws, as a plain serialisable object (JSON-safe: int64
// values are numbers while exact, decimal strings beyond, as in `reconcile --json`). renderReport()
// turns it into HTML without any other input, so the page can be tested from hand-made models.
import type { Finding } from '../../analysis/findings.js'

/** an int64 as `reconcile --json` prints it */
export type Int64 = number | string

export type Outcome = 'committed' | 'aborted' | 'open'

/** one transaction drawn as its own bar */
export interface TxnBar {
  kind: 'txn'
  producerId: Int64
  producerEpoch: number
  firstOffset: Int64
  /** last data offset; null for an open transaction seeded from a snapshot with no data left */
  lastOffset: Int64 | null
  records: number
  /** null when unknown (a transaction still open: the analysis counts its records only) */
  batches: number | null
  firstTimestamp: Int64 | null
  lastTimestamp: Int64 | null
  outcome: Outcome
  /** COMMIT/ABORT marker offset, null while open */
  markerOffset: Int64 | null
  markerEpoch: number | null
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
  lastOffset: Int64 | null
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
}
