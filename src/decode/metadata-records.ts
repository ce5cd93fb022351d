// KRaft __cluster_metadata record values (Kafka MetadataRecordSerde / AbstractApiMessageSerde):
//
//   frameVersion uvarint (1) | apiKey uvarint | version uvarint | message (flexible encoding)
//
// Flexible encoding (KIP-482): compact strings/arrays carry uvarint length + 1 (0 = null), every
// struct ends with a tagged-field section: uvarint count, then { tag uvarint, size uvarint, data }.
// Field layouts are transcribed from Kafka's metadata/src/main/resources/common/metadata/*.json.
// Fields added in later versions are listed with `since`; tagged fields with `tag`.
import { ByteReader } from '../bytes/byte-reader.js'
import { DecodeError } from './errors.js'

type Primitive = 'int8' | 'int16' | 'uint16' | 'int32' | 'int64' | 'float64' | 'bool' | 'string' | 'uuid' | 'bytes'
type FieldType = Primitive | `[]${Primitive}` | Field[]
interface Field { name: string, type: FieldType, since?: number, nullable?: boolean, tag?: number, array?: boolean }
interface Schema { type: string, maxVersion: number, fields: Field[] }

export type MetadataValue = number | bigint | boolean | string | Buffer | null | MetadataValue[] | { [name: string]: MetadataValue }
export interface MetadataRecord {
  /** MetadataRecordType name, e.g. TOPIC_RECORD, or UNKNOWN(<apiKey>) */
  type: string
  apiKey: number
  version: number
  /** fields keyed by their camelCase schema names; null for unknown types and versions */
  data: { [name: string]: MetadataValue } | null
}

const f = (name: string, type: FieldType, extra: Omit<Field, 'name' | 'type'> = {}): Field => ({ name, type, ...extra })
const struct = (name: string, fields: Field[], extra: Omit<Field, 'name' | 'type'> = {}): Field => ({ name, type: fields, array: true, ...extra })
const endpoint = [f('name', 'string'), f('host', 'string'), f('port', 'uint16'), f('securityProtocol', 'int16')]
const feature = [f('name', 'string'), f('minSupportedVersion', 'int16'), f('maxSupportedVersion', 'int16')]

