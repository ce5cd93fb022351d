// __consumer_offsets records: every coordinator record type of the group coordinator's definitions
// (decode/protocol/generated/consumer-offsets-messages.ts, generated): offset commits 0/1, classic group metadata 2,
// KIP-848 consumer groups 3-8 and 16, share groups 10-15, streams groups 17 and 19-23, with tagged fields.
// A classic group of protocolType "consumer" embeds ConsumerProtocolSubscription / Assignment bytes
// (int16 version prefix, never flexible); they are decoded as DumpLogSegments does, and kept as bytes
// when they do not parse.
import { ByteReader } from '../../bytes/byte-reader.js'
import { DecodeError } from '../errors.js'
import { decodeCoordinatorRecord } from '../protocol/coordinator-serde.js'
import type { CoordinatorRecord, SerdeOptions } from '../protocol/coordinator-serde.js'
import { readMessage } from '../protocol/reader.js'
import { schemasFor } from '../protocol/registry.js'
import type { KafkaRelease, SchemaStruct, SchemaValue } from '../protocol/types.js'
import { inRange } from '../protocol/types.js'
import * as table from '../protocol/generated/consumer-offsets-messages.js'

export const GROUP_METADATA_TYPE = 2

/** the record types `release`'s group coordinator defines, with their key names */
export function groupRecordTypes(release: KafkaRelease): Map<number, string> {
  const out = new Map<number, string>()
  for (const [type, [key]] of schemasFor(table, release).coordinator) out.set(type, key.name.replace(/Key$/, ''))
  return out
}

function embedded(name: string, bytes: Buffer, release: KafkaRelease): SchemaValue {
  const def = schemasFor(table, release).byName.get(name)
  if (def === undefined) return bytes
  try {
    const r = new ByteReader(bytes)
    const version = r.readInt16('version')
    if (!inRange(def.validVersions, version)) return bytes
    return readMessage(r, def, version)
  } catch (e) {
    if (e instanceof DecodeError) return bytes // DumpLogSegments swallows the error and keeps the bytes
    throw e
  }
}

/** GroupMetadataValue members with subscription/assignment decoded when protocolType is "consumer" */
function withConsumerProtocol(data: SchemaStruct, release: KafkaRelease): SchemaStruct {
  if (data.protocolType !== 'consumer' || !Array.isArray(data.members)) return data
  const members = data.members.map((m) => {
    const member = { ...(m as SchemaStruct) }
    if (Buffer.isBuffer(member.subscription))
      member.subscription = embedded('ConsumerProtocolSubscription', member.subscription, release)
    if (Buffer.isBuffer(member.assignment))
      member.assignment = embedded('ConsumerProtocolAssignment', member.assignment, release)
    return member
  })
  return { ...data, members }
}

/**
 * Decode one record as Kafka `release` reads it.
 * @throws UnknownRecordTypeError, SchemaReadError (kafkaMessage = Kafka's exception text)
 */
export function decodeGroupRecord(
  key: Buffer,
  value: Buffer | null,
  release: KafkaRelease = '4.4',
  opts: SerdeOptions = { checkValueVersion: true },
  keyPosition = 0,
  valuePosition = 0,
): CoordinatorRecord {
  const rec = decodeCoordinatorRecord(schemasFor(table, release), key, value, opts, keyPosition, valuePosition)
  if (rec.type === GROUP_METADATA_TYPE && rec.value !== null)
    rec.value.data = withConsumerProtocol(rec.value.data, release)
  return rec
}
