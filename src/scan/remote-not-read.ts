// Without --remote-storage: the offsets of a partition below its first local segment that are in remote storage
// (per __remote_log_metadata, or a log start above that segment's base offset) and were not read, noted on the
// partition as its scan starts (scan/remote-segments.ts withRemoteSegments) and said as REMOTE_NOT_READ. Split out
// of remote-segments.ts.
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { remoteOffsetsNotRead } from '../analysis/log-start.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { topicIdOf } from '../io/remote/open.js'
import { RemoteMetadataRead } from './remote-metadata-read.js'
import { finishedSegments, REMOTE_LOG_METADATA_TOPIC } from './remote-metadata.js'

/**
 * Without --remote-storage: note on each partition whose offsets below its first local segment are in remote
 * storage (analysis/log-start.ts remoteOffsetsNotRead) that they were not read, and how to read them: made when its
 * scan starts (withRemoteSegments), from `meta`'s metadata, which the metadata partitions' scans, taken first, read.
 */
export function noteRemoteNotRead(
  partitions: PartitionDir[],
  meta: RemoteMetadataRead = new RemoteMetadataRead(partitions),
): void {
  // one for all the partitions: nothing of its own is kept per partition but its entry in the map
  const context = { meta, starts: new Map<string, OffsetCheckpoint | null>() }
  for (const dir of partitions) {
    if (dir.topic === null || dir.partition === null || dir.topic === REMOTE_LOG_METADATA_TOPIC) continue
    if (localStartOf(dir) !== null) notRead.set(dir, context)
  }
}

/** the partitions noteRemoteNotRead is to look at, the metadata they are looked up in and their log dirs' log starts */
const notRead = new WeakMap<PartitionDir, { meta: RemoteMetadataRead; starts: Map<string, OffsetCheckpoint | null> }>()

/** the partition with its REMOTE_NOT_READ note (noteRemoteNotRead), or itself */
export function withRemoteNotRead(dir: PartitionDir): PartitionDir {
  const c = notRead.get(dir)
  const localStart = c === undefined ? null : localStartOf(dir)
  if (c === undefined || localStart === null || dir.topic === null || dir.partition === null) return dir
  const metadata = c.meta.metadata()
  const remote = metadata === null ? [] : finishedSegments(metadata, dir.topic, dir.partition, topicIdOf(dir))
  const r = remoteOffsetsNotRead(localStart, logStartOf(dir, c.starts), remote)
  return r === null ? dir : { ...dir, remoteNotRead: r }
}

/** the base offset of the partition's first local segment */
export function localStartOf(dir: PartitionDir): bigint | null {
  return dir.files
    .filter((f) => f.kind === 'log' && f.baseOffset !== null)
    .map((f) => f.baseOffset!)
    .reduce<bigint | null>((a, b) => (a === null || b < a ? b : a), null)
}

/** the REMOTE_NOT_READ note of a partition noteRemoteNotRead marked, its text made now */
export function remoteNotReadFinding(r: NonNullable<PartitionDir['remoteNotRead']>): Finding {
  const n = r.lastOffset - r.firstOffset + 1n
  const localStart = r.lastOffset + 1n
  const why =
    r.evidence === 'remote-log-metadata'
      ? `${REMOTE_LOG_METADATA_TOPIC} lists finished remote segments from offset ${r.firstOffset}`
      : `log-start-offset-checkpoint puts the log start at ${r.firstOffset}, below the first local segment (only a topic with remote storage has it so)`
  return finding(
    'REMOTE_NOT_READ',
    `${n} offsets below the first local segment ${localStart} are in remote storage and were not read (${why}): ` +
      'the counts are of the local segments only; give --remote-storage <dir> to read them',
    { firstOffset: r.firstOffset, lastOffset: r.lastOffset },
  )
}

/** the partition's log-start-offset-checkpoint entry: read with its paths (attachCheckpoints), else once per log dir */
export function logStartOf(dir: PartitionDir, starts: Map<string, OffsetCheckpoint | null>): bigint | null {
  if (dir.checkpoints !== undefined) return dir.checkpoints.logStart
  if (!starts.has(dir.logDir)) starts.set(dir.logDir, readOffsetCheckpoint(dir.logDir, 'log-start-offset-checkpoint'))
  return starts.get(dir.logDir)?.get(`${dir.topic}-${dir.partition}`) ?? null
}