const SCHEMAS = new Map<number, Schema>([
  [0, { type: 'REGISTER_BROKER_RECORD', maxVersion: 3, fields: [f('brokerId', 'int32'), f('isMigratingZkBroker', 'bool', { since: 2 }), f('incarnationId', 'uuid'),
    f('brokerEpoch', 'int64'), struct('endPoints', endpoint), struct('features', feature), f('rack', 'string', { nullable: true }), f('fenced', 'bool'),
    f('inControlledShutdown', 'bool', { since: 1 }), f('logDirs', '[]uuid', { since: 3, tag: 0 })] }],
  [1, { type: 'UNREGISTER_BROKER_RECORD', maxVersion: 0, fields: [f('brokerId', 'int32'), f('brokerEpoch', 'int64')] }],
  [2, { type: 'TOPIC_RECORD', maxVersion: 0, fields: [f('name', 'string'), f('topicId', 'uuid')] }],
  [3, { type: 'PARTITION_RECORD', maxVersion: 2, fields: [f('partitionId', 'int32'), f('topicId', 'uuid'), f('replicas', '[]int32'), f('isr', '[]int32'),
    f('removingReplicas', '[]int32'), f('addingReplicas', '[]int32'), f('leader', 'int32'), f('leaderRecoveryState', 'int8', { tag: 0 }),
    f('leaderEpoch', 'int32'), f('partitionEpoch', 'int32'), f('directories', '[]uuid', { since: 1 }),
    f('eligibleLeaderReplicas', '[]int32', { since: 2, nullable: true, tag: 1 }), f('lastKnownElr', '[]int32', { since: 2, nullable: true, tag: 2 })] }],
  [4, { type: 'CONFIG_RECORD', maxVersion: 0, fields: [f('resourceType', 'int8'), f('resourceName', 'string'), f('name', 'string'), f('value', 'string', { nullable: true })] }],
  [5, { type: 'PARTITION_CHANGE_RECORD', maxVersion: 2, fields: [f('partitionId', 'int32'), f('topicId', 'uuid'),
    f('isr', '[]int32', { nullable: true, tag: 0 }), f('leader', 'int32', { tag: 1 }), f('replicas', '[]int32', { nullable: true, tag: 2 }),
    f('removingReplicas', '[]int32', { nullable: true, tag: 3 }), f('addingReplicas', '[]int32', { nullable: true, tag: 4 }),
    f('leaderRecoveryState', 'int8', { tag: 5 }), f('directories', '[]uuid', { since: 1, nullable: true, tag: 8 }),
    f('eligibleLeaderReplicas', '[]int32', { since: 2, nullable: true, tag: 6 }), f('lastKnownElr', '[]int32', { since: 2, nullable: true, tag: 7 })] }],
  [7, { type: 'FENCE_BROKER_RECORD', maxVersion: 0, fields: [f('id', 'int32'), f('epoch', 'int64')] }],
  [8, { type: 'UNFENCE_BROKER_RECORD', maxVersion: 0, fields: [f('id', 'int32'), f('epoch', 'int64')] }],
  [9, { type: 'REMOVE_TOPIC_RECORD', maxVersion: 0, fields: [f('topicId', 'uuid')] }],
  [10, { type: 'DELEGATION_TOKEN_RECORD', maxVersion: 0, fields: [f('owner', 'string'), f('requester', 'string'), f('renewers', '[]string'),
    f('issueTimestamp', 'int64'), f('maxTimestamp', 'int64'), f('expirationTimestamp', 'int64'), f('tokenId', 'string')] }],
  [11, { type: 'USER_SCRAM_CREDENTIAL_RECORD', maxVersion: 0, fields: [f('name', 'string'), f('mechanism', 'int8'), f('salt', 'bytes'),
    f('storedKey', 'bytes'), f('serverKey', 'bytes'), f('iterations', 'int32')] }],
  [12, { type: 'FEATURE_LEVEL_RECORD', maxVersion: 0, fields: [f('name', 'string'), f('featureLevel', 'int16')] }],
  [14, { type: 'CLIENT_QUOTA_RECORD', maxVersion: 0, fields: [struct('entity', [f('entityType', 'string'), f('entityName', 'string', { nullable: true })]),
    f('key', 'string'), f('value', 'float64'), f('remove', 'bool')] }],
  [15, { type: 'PRODUCER_IDS_RECORD', maxVersion: 0, fields: [f('brokerId', 'int32'), f('brokerEpoch', 'int64'), f('nextProducerId', 'int64')] }],
  [17, { type: 'BROKER_REGISTRATION_CHANGE_RECORD', maxVersion: 2, fields: [f('brokerId', 'int32'), f('brokerEpoch', 'int64'), f('fenced', 'int8', { tag: 0 }),
    f('inControlledShutdown', 'int8', { since: 1, tag: 1 }), f('logDirs', '[]uuid', { since: 2, tag: 2 })] }],
  [18, { type: 'ACCESS_CONTROL_ENTRY_RECORD', maxVersion: 0, fields: [f('id', 'uuid'), f('resourceType', 'int8'), f('resourceName', 'string'),
    f('patternType', 'int8'), f('principal', 'string'), f('host', 'string'), f('operation', 'int8'), f('permissionType', 'int8')] }],
  [19, { type: 'REMOVE_ACCESS_CONTROL_ENTRY_RECORD', maxVersion: 0, fields: [f('id', 'uuid')] }],
  [20, { type: 'NO_OP_RECORD', maxVersion: 0, fields: [] }],
  [21, { type: 'ZK_MIGRATION_STATE_RECORD', maxVersion: 0, fields: [f('zkMigrationState', 'int8')] }],
  [22, { type: 'REMOVE_USER_SCRAM_CREDENTIAL_RECORD', maxVersion: 0, fields: [f('name', 'string'), f('mechanism', 'int8')] }],
  [23, { type: 'BEGIN_TRANSACTION_RECORD', maxVersion: 0, fields: [f('name', 'string', { nullable: true, tag: 0 })] }],
  [24, { type: 'END_TRANSACTION_RECORD', maxVersion: 0, fields: [] }],
  [25, { type: 'ABORT_TRANSACTION_RECORD', maxVersion: 0, fields: [f('reason', 'string', { nullable: true, tag: 0 })] }],
  [26, { type: 'REMOVE_DELEGATION_TOKEN_RECORD', maxVersion: 0, fields: [f('tokenId', 'string')] }],
  [27, { type: 'REGISTER_CONTROLLER_RECORD', maxVersion: 0, fields: [f('controllerId', 'int32'), f('incarnationId', 'uuid'), f('zkMigrationReady', 'bool'),
    struct('endPoints', endpoint), struct('features', feature)] }],
])

