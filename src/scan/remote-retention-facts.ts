// What cleanup's tiered retention reads of a partition's remote segments (`__remote_log_metadata`'s, not the
// storage's), and a partition with its local files only. Split out of remote-segments.ts.
import type { PartitionDir } from '../io/discover.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { topicIdOf } from '../io/remote/open.js'
import { metadataLostFor, segmentsOf, REMOTE_LOG_METADATA_TOPIC } from './remote-metadata.js'
import type { RemoteMetadataRead } from './remote-metadata-read.js'
import { lostText } from '../analysis/lost-records.js'
import { logStartOf } from './remote-not-read.js'
import type { RemoteSegmentFacts } from '../analysis/cleanup/remote-retention.js'

/** What cleanup's tiered retention reads of a partition's remote segments: the metadata's, or why it is unknown. */
export type RemoteRetentionFacts =
  | { segments: RemoteSegmentFacts[]; logStartCheckpoint: bigint | null }
  | { unknown: string }

/**
 * Every remote segment `__remote_log_metadata` names for a partition, whatever its state (RLMExpirationTask reads the
 * metadata, not the storage): the command's one read of the metadata (`meta`: its partitions' scans, taken first),
 * each partition's facts made when asked (as its scan ends), none held for the others. Undefined for a partition the
 * metadata says nothing of; `unknown` where records of its metadata could not be read or no metadata partition was found.
 */
export function remoteRetentionFacts(
  meta: RemoteMetadataRead,
): (dir: PartitionDir) => RemoteRetentionFacts | undefined {
  const starts = new Map<string, OffsetCheckpoint | null>()
  return (dir) => {
    if (dir.topic === null || dir.partition === null || dir.topic === REMOTE_LOG_METADATA_TOPIC) return undefined
    const metadata = meta.metadata()
    if (metadata === null)
      return dir.files.some((f) => f.remote !== undefined)
        ? { unknown: `no ${REMOTE_LOG_METADATA_TOPIC} partition among the paths or in ${dir.logDir}` }
        : undefined
    const lost = metadataLostFor(metadata, dir.topic, dir.partition)
    if (lost !== undefined) return { unknown: lostText(lost) }
    const topicId = topicIdOf(dir)
    const segments = segmentsOf(metadata, dir.topic, dir.partition).filter(
      (s) =>
        (topicId === null || s.topicId === topicId) && !metadata.deletedPartitions.has(`${s.topicId}:${s.partition}`),
    )
    if (segments.length === 0) return undefined
    // the log start of a topic with remote storage is the checkpoint's, below the first local segment (LogLoader)
    return { segments, logStartCheckpoint: logStartOf(dir, starts) }
  }
}

/** the partition with its local files only: cleanup's local rules never read a remote segment as a local one */
export function localFilesOf(dir: PartitionDir): PartitionDir {
  return dir.files.some((f) => f.remote !== undefined)
    ? { ...dir, files: dir.files.filter((f) => f.remote === undefined) }
    : dir
}
