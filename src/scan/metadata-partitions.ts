// Partition counts from a KRaft metadata log (__cluster_metadata): TopicRecord names a topic id, each
// PartitionRecord adds a partition to it, RemoveTopicRecord drops it (the controller's ReplicationControlManager
// state). What the coordinators' partition rules need: __transaction_state's and __consumer_offsets' counts.
import * as path from 'node:path'
import type { MetadataPartitionCounts } from './metadata-log.js'
import { readMetadataLog } from './metadata-log.js'
import type { PartitionDir } from '../io/discover.js'
import { discover } from '../io/discover.js'
import { namesIn } from '../io/dir-listing.js'
import type { CoordinatorPartitionCount } from '../analysis/coordinator.js'
import { coordinatorPartitionCount } from '../analysis/coordinator.js'

export type { MetadataPartitionCounts } from './metadata-log.js'

const METADATA = '__cluster_metadata'

/** Each topic's partition count, from the newest snapshot and the log after it (read with the configs: metadata-log.ts). */
export function readPartitionCounts(dir: PartitionDir): MetadataPartitionCounts {
  return readMetadataLog(dir).counts
}

/** The metadata log among `paths`, else beside them (__cluster_metadata-0 in a log directory given or holding one). */
export function findMetadataDir(paths: readonly string[]): PartitionDir | null {
  const d = discover(paths.filter((p) => p !== '-'))
  const given = d.partitions.find((p) => p.topic === METADATA)
  if (given !== undefined) return given
  for (const logDir of new Set(d.partitions.map((p) => p.logDir))) {
    const m = discover([path.join(logDir, `${METADATA}-0`)])
    if (m.problems.length === 0 && m.partitions[0] !== undefined) return m.partitions[0]
  }
  return null
}

/**
 * A coordinator topic's partition count for `paths` (analysis/coordinator.ts coordinatorPartitionCount): the
 * option, else the metadata log among or beside the paths, else the topic's directories among or beside them.
 */
export function coordinatorPartitionCountOf(
  topic: string,
  paths: readonly string[],
  option?: number,
): CoordinatorPartitionCount | null {
  return coordinatorPartitionCountFrom(
    topic,
    paths,
    () => {
      const meta = findMetadataDir(paths)
      return meta === null ? null : readPartitionCounts(meta)
    },
    option,
  )
}

/**
 * coordinatorPartitionCountOf with the metadata log's counts from `counts` (a broker model's one read of it,
 * scan/broker-model.ts partitionCounts), asked only when no option is given
 */
export function coordinatorPartitionCountFrom(
  topic: string,
  paths: readonly string[],
  counts: () => MetadataPartitionCounts | null,
  option?: number,
): CoordinatorPartitionCount | null {
  if (option !== undefined) return coordinatorPartitionCount(topic, { option })
  const read = counts()
  const count = read?.counts.get(topic)
  if (read != null && count !== undefined)
    return coordinatorPartitionCount(topic, { metadata: { path: read.path, count } })
  return coordinatorPartitionCount(topic, { present: partitionsPresent(topic, paths) })
}

/** the partition numbers of `topic` whose directories are among `paths` or in their log directories */
export function partitionsPresent(topic: string, paths: readonly string[]): number[] {
  const d = discover(paths.filter((p) => p !== '-'))
  const present = new Set<number>()
  const shape = new RegExp(`^${topic}-(\\d+)$`)
  for (const p of d.partitions) if (p.topic === topic && p.partition !== null) present.add(p.partition)
  for (const logDir of new Set(d.partitions.map((p) => p.logDir))) {
    for (const n of namesIn(logDir)) {
      const m = shape.exec(n)
      if (m !== null) present.add(Number(m[1]))
    }
  }
  return [...present]
}
