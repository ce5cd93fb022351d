// Coordinator records (__consumer_offsets, __transaction_state, __share_group_state), as Kafka's
// CoordinatorRecordSerde reads them: key = int16 record type + key message, value = int16 version +
// value message, a null value is a tombstone. The error texts are Kafka's, so the formatters can
// print them where kafka-dump-log prints `e.getMessage()`.
import { ByteReader } from '../../bytes/byte-reader.js'
import { DecodeError } from '../errors.js'
import { readMessage, SchemaReadError } from './reader.js'
import type { ReleaseSchemas } from './registry.js'
import { keyVersion } from './registry.js'
import type { MessageDef, SchemaStruct } from './types.js'
import { inRange } from './types.js'

export interface CoordinatorRecord {
  type: number
  keyDef: MessageDef
  key: SchemaStruct
  /** null for a tombstone */
  value: { version: number; def: MessageDef; data: SchemaStruct } | null
  /** the value version is outside the definition's validVersions (3.9/4.0 read it anyway, field ranges decide) */
  unknownVersion: boolean
}

/** Kafka's Deserializer.UnknownRecordTypeException: the one failure kafka-dump-log words differently */
export class UnknownRecordTypeError extends DecodeError {
  constructor(
    readonly recordType: number,
    position: number,
  ) {
    super('BAD_RECORD', `unknown record type ${recordType}`, position, { field: 'type' })
  }
}

export interface SerdeOptions {
  /** 4.1+ (KAFKA-18672): a value version outside validVersions is UnknownRecordVersionException */
  checkValueVersion: boolean
}

function readVersion(buf: Buffer, position: number, word: string): [number, ByteReader] {
  if (buf.length < 2)
    throw new SchemaReadError(
      `${word} is ${buf.length} bytes, too short for its version`,
      position,
      `Could not read version from ${word}'s buffer.`,
      'version',
    )
  const r = new ByteReader(buf, position)
  return [r.readInt16('version'), r]
}

function read(r: ByteReader, def: MessageDef, version: number, word: string) {
  try {
    return readMessage(r, def, version)
  } catch (e) {
    if (e instanceof SchemaReadError) {
      throw new SchemaReadError(
        `${word} ${def.name} v${version}: ${e.message}`,
        e.position,
        `Could not read record with version ${version} from ${word}'s buffer due to: ${e.kafkaMessage}.`,
        e.context.field,
      )
    }
    if (e instanceof DecodeError) {
      throw new SchemaReadError(
        `${word} ${def.name} v${version}: ${e.message}`,
        e.position,
        `Could not read record with version ${version} from ${word}'s buffer due to: ${e.message}.`,
        e.context.field,
      )
    }
    throw e
  }
}

/**
 * @param keyPosition / valuePosition absolute positions of the key and value, for findings
 * @throws UnknownRecordTypeError, SchemaReadError (kafkaMessage = Kafka's exception text)
 */
export function decodeCoordinatorRecord(
  schemas: ReleaseSchemas,
  key: Buffer,
  value: Buffer | null,
  opts: SerdeOptions,
  keyPosition = 0,
  valuePosition = 0,
): CoordinatorRecord {
  const [type, kr] = readVersion(key, keyPosition, 'key')
  const pair = schemas.coordinator.get(type)
  if (pair === undefined) throw new UnknownRecordTypeError(type, keyPosition)
  const [keyDef, valueDef] = pair
  const k = read(kr, keyDef, keyVersion(keyDef, type), 'key')
  if (value === null) return { type, keyDef, key: k, value: null, unknownVersion: false }
  const [version, vr] = readVersion(value, valuePosition, 'value')
  const unknownVersion = !inRange(valueDef.validVersions, version)
  if (opts.checkValueVersion && unknownVersion) {
    throw new SchemaReadError(
      `${valueDef.name} has no version ${version}`,
      valuePosition,
      `Found an unknown record version ${version} for ${type} type`,
      'version',
    )
  }
  return {
    type,
    keyDef,
    key: k,
    value: { version, def: valueDef, data: read(vr, valueDef, version, 'value') },
    unknownVersion,
  }
}
