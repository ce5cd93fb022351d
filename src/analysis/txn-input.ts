// Pure inputs of the transaction analysis: scalars taken from batch headers, control records,
// .txnindex entries and producer snapshots. Nothing here holds a Buffer, so read windows can be collected while the analysis runs.
import type { Finding } from './findings.js'
import type { I64 } from '../bytes/int64.js'

/** What the analysis needs from one v2 batch header (+ its control record, if any). */
export interface BatchSummary {
  baseOffset: bigint
  lastOffset: bigint
  /** recordsCount from the header: compaction can leave fewer records than lastOffset - baseOffset + 1 */
  recordsCount: number
  producerId: bigint
  producerEpoch: number
  isTransactional: boolean
  isControl: boolean
  baseTimestamp: bigint
  maxTimestamp: bigint
  /**
   * control batches: the parsed first control record; null when it could not be read
   * (a compacted, empty control batch — KAFKA-7467 — or a damaged one). Undefined for data batches.
   */
  control?: { type: number, typeName: string, coordinatorEpoch?: number } | null
  /** legacy (magic 0/1) entries are passed as non-transactional data with recordsCount 1 */
  legacy?: boolean
  file?: string
  position?: number
}

/** One 34-byte AbortedTxn entry of a .txnindex file. */
export interface TxnIndexEntry {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
  lastStableOffset: bigint
  file?: string
  position?: number
}

/** One producer of a producer-state snapshot. */
export interface SnapshotProducer {
  producerId: bigint
  producerEpoch: number
  coordinatorEpoch: number
  currentTxnFirstOffset: bigint | null
  /** the snapshot's timestamp of the producer's last batch */
  lastTimestamp: bigint
  lastOffset: bigint
}

/** A `<offset>.snapshot` file: producer state as of (exclusive) `offset`. */
export interface SnapshotInput {
  offset: bigint
  file?: string
  producers: SnapshotProducer[]
}

export type HighWatermarkSource = 'checkpoint' | 'logEndOffset'

/**
 * What the streaming analysis is told about one batch. BatchSummary satisfies it; the partition scan
 * fills one reusable object of this shape per batch instead of allocating a summary (the hot path),
 * with int64 fields as numbers where they fit (canonical I64, see i64.ts: no BigInt per batch).
 */
export interface BatchFacts {
  baseOffset: I64
  lastOffset: I64
  recordsCount: number
  producerId: I64
  producerEpoch: number
  isTransactional: boolean
  isControl: boolean
  baseTimestamp: I64
  maxTimestamp: I64
  control?: { type: number, typeName: string, coordinatorEpoch?: number } | null | undefined
  legacy?: boolean | undefined
  file?: string | undefined
  position?: number | undefined
}

/** Everything about a partition except its batches, which are streamed (see PartitionAnalyzer). */
export interface PartitionMeta {
  topic: string | null
  partition: number | null
  /** first segment's base offset; null = the first batch's offset (else 0) when no segment name is numeric */
  logStartOffset: bigint | null
  /** valid snapshots, any order */
  snapshots: SnapshotInput[]
  /** from replication-offset-checkpoint, null when absent */
  checkpointHighWatermark: bigint | null
}

/** A whole partition in memory: the pure form used by tests and small inputs. */
export interface PartitionInput {
  topic: string | null
  partition: number | null
  /** first segment's base offset (or first batch offset when no segment name is numeric) */
  logStartOffset: bigint
  /** largest segment base offset seen (an empty active segment still moves the log end) */
  lastSegmentBaseOffset: bigint
  /** batches of all segments in offset order */
  batches: BatchSummary[]
  /** entries of all .txnindex files, in file order */
  txnIndex: TxnIndexEntry[]
  /** false when the .txnindex files could not be looked for (e.g. a bare .log without its directory) */
  txnIndexAvailable: boolean
  /** valid snapshots, any order */
  snapshots: SnapshotInput[]
  /** from replication-offset-checkpoint, null when absent */
  checkpointHighWatermark: bigint | null
  /** problems found while reading the files (framing damage, tails, unreadable control records ...) */
  scanFindings: Finding[]
}
