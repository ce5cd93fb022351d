// kafka-dump-log `--remote-log-metadata-decoder` text (KIP-1057, 3.9+): the payload is the toString() of
// the object RemoteLogMetadataSerde builds from the record (RemoteLogSegmentMetadata and friends in
// storage-api), or `Error at offset O, skipping. <message>`. Uuids print as Kafka's Uuid.toString(),
// leader epochs as a java.util.TreeMap, custom metadata as Optional[CustomMetadata{N bytes}].
import { DecodeError } from '../../decode/errors.js'
import { SchemaReadError } from '../../decode/protocol/reader.js'
import type { KafkaRelease, SchemaStruct } from '../../decode/protocol/types.js'
import { decodeRemoteLogMetadataRecord } from '../../decode/topics/remote-log-metadata.js'
import type { FormattedRecord } from './formatted-record.js'
import { unknownVersion } from './formatted-record.js'
import { schemaJsonValue } from './kafka-json.js'

/** RemoteLogSegmentState / RemotePartitionDeleteState ids */
const SEGMENT_STATES = [
  'COPY_SEGMENT_STARTED',
  'COPY_SEGMENT_FINISHED',
  'DELETE_SEGMENT_STARTED',
  'DELETE_SEGMENT_FINISHED',
]
const PARTITION_DELETE_STATES = ['DELETE_PARTITION_MARKED', 'DELETE_PARTITION_STARTED', 'DELETE_PARTITION_FINISHED']

interface RlmmVariant {
  txnIdxEmpty: boolean
}
const VARIANTS: Readonly<Record<KafkaRelease, RlmmVariant>> = {
  '3.9': { txnIdxEmpty: false },
  // KIP-1058: segment metadata records carry TxnIndexEmpty, and toString() prints it
  '4.0': { txnIdxEmpty: true },
  '4.1': { txnIdxEmpty: true },
  '4.2': { txnIdxEmpty: true },
  '4.3': { txnIdxEmpty: true },
  '4.4': { txnIdxEmpty: true },
}

const topicIdPartition = (t: SchemaStruct): string => `${t.id as string}:${t.name as string}-${t.partition as number}`
const segmentId = (s: SchemaStruct): string =>
  `RemoteLogSegmentId{topicIdPartition=${topicIdPartition(s.topicIdPartition as SchemaStruct)}, id=${s.id as string}}`
const custom = (b: unknown): string =>
  Buffer.isBuffer(b) ? `Optional[CustomMetadata{${b.length} bytes}]` : 'Optional.empty'

function epochs(list: unknown): string {
  const m = new Map<number, bigint>()
  for (const e of list as SchemaStruct[]) m.set(e.leaderEpoch as number, e.offset as bigint)
  return `{${[...m.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k}=${v}`)
    .join(', ')}}`
}

function state(names: string[], id: unknown): string {
  const n = names[id as number]
  if (n === undefined)
    throw new SchemaReadError(
      `unknown state id ${String(id)}`,
      -1,
      `Given id: ${String(id)} is not supported.`,
      'state',
    )
  return n
}

function text(apiKey: number, d: SchemaStruct, v: RlmmVariant): string {
  const txn = v.txnIdxEmpty ? `, txnIdxEmpty=${String(d.txnIndexEmpty ?? false)}` : ''
  switch (apiKey) {
    case 0:
      return (
        `RemoteLogSegmentMetadata{remoteLogSegmentId=${segmentId(d.remoteLogSegmentId as SchemaStruct)}, startOffset=${d.startOffset as bigint}, ` +
        `endOffset=${d.endOffset as bigint}, brokerId=${d.brokerId as number}, maxTimestampMs=${d.maxTimestampMs as bigint}, eventTimestampMs=${d.eventTimestampMs as bigint}, ` +
        `segmentLeaderEpochs=${epochs(d.segmentLeaderEpochs)}, segmentSizeInBytes=${d.segmentSizeInBytes as number}, customMetadata=${custom(d.customMetadata)}, ` +
        `state=${state(SEGMENT_STATES, d.remoteLogSegmentState)}${txn}}`
      )
    case 1:
      return (
        `RemoteLogSegmentMetadataUpdate{remoteLogSegmentId=${segmentId(d.remoteLogSegmentId as SchemaStruct)}, customMetadata=${custom(d.customMetadata)}, ` +
        `state=${state(SEGMENT_STATES, d.remoteLogSegmentState)}, eventTimestampMs=${d.eventTimestampMs as bigint}, brokerId=${d.brokerId as number}}`
      )
    case 2:
      return (
        `RemotePartitionDeleteMetadata{topicPartition=${topicIdPartition(d.topicIdPartition as SchemaStruct)}, ` +
        `state=${state(PARTITION_DELETE_STATES, d.remotePartitionDeleteState)}, eventTimestampMs=${d.eventTimestampMs as bigint}, brokerId=${d.brokerId as number}}`
      )
    default:
      return (
        `RemoteLogSegmentMetadataSnapshot{segmentId=${d.segmentId as string}, startOffset=${d.startOffset as bigint}, endOffset=${d.endOffset as bigint}, ` +
        `maxTimestampMs=${d.maxTimestampMs as bigint}, segmentLeaderEpochs=${epochs(d.segmentLeaderEpochs)}, segmentSizeInBytes=${d.segmentSizeInBytes as number}, ` +
        `customMetadata=${custom(d.customMetadata)}, state=${state(SEGMENT_STATES, d.remoteLogSegmentState)}${txn}}`
      )
  }
}

export function formatRemoteLogMetadataRecord(
  value: Buffer | null,
  offset: bigint,
  release: KafkaRelease = '4.4',
  position = -1,
): FormattedRecord {
  if (value === null)
    return {
      payload: `Error at offset ${offset}, skipping. the record has no value`,
      finding: { code: 'BAD_INTERNAL_RECORD', message: 'the record has no value', position },
    }
  try {
    const r = decodeRemoteLogMetadataRecord(value, position, release)
    const out: FormattedRecord = {
      payload: text(r.apiKey, r.data, VARIANTS[release]),
      payloadJson: { type: r.def.name, version: r.version, data: schemaJsonValue(r.data) },
    }
    if (r.unknownVersion) out.finding = unknownVersion(r.def.name, r.version, release, position)
    return out
  } catch (e) {
    if (e instanceof DecodeError) {
      const msg = e instanceof SchemaReadError ? e.kafkaMessage : e.message
      return {
        payload: `Error at offset ${offset}, skipping. ${msg}`,
        finding: {
          code:
            e.context.field === 'type'
              ? 'UNKNOWN_RECORD_TYPE'
              : e.context.field === 'version'
                ? 'UNKNOWN_RECORD_VERSION'
                : 'BAD_INTERNAL_RECORD',
          message: e.message,
          position: e.position,
        },
      }
    }
    throw e
  }
}
