// Jackson's compact JSON (ObjectNode.toString) of decoded schema values, as kafka-dump-log prints them:
// int64 as exact number literals, bytes as base64, float64 as Java's Double.toString, keys in the order
// the generated JsonConverters write them (which is the order the reader produced).
// Also the `--json` rendering: the same values as JSON values, int64 via int64() (number when exact).
import type { FieldDef, SchemaValue } from '../../decode/protocol/types.js'
import { int64 } from '../json-int64.js'

/** java.lang.Double.toString of JDK 19+ (shortest digits, like JavaScript); JDK 17 can print more digits for subnormals (JDK-4511638) */
export function javaDouble(d: number): string {
  if (Number.isNaN(d)) return 'NaN'
  if (!Number.isFinite(d)) return d > 0 ? 'Infinity' : '-Infinity'
  if (d === 0) return Object.is(d, -0) ? '-0.0' : '0.0'
  // Double.MIN_VALUE: Java's digit generation gives two digits where JavaScript's shortest form has one
  if (Math.abs(d) === Number.MIN_VALUE) return d > 0 ? '4.9E-324' : '-4.9E-324'
  const a = Math.abs(d)
  if (a >= 1e-3 && a < 1e7) {
    const s = String(d)
    return s.includes('.') ? s : `${s}.0`
  }
  const [m, e] = d.toExponential().split('e') as [string, string]
  return `${m.includes('.') ? m : `${m}.0`}E${e.startsWith('+') ? e.slice(1) : e}`
}

const fieldMaps = new WeakMap<readonly FieldDef[], Map<string, FieldDef>>()
function fieldMap(fields: readonly FieldDef[] | undefined): Map<string, FieldDef> | undefined {
  if (fields === undefined) return undefined
  let m = fieldMaps.get(fields)
  if (m === undefined) {
    m = new Map(fields.map((f) => [f.name, f]))
    fieldMaps.set(fields, m)
  }
  return m
}

/** @param fields the definition of `v` when it is a struct, so float64 fields print as Java doubles */
export function kafkaJsonText(v: SchemaValue, fields?: readonly FieldDef[], isDouble = false): string {
  if (v === null) return 'null'
  if (typeof v === 'bigint') return v.toString()
  // Jackson writes NaN and the infinities as strings (WRITE_NAN_AS_STRINGS is on by default): "-Infinity"
  if (typeof v === 'number')
    return isDouble ? (Number.isFinite(v) ? javaDouble(v) : JSON.stringify(javaDouble(v))) : String(v)
  if (typeof v === 'boolean') return v ? 'true' : 'false'
  if (typeof v === 'string') return JSON.stringify(v)
  if (Buffer.isBuffer(v)) return JSON.stringify(v.toString('base64'))
  if (Array.isArray(v)) return `[${v.map((x) => kafkaJsonText(x, fields, isDouble)).join(',')}]`
  const byName = fieldMap(fields)
  return `{${Object.entries(v)
    .map(([k, x]) => {
      const fd = byName?.get(k)
      return `${JSON.stringify(k)}:${kafkaJsonText(x, fd?.fields, fd?.type === 'float64')}`
    })
    .join(',')}}`
}

export type JsonValue = null | boolean | number | string | JsonValue[] | { [k: string]: JsonValue }

/** `--json`: the decoded value as a JSON value (int64 number when exact, else string; bytes base64) */
export function schemaJsonValue(v: SchemaValue): JsonValue {
  // JSON has no NaN or infinities: Jackson's strings for them (a JSON number would turn into null)
  if (typeof v === 'number' && !Number.isFinite(v)) return javaDouble(v)
  if (v === null || typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string') return v
  if (typeof v === 'bigint') return int64(v)
  if (Buffer.isBuffer(v)) return v.toString('base64')
  if (Array.isArray(v)) return v.map(schemaJsonValue)
  const out: { [k: string]: JsonValue } = {}
  for (const [k, x] of Object.entries(v)) out[k] = schemaJsonValue(x)
  return out
}
