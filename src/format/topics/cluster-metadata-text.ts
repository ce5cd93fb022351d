// kafka-dump-log `--cluster-metadata-decoder` text: a payload only,
// {"type":"<MetadataRecordType>","version":<v>,"data":<json>}, or `Error at <offset>, skipping. <message>`
// (no word "offset", unlike the coordinator parsers). The text is the same in 3.9-4.4; what a release
// can decode follows its definitions (e.g. ClearElrRecord 28 and UnregisterControllerRecord 29 are
// new in 4.4, REGISTER_BROKER_RECORD v4 too), so an older release reports newer records as errors.
import { DecodeError } from '../../decode/errors.js'
import { SchemaReadError } from '../../decode/protocol/reader.js'
import type { KafkaRelease } from '../../decode/protocol/types.js'
import { decodeMetadataRecord } from '../../decode/topics/cluster-metadata.js'
import type { FormattedRecord } from './formatted-record.js'
import { unknownVersion } from './formatted-record.js'
import { kafkaJsonText, schemaJsonValue } from './kafka-json.js'

export function formatClusterMetadataRecord(
  value: Buffer | null,
  offset: bigint,
  release: KafkaRelease = '3.9',
  position = -1,
): FormattedRecord {
  // Kafka fails on a null value with a NullPointerException whose text depends on the JVM; tsdump says what happened
  if (value === null)
    return {
      payload: `Error at ${offset}, skipping. the record has no value`,
      finding: { code: 'BAD_INTERNAL_RECORD', message: 'the record has no value', position },
    }
  try {
    const r = decodeMetadataRecord(value, position, release)
    const out: FormattedRecord = {
      payload: `{"type":${JSON.stringify(r.type)},"version":${r.version},"data":${kafkaJsonText(r.data, r.def.fields)}}`,
      payloadJson: { type: r.type, version: r.version, data: schemaJsonValue(r.data) },
    }
    if (r.unknownVersion) out.finding = unknownVersion(r.def.name, r.version, release, position)
    return out
  } catch (e) {
    if (e instanceof DecodeError) {
      const text = e instanceof SchemaReadError ? e.kafkaMessage : e.message
      const code =
        e.context.field === 'type'
          ? 'UNKNOWN_RECORD_TYPE'
          : e.context.field === 'version'
            ? 'UNKNOWN_RECORD_VERSION'
            : 'BAD_INTERNAL_RECORD'
      return {
        payload: `Error at ${offset}, skipping. ${text}`,
        finding: { code, message: e.message, position: e.position },
      }
    }
    throw e
  }
}
