// What the partition analysis reports: the one PartitionReport per partition, and the analyzer's options.
import type { OmittedFindings } from './finding-list.js'
import type { Finding } from './findings.js'
import type { RunSink } from './run-sink.js'
import type { Timeline, TimelineOptions } from './timeline.js'
import type { TxnIndexTable } from '../decode/txn-index-table.js'
import type { ExpectedAbortedTxn } from './txn-index-check.js'
import type { HighWatermarkSource, PartitionMeta, SnapshotInput } from './partition-input.js'
import type { VisibilityCounts } from './visibility.js'
import type { PartitionTransaction } from './partition-transaction.js'

/**
 * A transaction still open at the high watermark (the one partition-level transaction, PartitionTransaction: `marker`
 * null, or at or above the HW; `outcome` 'open', or 'unknown' with `damage`), with what the LSO analyses add.
 */
export interface OpenTransaction extends PartitionTransaction {
  firstTimestamp: bigint | null
  lastTimestamp: bigint | null
  coordinatorEpoch: number | null
  /** 'open': no marker yet; 'awaiting-high-watermark': its marker is at or above the HW */
  state: 'open' | 'awaiting-high-watermark'
  /** began before the first scanned offset (from a producer snapshot) */
  seeded: boolean
  // damage (PartitionTransaction): its marker or data may lie in bytes that could not be read: whether it is open is unknown
}

export interface PartitionReport extends VisibilityCounts {
  topic: string | null
  partition: number | null
  logStartOffset: bigint
  logEndOffset: bigint
  highWatermark: bigint
  highWatermarkSource: HighWatermarkSource
  lastStableOffset: bigint
  /** read_committed as a consumer trusting .txnindex would count it; null when no txnindex could be read */
  readCommittedByTxnIndex: number | null
  controlBatches: Record<string, number>
  transactions: { committed: number; aborted: number; empty: number; open: number }
  /** transactions holding the LSO, earliest first */
  openTransactions: OpenTransaction[]
  /** records of aborted transactions in [LSO, HW): part of pendingRecords, yet no read_committed consumer will get them */
  abortedBeyondLso: number
  /** newest batch timestamp in the partition (maxTimestamp), null without batches */
  newestTimestamp: bigint | null
  /** the first MAX_LISTED_PER_CODE (100) findings of each code, in the order found (analysis/finding-list.ts) */
  findings: Finding[]
  /** code -> findings of that code beyond those listed, counted only; {} when every finding is listed */
  omittedFindings: OmittedFindings
  /** per producer, the coordinator epoch of its latest COMMIT/ABORT marker (for `lso`); empty when not kept (`markerEpochs: false`: `txns`) */
  markerCoordinatorEpochs: { get: (producerId: bigint) => number | undefined; readonly size: number }
  /** the snapshot that seeded transactions open at the first scanned offset, if any (its offset and file, not its tables) */
  seedSnapshot: Pick<SnapshotInput, 'offset' | 'file'> | null
  /** first offset the scan saw (first batch, else the log start) */
  firstScannedOffset: bigint
  batches: number
  /** the runs, when asked for with `timeline: true` (collected); null when streamed (`timeline: { sink }`) or not asked for */
  timeline: Timeline | null
  /** the txnindex entries the markers imply, in marker order, when asked for (`collectAbortedTxns: true`) */
  abortedTxns: ExpectedAbortedTxn[] | null
}

export interface AnalyzerOptions extends PartitionMeta {
  /** the partition's .txnindex entries; null when they could not be looked for */
  txnIndex: TxnIndexTable | null
}

/**
 * The one hook by which a command shapes what a partition's analyzer hands out or keeps beyond the report
 * (scan/partition-scan.ts PartitionScanOptions.analyzer passes it through). None of it changes the numbers.
 */
export interface AnalyzerHook {
  /** told about every plain batch, other control batch and ended transaction (`report`) */
  sink?: RunSink
  /**
   * false: do not keep each producer's last marker coordinator epoch (only `lso` reads it; with 1 M
   * producer ids the table is about 27 MiB per scan, more while it grows)
   */
  markerEpochs?: boolean
  /**
   * The runs of `txns`: `true` collects them into the report (memory proportional to the output: library,
   * tests); TimelineOptions streams each run to its sink as soon as it is complete.
   */
  timeline?: true | TimelineOptions
  /** given, once, what a reader of the records in the scan's own pass asks between batches (`export`) */
  progress?: (p: AnalyzerProgress) => void
}

/**
 * The analysis so far, asked between batches: what a reader writing each batch's visibility as it goes needs
 * (scan/export-read.ts says why these two suffice).
 */
export interface AnalyzerProgress {
  /** the log start, fixed once the first batch was fed (null before) */
  logStart: () => bigint | null
  /** the first offset of the earliest transaction still unstable (open, or its marker at or above the HW); null: none */
  unstableFrom: () => bigint | null
}

export interface AnalyzerOptions extends PartitionMeta, AnalyzerHook {
  /** the partition's .txnindex entries; null when they could not be looked for */
  txnIndex: TxnIndexTable | null
}

/**
 * Not options of any command: what tests set to look inside the analysis or to make its bounds small.
 * Passed apart from AnalyzerOptions on purpose (scan/partition-scan.ts PartitionScanInternals.analyzer).
 */
export interface AnalyzerInternals {
  /** keep the txnindex entries the markers imply (PartitionReport.abortedTxns) */
  collectAbortedTxns?: boolean
  /** a smaller MAX_HELD_RUNS for a streamed timeline (timeline-recorder.ts) */
  maxHeldRuns?: number
}

/** Sizes of the analyzer's growing structures, for tests that memory does not follow the batch count. */
export interface AnalyzerStats {
  batches: number
  openTransactions: number
  intervals: number
  pendingEntries: number
  producersWithMarkers: number
  abortedProducers: number
}
