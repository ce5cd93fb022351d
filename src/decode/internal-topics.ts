// Records of Kafka's internal topics, as stored in __transaction_state and __consumer_offsets.
// Both are "coordinator records": key = int16 record type (key version) + key message,
// value = int16 value version + value message, null value = tombstone (CoordinatorRecordSerde).
//
// __transaction_state (TransactionLogKey.json v0, TransactionLogValue.json v0-1, flexible 1+):
//   key   : transactionalId string
//   value : producerId int64 | producerEpoch int16 | transactionTimeoutMs int32 | transactionStatus int8 |
//           transactionPartitions nullable [topic string, partitionIds [int32]] |
//           transactionLastUpdateTimestampMs int64 | transactionStartTimestampMs int64
//           (v1 tagged fields: 0 previousProducerId int64, 1 nextProducerId int64, 2 clientTransactionVersion int16)
// __consumer_offsets (group-coordinator/src/main/resources/common/message/):
//   key type 0,1 OffsetCommitKey {group string, topic string, partition int32}; 2 GroupMetadataKey {group string}
//   OffsetCommitValue v0-4 (flexible 4+): offset int64 | leaderEpoch int32 (v3+) | metadata string |
//           commitTimestamp int64 | expireTimestamp int64 (v1 only)
//   GroupMetadataValue v0-4 (flexible 4+): protocolType string | generation int32 | protocol nullable string |
//           leader nullable string | currentStateTimestamp int64 (v2+) | members [memberId, groupInstanceId (v3+,
//           nullable), clientId, clientHost, rebalanceTimeout int32 (v1+), sessionTimeout int32, subscription bytes,
//           assignment bytes]
// Embedded consumer protocol (ConsumerProtocolSubscription / Assignment, int16 version prefix, never flexible).
import { ByteReader } from '../bytes/byte-reader.js'
import { DecodeError } from './errors.js'

/** Classic or flexible (compact + tagged fields) protocol reads over a ByteReader. */
class ProtoReader {
  constructor (readonly r: ByteReader, readonly flexible: boolean) {}

  string (field: string): string {
    const s = this.nullableString(field)
    if (s === null) throw new DecodeError('BAD_LENGTH', `non-nullable field ${field} was serialized as null`, this.r.absolute, { field })
    return s
  }

  nullableString (field: string): string | null {
    const n = this.flexible ? this.r.readUnsignedVarint(field) - 1 : this.r.readInt16(field)
    if (n < 0) return null
    return this.r.readBytes(n, field).toString('utf8')
  }

  bytes (field: string): Buffer | null {
    const n = this.flexible ? this.r.readUnsignedVarint(field) - 1 : this.r.readInt32(field)
    if (n < 0) return null
    return this.r.readBytes(n, field)
  }

  array<T> (field: string, item: () => T): T[] | null {
    const n = this.flexible ? this.r.readUnsignedVarint(field) - 1 : this.r.readInt32(field)
    if (n < 0) return null
    if (n > this.r.remaining) throw new DecodeError('BAD_LENGTH', `${field}: ${n} elements in ${this.r.remaining} bytes`, this.r.absolute, { field })
    const out: T[] = []
    for (let i = 0; i < n; i++) out.push(item())
    return out
  }

  nonNullArray<T> (field: string, item: () => T): T[] {
    const a = this.array(field, item)
    if (a === null) throw new DecodeError('BAD_LENGTH', `non-nullable field ${field} was serialized as null`, this.r.absolute, { field })
    return a
  }

  /** tagged fields: calls `onTag` for each; unknown tags are skipped */
  tagged (onTag: (tag: number, r: ByteReader) => void = () => {}): void {
    if (!this.flexible) return
    const n = this.r.readUnsignedVarint('taggedFields')
    for (let i = 0; i < n; i++) {
      const tag = this.r.readUnsignedVarint('tag')
      const size = this.r.readUnsignedVarint('tagSize')
      onTag(tag, this.r.child(size, `tag ${tag}`))
    }
  }
}

// ---------------------------------------------------------------- __transaction_state

export const TRANSACTION_STATES = ['Empty', 'Ongoing', 'PrepareCommit', 'PrepareAbort', 'CompleteCommit', 'CompleteAbort', 'Dead', 'PrepareEpochFence'] as const

export interface TransactionLogKey { version: number, transactionalId: string | null }

