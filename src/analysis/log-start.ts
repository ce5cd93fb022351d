// Where a partition's log starts, as the broker that wrote it would say after a restart: records below it are
// gone for consumers (a fetch below it is OFFSET_OUT_OF_RANGE; ListOffsets EARLIEST answers it), so no analysis
// counts them as readable, and the cleaner's and retention's log-start rules start from it.

/** Where the log start came from. */
export type LogStartSource = 'log-start-offset-checkpoint' | 'first segment' | 'first batch'

export interface LogStart {
  offset: bigint
  source: LogStartSource
}

/**
 * Kafka's LogLoader.load (storage, UnifiedLog's loading): the log start is the log dir's
 * log-start-offset-checkpoint entry for the partition (LogManager.loadLog reads it; 0 when the partition is not
 * listed) or the first segment's base offset, whichever is larger. DeleteRecords
 * (UnifiedLog.maybeIncrementLogStartOffset) and retention move it and the checkpoint records it, so the first
 * segment can begin below it. A topic with remote storage takes the checkpoint as it is: its log starts in the
 * remote segments, below the first local one (the same LogLoader line); `remote` says so.
 * Null when there is neither a segment base nor a checkpoint entry.
 */
export function logStartOffset(
  firstSegmentBase: bigint | null,
  checkpointEntry: bigint | null,
  remote = false,
): LogStart | null {
  if (checkpointEntry !== null && (remote || firstSegmentBase === null || checkpointEntry > firstSegmentBase)) {
    return { offset: checkpointEntry, source: 'log-start-offset-checkpoint' }
  }
  return firstSegmentBase === null ? null : { offset: firstSegmentBase, source: 'first segment' }
}

/**
 * The records of a data batch at or above the log start, from its header alone: what a consumer fetching from
 * the log start gets of it (the fetch returns the whole batch; the client drops the records below the fetch
 * offset: CompletedFetch.nextFetchedRecord). A batch with fewer records than offsets (compacted) cut by the log
 * start cannot be split without its records: the whole count then, an upper bound.
 */
export function recordsFromLogStart(
  logStart: bigint,
  baseOffset: bigint,
  lastOffset: bigint,
  recordsCount: number,
): number {
  if (lastOffset < logStart) return 0
  if (baseOffset >= logStart || lastOffset - baseOffset + 1n !== BigInt(recordsCount)) return recordsCount
  return Number(lastOffset - logStart + 1n)
}

/** Offsets of a partition in remote storage that a read of the local segments alone does not count. */
export interface RemoteNotRead {
  firstOffset: bigint
  lastOffset: bigint
  /** how it is known: finished segments in __remote_log_metadata, or the log-start-offset-checkpoint */
  evidence: 'remote-log-metadata' | 'log-start-offset-checkpoint'
}

/**
 * The offsets below the first local segment that remote storage holds (tiered storage, KIP-405). Known from the
 * finished remote segments __remote_log_metadata lists below it, or from the log-start-offset-checkpoint entry
 * below it: LogManager checkpoints a log start below the first local segment only for a topic with remote storage
 * (checkpointLogStartOffsetsInDir keeps remote-enabled logs and logs whose start passed their first segment), and
 * LogLoader then keeps it as the log start. Offsets below the log start are gone, remote or not. Null when nothing
 * below the first local segment is known to be readable.
 */
export function remoteOffsetsNotRead(
  localStart: bigint,
  checkpointEntry: bigint | null,
  finishedRemote: ReadonlyArray<{ startOffset: bigint }>,
): RemoteNotRead | null {
  let first: bigint | null = null
  for (const s of finishedRemote)
    if (s.startOffset < localStart && (first === null || s.startOffset < first)) first = s.startOffset
  if (first !== null) {
    if (checkpointEntry !== null && checkpointEntry > first) first = checkpointEntry
    return first < localStart
      ? { firstOffset: first, lastOffset: localStart - 1n, evidence: 'remote-log-metadata' }
      : null
  }
  if (checkpointEntry !== null && checkpointEntry < localStart)
    return { firstOffset: checkpointEntry, lastOffset: localStart - 1n, evidence: 'log-start-offset-checkpoint' }
  return null
}
