// What the cleanup prediction reads from a partition: segments, batches and records reduced to the facts
// LogCleaner and UnifiedLog.deleteOldSegments decide on.
export interface CleanRecord {
  offset: bigint
  /** hex of the key bytes; null for a record without key */
  key: string | null
  hasValue: boolean
}

export interface CleanBatch {
  baseOffset: bigint
  lastOffset: bigint
  producerId: bigint
  producerEpoch: number
  transactional: boolean
  /** ABORT, COMMIT, ... for a control batch; null for data */
  control: string | null
  /** set when the batch carries the delete-horizon attribute */
  deleteHorizonMs: bigint | null
  records: CleanRecord[]
}

export interface CleanSegment {
  baseOffset: bigint
  file: string
  sizeBytes: number
  /** LogSegment.largestTimestamp: the largest batch maxTimestamp, -1 when none */
  largestTimestamp: bigint
  /** LogSegment.getFirstBatchTimestamp: the first batch's maxTimestamp */
  firstBatchTimestamp: bigint | null
  batches: CleanBatch[]
}
