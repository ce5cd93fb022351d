// What the partition analysis is told about a partition besides its batches: the producer snapshots and
// the checkpointed high watermark (scan/partition-scan.ts reads them before the segments; the txnindex
// entries are decode/txn-index-table.ts).

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

/**
 * A `<offset>.snapshot` file: producer state as of (exclusive) `offset`. Not an object per producer: a
 * partition of a million idempotent producers has a snapshot of a million entries, and the analysis reads
 * only the open transactions and, for lso, one producer's coordinator epoch.
 */
export interface SnapshotInput {
  offset: bigint
  file?: string
  /** the producers with a transaction open at `offset` (currentTxnFirstOffset set), in file order */
  open: SnapshotProducer[]
  /** every producer's coordinator epoch (-1: it never had a marker written), by producer id */
  coordinatorEpochs: ProducerEpochs
}

/** producer id -> int32 (analysis/producer-map.ts ProducerInts; a worker posts its parts) */
export interface ProducerEpochs {
  get: (producerId: bigint) => number | undefined
  readonly size: number
}

export type HighWatermarkSource = 'checkpoint' | 'logEndOffset'

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