export interface TransactionLogValue {
  version: number
  producerId: bigint
  previousProducerId: bigint
  nextProducerId: bigint
  producerEpoch: number
  transactionTimeoutMs: number
  transactionStatus: number
  transactionPartitions: Array<{ topic: string, partitionIds: number[] }> | null
  transactionLastUpdateTimestampMs: bigint
  transactionStartTimestampMs: bigint
  clientTransactionVersion: number
}

/** transactionalId is null when the key version is not 0 (TransactionLog.readTxnRecordKey's UnknownKey). @throws DecodeError */
export function decodeTransactionLogKey (key: Buffer, position = 0): TransactionLogKey {
  const r = new ByteReader(key, position)
  const version = r.readInt16('version')
  if (version !== 0) return { version, transactionalId: null }
  return { version, transactionalId: new ProtoReader(r, false).string('transactionalId') }
}

/** @throws DecodeError for truncated values and unknown versions */
export function decodeTransactionLogValue (value: Buffer, position = 0): TransactionLogValue {
  const r = new ByteReader(value, position)
  const version = r.readInt16('version')
  if (version < 0 || version > 1) throw new DecodeError('BAD_RECORD', `Unknown version ${version} from the transaction log message value`, position, { field: 'version' })
  const p = new ProtoReader(r, version >= 1)
  const producerId = r.readInt64('producerId')
  const producerEpoch = r.readInt16('producerEpoch')
  const transactionTimeoutMs = r.readInt32('transactionTimeoutMs')
  const transactionStatus = r.readInt8('transactionStatus')
  const transactionPartitions = p.array('transactionPartitions', () => {
    const topic = p.string('topic')
    const partitionIds = p.nonNullArray('partitionIds', () => r.readInt32('partitionId'))
    p.tagged()
    return { topic, partitionIds }
  })
  const transactionLastUpdateTimestampMs = r.readInt64('transactionLastUpdateTimestampMs')
  const transactionStartTimestampMs = r.readInt64('transactionStartTimestampMs')
  const v: TransactionLogValue = { version, producerId, previousProducerId: -1n, nextProducerId: -1n, producerEpoch, transactionTimeoutMs,
    transactionStatus, transactionPartitions, transactionLastUpdateTimestampMs, transactionStartTimestampMs, clientTransactionVersion: 0 }
  p.tagged((tag, t) => {
    if (tag === 0) v.previousProducerId = t.readInt64('previousProducerId')
    else if (tag === 1) v.nextProducerId = t.readInt64('nextProducerId')
    else if (tag === 2) v.clientTransactionVersion = t.readInt16('clientTransactionVersion')
  })
  return v
}

export function transactionStateName (status: number): string {
  return TRANSACTION_STATES[status] ?? `Unknown(${status})`
}

/** Java TopicPartition.hashCode */
function topicPartitionHash (topic: string, partition: number): number {
  let h = 0
  for (let i = 0; i < topic.length; i++) h = (Math.imul(h, 31) + topic.charCodeAt(i)) | 0
  return (Math.imul(31, 31 + partition) + h) | 0
}

/**
 * Iteration order of a Scala 2.13 mutable.HashSet[TopicPartition] (what 3.9's formatter prints):
 * buckets by improveHash(h) & (len - 1), ascending hash inside a bucket, table length 16 doubled
 * whenever size + 1 reaches 0.75 × length.
 */
export function scalaHashSetOrder (tps: ReadonlyArray<{ topic: string, partition: number }>): Array<{ topic: string, partition: number }> {
  const uniq = new Map<string, { topic: string, partition: number, hash: number }>()
  for (const tp of tps) {
    const h = topicPartitionHash(tp.topic, tp.partition)
    uniq.set(`${tp.topic}\u0000${tp.partition}`, { ...tp, hash: h ^ (h >>> 16) })
  }
  let len = 16
  while (uniq.size >= len * 0.75) len *= 2
  const items = [...uniq.values()]
  items.sort((a, b) => ((a.hash & (len - 1)) - (b.hash & (len - 1))) || (a.hash - b.hash))
  return items.map(({ topic, partition }) => ({ topic, partition }))
}

export interface FormattedRecord { key?: string, payload?: string, error?: string }

