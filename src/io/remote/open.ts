// Opening a discovered file wherever it lives: on disk, or (a remote segment of --remote-storage) in its store.
import * as path from 'node:path'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { KafkaFile, PartitionDir } from '../discover.js'
import { FileSource, readSmallFile } from '../file-source.js'
import { openAivenObject } from './aiven-source.js'
import { openRemoteStore } from './store.js'

export function openKafkaFile(f: KafkaFile): SegmentSource {
  if (f.remote === undefined) return new FileSource(f.path)
  const store = openRemoteStore(f.remote.storage, f.remote.concurrency)
  return f.remote.aiven !== undefined
    ? openAivenObject(store, f.remote.key, f.remote.aiven, f.remote.size)
    : store.open(f.remote.key, f.remote.size)
}

/** The partition's topic id, its partition.metadata read once and the answer kept on the partition. */
export function topicIdOf(dir: PartitionDir): string | null {
  if (dir.topicId === undefined) dir.topicId = partitionTopicId(dir.path)
  return dir.topicId
}

/** The topic id partition.metadata records (`topic_id: <Uuid>`), or null when there is none to read. */
export function partitionTopicId(dir: string): string | null {
  try {
    const m = /topic_id:\s*([A-Za-z0-9_-]{22})/.exec(
      readSmallFile(path.join(dir, 'partition.metadata')).toString('utf8'),
    )
    return m === null ? null : m[1]!
  } catch {
    return null
  }
}
