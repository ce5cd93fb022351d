// What the cleanup prediction reads from a partition: segments, batches and records reduced to the facts
// LogCleaner and UnifiedLog.deleteOldSegments decide on. Nothing per record is kept: the header facts come from the
// partition scan, and the offset map and the clean read the segments again (ReadSegment), as the cleaner itself does.
export interface CleanBatch {
  baseOffset: bigint
  lastOffset: bigint
  maxTimestamp: bigint
  producerId: bigint
  producerEpoch: number
  transactional: boolean
  /** ABORT, COMMIT, ... for a control batch (EMPTY when it has no readable record); null for data */
  control: string | null
  /** set when the batch carries the delete-horizon attribute */
  deleteHorizonMs: bigint | null
  /** the header's recordsCount (what the batch declares) */
  records: number
}

export interface CleanSegment {
  baseOffset: bigint
  file: string
  sizeBytes: number
  /** LogSegment.largestTimestamp: the largest batch maxTimestamp, -1 when none (filled by the header pass) */
  largestTimestamp: bigint
  /** LogSegment.getFirstBatchTimestamp: the first batch's maxTimestamp */
  firstBatchTimestamp: bigint | null
  /** the records its data batches declare (filled by the header pass): what sizes the offset map */
  dataRecords: number
}

/** batch(): 'records' to be shown its records, 'skip' not to, 'stop' to end the read */
export interface SegmentVisitor {
  /** never asks for records: the read may skip record bytes */
  headersOnly?: boolean
  batch(b: CleanBatch): 'records' | 'skip' | 'stop'
  record?(offset: bigint, key: Uint8Array | null, hasValue: boolean): void
}

export type ReadSegment = (seg: CleanSegment, visit: SegmentVisitor) => void