/** kafka-dump-log 3.9 `--transaction-log-decoder` text (TransactionLog.formatRecordKeyAndValue). */
export function formatTransactionLogRecord (key: Buffer | null, value: Buffer | null, offset: bigint): FormattedRecord {
  if (key === null) return { error: `Failed to decode message at offset ${offset} using the transaction log decoder (message had a missing key)` }
  try {
    const k = decodeTransactionLogKey(key)
    if (k.transactionalId === null) return { key: `unknown::version=${k.version}` }
    const keyText = `transaction_metadata::transactionalId=${k.transactionalId}`
    if (value === null) return { key: keyText, payload: '<DELETE>' }
    const v = decodeTransactionLogValue(value)
    const state = TRANSACTION_STATES[v.transactionStatus]
    if (state === undefined) throw new DecodeError('BAD_RECORD', `Unknown transaction state id ${v.transactionStatus}`, 0, { field: 'transactionStatus' })
    const tps = state === 'Empty' ? [] : scalaHashSetOrder((v.transactionPartitions ?? []).flatMap((t) => t.partitionIds.map((partition) => ({ topic: t.topic, partition }))))
    const payload = `producerId:${v.producerId},producerEpoch:${v.producerEpoch},state=${state},` +
      `partitions=[${tps.map((t) => `${t.topic}-${t.partition}`).join(',')}],` +
      `txnLastUpdateTimestamp=${v.transactionLastUpdateTimestampMs},txnTimeoutMs=${v.transactionTimeoutMs}`
    return { key: keyText, payload }
  } catch (e) {
    if (e instanceof DecodeError) return { error: `Error at offset ${offset}: ${e.message}` }
    throw e
  }
}

// ---------------------------------------------------------------- __consumer_offsets

export type JsonLike = null | boolean | number | bigint | string | JsonLike[] | { [k: string]: JsonLike }