function bad (r: ByteReader, msg: string): never {
  throw new DecodeError('BAD_RECORD', `metadata record: ${msg} at position ${r.absolute}`, r.absolute)
}

/** compact length: uvarint N+1, 0 = null (-1 returned) */
function readCompactLength (r: ByteReader, field: string): number {
  const n = r.readUnsignedVarint(field) - 1
  if (n > r.remaining) bad(r, `${field} length ${n} with ${r.remaining} bytes left`)
  return n
}

/** Kafka Uuid.toString(): URL-safe base64 without padding */
function readUuid (r: ByteReader, field: string): string {
  return r.readBytes(16, field).toString('base64url')
}

function readPrimitive (r: ByteReader, type: Primitive, field: string): MetadataValue {
  switch (type) {
    case 'int8': return r.readInt8(field)
    case 'int16': return r.readInt16(field)
    case 'uint16': return r.readUint16(field)
    case 'int32': return r.readInt32(field)
    case 'int64': return r.readInt64(field)
    case 'float64': return r.readBytes(8, field).readDoubleBE(0)
    case 'bool': return r.readInt8(field) !== 0
    case 'uuid': return readUuid(r, field)
    case 'string': case 'bytes': {
      const n = readCompactLength(r, field)
      if (n < 0) return null
      const b = r.readBytes(n, field)
      return type === 'string' ? b.toString('utf8') : b
    }
    default: return type satisfies never
  }
}

function readValue (r: ByteReader, fd: Field, version: number): MetadataValue {
  if (Array.isArray(fd.type) || fd.type.startsWith('[]')) {
    const n = readCompactLength(r, fd.name)
    if (n < 0) return null
    const out: MetadataValue[] = []
    for (let i = 0; i < n; i++) {
      out.push(Array.isArray(fd.type) ? readStruct(r, fd.type, version) : readPrimitive(r, fd.type.slice(2) as Primitive, fd.name))
    }
    return out
  }
  return readPrimitive(r, fd.type as Primitive, fd.name)
}

function readStruct (r: ByteReader, fields: Field[], version: number): { [name: string]: MetadataValue } {
  const out: { [name: string]: MetadataValue } = {}
  const tagged = new Map<number, Field>()
  for (const fd of fields) {
    if ((fd.since ?? 0) > version) continue
    if (fd.tag !== undefined) { tagged.set(fd.tag, fd); continue }
    out[fd.name] = readValue(r, fd, version)
  }
  const count = r.readUnsignedVarint('tagged fields')
  if (count > r.remaining / 2) bad(r, `${count} tagged fields with ${r.remaining} bytes left`)
  for (let i = 0; i < count; i++) {
    const tag = r.readUnsignedVarint('tag')
    const size = r.readUnsignedVarint('tagged field size')
    const body = r.child(size, 'tagged field')
    const fd = tagged.get(tag)
    if (fd === undefined) continue // unknown tags are skipped, as Kafka does
    out[fd.name] = readValue(body, fd, version)
    if (body.remaining !== 0) bad(body, `tagged field ${fd.name} has ${body.remaining} extra bytes`)
  }
  return out
}

/**
 * Decode one __cluster_metadata record value. Unknown apiKeys and versions newer than the transcribed
 * schemas give `data: null` instead of failing.
 * @param base absolute position of value[0], for error positions (-1 inside compressed batches is fine)
 * @throws DecodeError on malformed bytes
 */
export function decodeMetadataRecord (value: Buffer, base = 0): MetadataRecord {
  const r = new ByteReader(value, base)
  const frameVersion = r.readUnsignedVarint('frameVersion')
  if (frameVersion !== 1) bad(r, `unsupported frame version ${frameVersion}`)
  const apiKey = r.readUnsignedVarint('apiKey')
  const version = r.readUnsignedVarint('version')
  const schema = SCHEMAS.get(apiKey)
  if (schema === undefined) return { type: `UNKNOWN(${apiKey})`, apiKey, version, data: null }
  if (version > schema.maxVersion) return { type: schema.type, apiKey, version, data: null }
  const data = readStruct(r, schema.fields, version)
  if (r.remaining !== 0) bad(r, `${r.remaining} bytes after ${schema.type}`)
  return { type: schema.type, apiKey, version, data }
}
