// Frame-encoded metadata records (__cluster_metadata values; __remote_log_metadata values), as Kafka's
// AbstractApiMessageSerde reads them: uvarint frameVersion (1) | uvarint apiKey | uvarint version |
// message (flexible encoding), and nothing after it. Error texts are Kafka's (MetadataParseException).
import { ByteReader } from '../../bytes/byte-reader.js'
import { DecodeError } from '../errors.js'
import { readMessage, SchemaReadError } from './reader.js'
import type { ReleaseSchemas } from './registry.js'
import type { MessageDef, SchemaStruct } from './types.js'
import { inRange } from './types.js'

export interface FramedRecord {
  apiKey: number
  version: number
  def: MessageDef
  data: SchemaStruct
  /** outside the definition's validVersions and read anyway (no nested struct in it: see decodeFramedRecord) */
  unknownVersion: boolean
}

/** `unknownType(apiKey)` gives the exception text of the release's apiMessageFor() for an unknown apiKey */
export function decodeFramedRecord(
  schemas: ReleaseSchemas,
  value: Buffer,
  position: number,
  unknownType: (apiKey: number) => string,
): FramedRecord {
  const r = new ByteReader(value, position)
  const uvarint = (what: string): number => {
    try {
      return r.readUnsignedVarint(what)
    } catch (e) {
      if (e instanceof DecodeError)
        throw new SchemaReadError(e.message, e.position, `Error while reading ${what}`, what)
      throw e
    }
  }
  const frameVersion = uvarint('frame version')
  if (frameVersion === 0) {
    throw new SchemaReadError(
      'frame version 0',
      position,
      'Could not deserialize metadata record with frame version 0. Note that upgrades from the preview release of KRaft in 2.8 to newer versions are not supported.',
      'frameVersion',
    )
  }
  if (frameVersion !== 1) {
    throw new SchemaReadError(
      `unknown frame version ${frameVersion}`,
      position,
      `Could not deserialize metadata record due to unknown frame version ${frameVersion}(only frame version 1 is supported)`,
      'frameVersion',
    )
  }
  const apiKey = uvarint('type')
  const version = uvarint('version')
  const def = schemas.byApiKey.get(apiKey)
  if (def === undefined)
    throw new SchemaReadError(`unknown record type ${apiKey}`, position, unknownType(apiKey), 'type')
  // Outside validVersions the top-level read() reads on with the fields it knows (3.9.1 prints
  // BROKER_REGISTRATION_CHANGE_RECORD v3 of a 4.4 broker), but the read() of a nested struct class throws
  // UnsupportedVersionException "Can't read version V of X", which the serde wraps: 3.9.1-4.2.2 print
  // "Failed to deserialize record with type 0" for REGISTER_BROKER_RECORD v4 (fixtures/broker-4.4/kraft; rule
  // inferred from those outputs and MessageDataGenerator.generateClassReader)
  if (
    !inRange(def.validVersions, version) &&
    def.fields.some((f) => f.type === 'struct' && inRange(f.versions, version))
  ) {
    throw new SchemaReadError(
      `${def.name} version ${version} is not defined in this release (Can't read version ${version} of ${def.name})`,
      position,
      `Failed to deserialize record with type ${apiKey}`,
      'version',
    )
  }
  let data: SchemaStruct
  try {
    data = readMessage(r, def, version)
  } catch (e) {
    if (e instanceof DecodeError) {
      throw new SchemaReadError(
        `${def.name} v${version}: ${e.message}`,
        e.position,
        `Failed to deserialize record with type ${apiKey}`,
        e.context.field,
      )
    }
    throw e
  }
  if (r.remaining > 0) {
    throw new SchemaReadError(
      `${r.remaining} bytes after ${def.name}`,
      r.absolute,
      `Found ${r.remaining} byte(s) of garbage after ${apiKey}`,
    )
  }
  return { apiKey, version, def, data, unknownVersion: !inRange(def.validVersions, version) }
}