/** Compact JSON like Jackson's ObjectNode.toString; bigint written as a number literal. */
export function jsonText (v: JsonLike): string {
  if (v === null) return 'null'
  if (typeof v === 'bigint') return v.toString()
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map(jsonText).join(',')}]`
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${jsonText(x)}`).join(',')}}`
}

export const GROUP_RECORD_TYPES: Record<number, string> = {
  0: 'OffsetCommit', 1: 'OffsetCommit', 2: 'GroupMetadata', 3: 'ConsumerGroupMetadata', 4: 'ConsumerGroupPartitionMetadata',
  5: 'ConsumerGroupMemberMetadata', 6: 'ConsumerGroupTargetAssignmentMetadata', 7: 'ConsumerGroupTargetAssignmentMember',
  8: 'ConsumerGroupCurrentMemberAssignment', 9: 'ShareGroupPartitionMetadata', 10: 'ShareGroupMemberMetadata', 11: 'ShareGroupMetadata',
  12: 'ShareGroupTargetAssignmentMetadata', 13: 'ShareGroupTargetAssignmentMember', 14: 'ShareGroupCurrentMemberAssignment', 15: 'ShareGroupStatePartitionMetadata',
}

export interface GroupRecordKey { type: number, data: { [k: string]: JsonLike } }

/** OffsetCommitKey (type 0/1) or GroupMetadataKey (type 2); null data for types tsdump does not decode. @throws DecodeError */
export function decodeGroupRecordKey (key: Buffer, position = 0): GroupRecordKey | { type: number, data: null } {
  const r = new ByteReader(key, position)
  const type = r.readInt16('type')
  const p = new ProtoReader(r, false)
  if (type === 0 || type === 1) {
    const group = p.string('group')
    const topic = p.string('topic')
    return { type, data: { group, topic, partition: r.readInt32('partition') } }
  }
  if (type === 2) return { type, data: { group: p.string('group') } }
  return { type, data: null }
}

export function decodeOffsetCommitValue (r: ByteReader): { version: number, data: { [k: string]: JsonLike } } {
  const version = r.readInt16('version')
  if (version < 0 || version > 4) throw new DecodeError('BAD_RECORD', `unknown OffsetCommitValue version ${version}`, r.absolute - 2, { field: 'version' })
  const p = new ProtoReader(r, version >= 4)
  const data: { [k: string]: JsonLike } = { offset: r.readInt64('offset') }
  if (version >= 3) data.leaderEpoch = r.readInt32('leaderEpoch')
  data.metadata = p.string('metadata')
  data.commitTimestamp = r.readInt64('commitTimestamp')
  if (version === 1) data.expireTimestamp = r.readInt64('expireTimestamp')
  p.tagged()
  return { version, data }
}

function topicPartitions (p: ProtoReader, field: string): JsonLike[] {
  return p.nonNullArray(field, () => ({ topic: p.string('topic'), partitions: p.nonNullArray('partitions', () => p.r.readInt32('partition')) }))
}

function base64 (b: Buffer | null): string | null { return b === null ? null : b.toString('base64') }

/** ConsumerProtocolSubscription JSON, or null when malformed (the formatter then keeps base64, as Kafka does). */
export function decodeConsumerSubscription (buf: Buffer): JsonLike | null {
  try {
    const r = new ByteReader(buf)
    const version = r.readInt16('version')
    if (version < 0 || version > 3) return null
    const p = new ProtoReader(r, false)
    const out: { [k: string]: JsonLike } = { topics: p.nonNullArray('topics', () => p.string('topic')), userData: base64(p.bytes('userData')) }
    if (version >= 1) out.ownedPartitions = topicPartitions(p, 'ownedPartitions')
    if (version >= 2) out.generationId = r.readInt32('generationId')
    if (version >= 3) out.rackId = p.nullableString('rackId')
    return out
  } catch (e) {
    if (e instanceof DecodeError) return null
    throw e
  }
}

export function decodeConsumerAssignment (buf: Buffer): JsonLike | null {
  try {
    const r = new ByteReader(buf)
    const version = r.readInt16('version')
    if (version < 0 || version > 3) return null
    const p = new ProtoReader(r, false)
    return { assignedPartitions: topicPartitions(p, 'assignedPartitions'), userData: base64(p.bytes('userData')) }
  } catch (e) {
    if (e instanceof DecodeError) return null
    throw e
  }
}

export function decodeGroupMetadataValue (r: ByteReader): { version: number, data: { [k: string]: JsonLike } } {
  const version = r.readInt16('version')
  if (version < 0 || version > 4) throw new DecodeError('BAD_RECORD', `unknown GroupMetadataValue version ${version}`, r.absolute - 2, { field: 'version' })
  const p = new ProtoReader(r, version >= 4)
  const data: { [k: string]: JsonLike } = {
    protocolType: p.string('protocolType'), generation: r.readInt32('generation'),
    protocol: p.nullableString('protocol'), leader: p.nullableString('leader'),
  }
  if (version >= 2) data.currentStateTimestamp = r.readInt64('currentStateTimestamp')
  const consumer = data.protocolType === 'consumer'
  data.members = p.nonNullArray('members', () => {
    const m: { [k: string]: JsonLike } = { memberId: p.string('memberId') }
    if (version >= 3) m.groupInstanceId = p.nullableString('groupInstanceId')
    m.clientId = p.string('clientId')
    m.clientHost = p.string('clientHost')
    if (version >= 1) m.rebalanceTimeout = r.readInt32('rebalanceTimeout')
    m.sessionTimeout = r.readInt32('sessionTimeout')
    const subscription = p.bytes('subscription')
    const assignment = p.bytes('assignment')
    if (subscription === null || assignment === null) throw new DecodeError('BAD_LENGTH', 'non-nullable member bytes serialized as null', r.absolute, { field: 'subscription' })
    // consumer groups: embedded protocol decoded, kept as base64 when malformed (DumpLogSegments.OffsetsMessageParser)
    m.subscription = (consumer ? decodeConsumerSubscription(subscription) : null) ?? subscription.toString('base64')
    m.assignment = (consumer ? decodeConsumerAssignment(assignment) : null) ?? assignment.toString('base64')
    p.tagged()
    return m
  })
  p.tagged()
  return { version, data }
}

/** kafka-dump-log 3.9 `--offsets-decoder` text: key {"type":"<n>","data":…}, value {"version":"<n>","data":…} or <DELETE>. */
export function formatOffsetsRecord (key: Buffer | null, value: Buffer | null, offset: bigint): FormattedRecord {
  if (key === null) return { error: `Failed to decode message at offset ${offset} using offset topic decoder (message had a missing key)` }
  try {
    const k = decodeGroupRecordKey(key)
    if (k.data === null) {
      if (GROUP_RECORD_TYPES[k.type] === undefined) return { key: `Unknown record type ${k.type} at offset ${offset}, skipping.` }
      return { key: `Error at offset ${offset}, skipping. tsdump does not decode ${GROUP_RECORD_TYPES[k.type]} records (type ${k.type}) yet` }
    }
    const keyText = jsonText({ type: String(k.type), data: k.data })
    if (value === null) return { key: keyText, payload: '<DELETE>' }
    const r = new ByteReader(value)
    const v = k.type === 2 ? decodeGroupMetadataValue(r) : decodeOffsetCommitValue(r)
    return { key: keyText, payload: jsonText({ version: String(v.version), data: v.data }) }
  } catch (e) {
    if (e instanceof DecodeError) return { key: `Error at offset ${offset}, skipping. ${e.message}` }
    throw e
  }
}
