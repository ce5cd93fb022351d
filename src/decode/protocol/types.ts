// The shape of Kafka's JSON message definitions after scripts/gen-schemas.mjs normalised them
// (generator/src/main/java/org/apache/kafka/message/{MessageSpec,FieldSpec}.java): version strings
// become [lo, hi] ranges (hi 32767 for "N+"), names become the camelCase JSON keys, and struct
// types (inline or commonStructs) are resolved into `fields`.

export type VersionRange = readonly [number, number]

export type FieldType =
  | 'int8'
  | 'int16'
  | 'uint16'
  | 'int32'
  | 'uint32'
  | 'int64'
  | 'float64'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'records'
  | 'uuid'
  | 'struct'

export interface FieldDef {
  /** FieldSpec.camelCaseName(): the key Kafka's generated JsonConverters write */
  readonly name: string
  readonly type: FieldType
  /** null: the field exists in no version (Kafka keeps such fields for documentation) */
  readonly versions: VersionRange | null
  readonly array?: boolean
  readonly nullable?: VersionRange
  readonly tagged?: VersionRange
  readonly tag?: number
  readonly default?: string | number | boolean
  readonly fields?: readonly FieldDef[]
}

export interface MessageDef {
  readonly name: string
  /** "coordinator-key" | "coordinator-value" | "metadata" | "data" */
  readonly kind: string
  readonly apiKey?: number
  readonly validVersions: VersionRange | null
  readonly flexibleVersions: VersionRange | null
  readonly fields: readonly FieldDef[]
}

/** A decoded message: plain values, int64 as bigint and bytes as Buffer until format/ renders them. */
export type SchemaValue = null | boolean | number | bigint | string | Buffer | SchemaValue[] | SchemaStruct
export interface SchemaStruct {
  [field: string]: SchemaValue
}

export const inRange = (r: VersionRange | null | undefined, v: number): boolean => r != null && v >= r[0] && v <= r[1]

/** the Kafka releases whose text and schemas tsdump reproduces */
export const KAFKA_RELEASES = ['3.9', '4.0', '4.1', '4.2', '4.3', '4.4'] as const
export type KafkaRelease = (typeof KAFKA_RELEASES)[number]

/** release order: '4.1' >= '4.0' (labels are major.minor with one-digit minors) */
export const atLeast = (release: KafkaRelease, than: KafkaRelease): boolean =>
  KAFKA_RELEASES.indexOf(release) >= KAFKA_RELEASES.indexOf(than)
