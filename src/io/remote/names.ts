// Object names of Kafka's LocalTieredStorage (org.apache.kafka.server.log.remote.storage.RemoteLogSegmentFileset,
// RemoteTopicPartitionDirectory): `<topic>-<partition>-<topicId>/<startOffset:20>-<segmentId>.<suffix>`, both ids
// as Uuid.toString() gives them (22 characters of URL-safe base64, no padding; they may start with `-` or `_`).

/** the directory of a storage root LocalTieredStorage writes into (LocalTieredStorage.STORAGE_DIR... its `kafka-tiered-storage`) */
export const LOCAL_TIERED_ROOT = 'kafka-tiered-storage'

const UUID_B64 = /^[A-Za-z0-9_-]{22}$/

export interface RemotePartitionName {
  topic: string
  partition: number
  topicId: string
}
export interface RemoteSegmentName {
  startOffset: bigint
  segmentId: string
  suffix: string
}

/** `<topic>-<partition>-<topicId>` or null */
export function parseRemotePartitionDir(name: string): RemotePartitionName | null {
  if (name.length < 26) return null
  const topicId = name.slice(-22)
  if (!UUID_B64.test(topicId) || name[name.length - 23] !== '-') return null
  const m = /^(.+)-(\d+)$/.exec(name.slice(0, -23))
  if (m === null) return null
  return { topic: m[1]!, partition: Number(m[2]), topicId }
}

/** `<offset:20>-<segmentId>.<suffix>` or null */
export function parseRemoteSegmentFile(name: string): RemoteSegmentName | null {
  const m = /^(\d{20})-([A-Za-z0-9_-]{22})\.([a-z_]+)$/.exec(name)
  if (m === null) return null
  return { startOffset: BigInt(m[1]!), segmentId: m[2]!, suffix: m[3]! }
}

export function remotePartitionDir(topic: string, partition: number, topicId: string): string {
  return `${topic}-${partition}-${topicId}`
}

/** the key (relative to the storage root) of one file of a remote segment */
export function remoteSegmentKey(
  topic: string,
  partition: number,
  topicId: string,
  startOffset: bigint,
  segmentId: string,
  suffix: string,
): string {
  return `${remotePartitionDir(topic, partition, topicId)}/${startOffset.toString().padStart(20, '0')}-${segmentId}.${suffix}`
}
