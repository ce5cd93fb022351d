// __remote_log_metadata record values (KIP-405 TopicBasedRemoteLogMetadataManager): null keys, values
// framed by RemoteLogMetadataSerde like metadata records (uvarint frameVersion 1 | apiKey | version |
// flexible message). apiKey 0 RemoteLogSegmentMetadataRecord, 1 ...UpdateRecord,
// 2 RemotePartitionDeleteMetadataRecord, 3 RemoteLogSegmentMetadataSnapshotRecord (storage definitions).
import { decodeFramedRecord } from '../protocol/frame-serde.js'
import type { FramedRecord } from '../protocol/frame-serde.js'
import { schemasFor } from '../protocol/registry.js'
import type { KafkaRelease } from '../protocol/types.js'
import * as table from '../protocol/generated/remote-log-metadata-messages.js'

/** @throws SchemaReadError */
export function decodeRemoteLogMetadataRecord(
  value: Buffer,
  position = 0,
  release: KafkaRelease = '4.4',
): FramedRecord {
  return decodeFramedRecord(
    schemasFor(table, release),
    value,
    position,
    (apiKey) => `org.apache.kafka.common.errors.UnsupportedVersionException: Unknown metadata id ${apiKey}`,
  )
}
