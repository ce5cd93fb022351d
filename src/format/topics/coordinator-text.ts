// The JSON key/payload text of Kafka's CoordinatorRecordMessageParser (4.1+, and the hand-written
// 3.9/4.0 parsers of __consumer_offsets and __share_group_state, which print the same shape):
//   key     {"type":"<record type>","data":<key JSON>}
//   payload {"version":"<value version>","data":<value JSON>}, or <DELETE> for a tombstone
//   unknown type: key "Unknown record type N at offset O, skipping."
//   anything else: key "Error at offset O, skipping. <exception message>"
import { DecodeError } from '../../decode/errors.js'
import { UnknownRecordTypeError } from '../../decode/protocol/coordinator-serde.js'
import type { CoordinatorRecord } from '../../decode/protocol/coordinator-serde.js'
import { SchemaReadError } from '../../decode/protocol/reader.js'
import type { KafkaRelease, SchemaStruct } from '../../decode/protocol/types.js'
import type { FormattedRecord } from './formatted-record.js'
import { unknownVersion } from './formatted-record.js'
import { kafkaJsonText, schemaJsonValue } from './kafka-json.js'

export interface CoordinatorTextVariant {
  release: KafkaRelease
  /** the record types the release's parser prints; others are "Unknown record type" */
  knows: (type: number) => boolean
  /** the payload object's first field: "version" (4.0 share-group-state parser said "type") */
  valueVersionField: string
  /** optional rewrite of the value JSON (4.4 transactionStatus names) */
  valueData?: (data: SchemaStruct) => SchemaStruct
}

export function formatCoordinatorRecord(
  decode: () => CoordinatorRecord,
  offset: bigint,
  variant: CoordinatorTextVariant,
  keyPosition = -1,
): FormattedRecord {
  try {
    const rec = decode()
    if (!variant.knows(rec.type)) return unknownType(rec.type, offset, keyPosition)
    const keyText = `{"type":"${rec.type}","data":${kafkaJsonText(rec.key, rec.keyDef.fields)}}`
    const keyJson = { type: String(rec.type), data: schemaJsonValue(rec.key) }
    if (rec.value === null) return { key: keyText, keyJson, payload: '<DELETE>', payloadJson: null }
    const data = variant.valueData?.(rec.value.data) ?? rec.value.data
    const payload = `{"${variant.valueVersionField}":"${rec.value.version}","data":${kafkaJsonText(data, rec.value.def.fields)}}`
    const out: FormattedRecord = {
      key: keyText,
      keyJson,
      payload,
      payloadJson: { [variant.valueVersionField]: String(rec.value.version), data: schemaJsonValue(data) },
    }
    if (rec.unknownVersion)
      out.finding = unknownVersion(rec.value.def.name, rec.value.version, variant.release, keyPosition)
    return out
  } catch (e) {
    if (e instanceof UnknownRecordTypeError) return unknownType(e.recordType, offset, e.position)
    if (e instanceof DecodeError) {
      const text = e instanceof SchemaReadError ? e.kafkaMessage : e.message
      const code = /unknown record version/i.test(text) ? 'UNKNOWN_RECORD_VERSION' : 'BAD_INTERNAL_RECORD'
      return {
        key: `Error at offset ${offset}, skipping. ${text}`,
        finding: { code, message: e.message, position: e.position },
      }
    }
    throw e
  }
}

export function unknownType(type: number, offset: bigint, position: number): FormattedRecord {
  return {
    key: `Unknown record type ${type} at offset ${offset}, skipping.`,
    finding: {
      code: 'UNKNOWN_RECORD_TYPE',
      message: `record type ${type} is not defined in this Kafka release`,
      position,
    },
  }
}
