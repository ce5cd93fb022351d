// __cluster_metadata record values (MetadataRecordSerde): frame-encoded messages whose definitions are
// generated from kafka-metadata's common/metadata/*.json (decode/protocol/generated/cluster-metadata-messages.ts).
import { decodeFramedRecord } from '../protocol/frame-serde.js'
import { schemasFor } from '../protocol/registry.js'
import type { KafkaRelease, MessageDef, SchemaStruct, SchemaValue } from '../protocol/types.js'
import * as table from '../protocol/generated/cluster-metadata-messages.js'

export type MetadataValue = SchemaValue
export interface MetadataRecord {
  /** MetadataRecordType name, e.g. TOPIC_RECORD */
  type: string
  apiKey: number
  version: number
  /** fields keyed by their camelCase schema names, in declaration order */
  data: SchemaStruct
  /** the definition it was read with (the formatter needs its float64 fields) */
  def: MessageDef
  /** the version is outside the release's validVersions (read anyway, as Kafka does) */
  unknownVersion: boolean
}

/** MetadataRecordType's enum constant: the message name in upper snake case (TopicRecord -> TOPIC_RECORD) */
export function metadataTypeName(messageName: string): string {
  return messageName.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()
}

/**
 * Decode one record value as Kafka `release` reads it.
 * @param base absolute position of value[0], for error positions
 * @throws SchemaReadError (kafkaMessage = the text kafka-dump-log prints after "skipping.")
 */
export function decodeMetadataRecord(value: Buffer, base = 0, release: KafkaRelease = '4.4'): MetadataRecord {
  const rec = decodeFramedRecord(
    schemasFor(table, release),
    value,
    base,
    (apiKey) => `org.apache.kafka.common.errors.UnsupportedVersionException: Unknown metadata id ${apiKey}`,
  )
  return {
    type: metadataTypeName(rec.def.name),
    apiKey: rec.apiKey,
    version: rec.version,
    data: rec.data,
    def: rec.def,
    unknownVersion: rec.unknownVersion,
  }
}
