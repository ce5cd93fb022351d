// Test-only encoder and fast-check arbitraries driven by the same generated definitions as the reader:
// what Kafka's generated write() would put on the wire for a value (classic or flexible encoding,
// tagged fields sorted by tag), and random values of every field type a definition can have.
import * as fc from 'fast-check'
import { defaultValue } from '../../../src/decode/protocol/reader.js'
import type { FieldDef, MessageDef, SchemaStruct, SchemaValue } from '../../../src/decode/protocol/types.js'
import { inRange } from '../../../src/decode/protocol/types.js'

export function uvarint(n: number): Buffer {
  const out: number[] = []
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80)
    n = Math.floor(n / 128)
  }
  out.push(n)
  return Buffer.from(out)
}

function int(bytes: number, write: (b: Buffer) => void): Buffer {
  const b = Buffer.alloc(bytes)
  write(b)
  return b
}

function len(n: number, flexible: boolean, wide: boolean): Buffer {
  if (flexible) return uvarint(n + 1)
  return wide ? int(4, (b) => b.writeInt32BE(n)) : int(2, (b) => b.writeInt16BE(n))
}

function encodeScalar(fd: FieldDef, v: SchemaValue, version: number, flexible: boolean): Buffer {
  switch (fd.type) {
    case 'int8':
      return int(1, (b) => b.writeInt8(v as number))
    case 'int16':
      return int(2, (b) => b.writeInt16BE(v as number))
    case 'uint16':
      return int(2, (b) => b.writeUInt16BE(v as number))
    case 'int32':
      return int(4, (b) => b.writeInt32BE(v as number))
    case 'uint32':
      return int(4, (b) => b.writeUInt32BE(v as number))
    case 'int64':
      return int(8, (b) => b.writeBigInt64BE(v as bigint))
    case 'float64':
      return int(8, (b) => b.writeDoubleBE(v as number))
    case 'bool':
      return Buffer.from([v === true ? 1 : 0])
    case 'uuid':
      return Buffer.from(v as string, 'base64url')
    case 'string': {
      if (v === null) return len(-1, flexible, false)
      const b = Buffer.from(v as string, 'utf8')
      return Buffer.concat([len(b.length, flexible, false), b])
    }
    case 'bytes':
    case 'records': {
      if (v === null) return len(-1, flexible, true)
      return Buffer.concat([len((v as Buffer).length, flexible, true), v as Buffer])
    }
    case 'struct': {
      if (!inRange(fd.nullable, version)) return encodeStruct(fd.fields ?? [], v as SchemaStruct, version, flexible)
      // a nullable struct carries a presence int8 (-1 null, 1 present); a tagged one a uvarint (0 null, 1 present),
      // as MessageDataGenerator writes and reads them
      const tagged = flexible && inRange(fd.tagged, version)
      if (v === null) return Buffer.from([tagged ? 0 : 0xff])
      return Buffer.concat([Buffer.from([1]), encodeStruct(fd.fields ?? [], v as SchemaStruct, version, flexible)])
    }
    default:
      return fd.type satisfies never
  }
}

function encodeField(fd: FieldDef, v: SchemaValue, version: number, flexible: boolean): Buffer {
  if (fd.array !== true) return encodeScalar(fd, v, version, flexible)
  if (v === null) return len(-1, flexible, true)
  const { nullable: _n, ...rest } = fd
  const element: FieldDef = { ...rest, array: false }
  return Buffer.concat([
    len((v as SchemaValue[]).length, flexible, true),
    ...(v as SchemaValue[]).map((x) => encodeScalar(element, x, version, flexible)),
  ])
}

const isTagged = (fd: FieldDef, version: number, flexible: boolean): boolean =>
  flexible && inRange(fd.tagged, version) && fd.tag !== undefined

export function encodeStruct(fields: readonly FieldDef[], v: SchemaStruct, version: number, flexible: boolean): Buffer {
  const parts: Buffer[] = []
  const tagged: Array<[number, Buffer]> = []
  for (const fd of fields) {
    if (!inRange(fd.versions, version)) continue
    if (isTagged(fd, version, flexible)) {
      if (v[fd.name] !== undefined) tagged.push([fd.tag!, encodeField(fd, v[fd.name]!, version, flexible)])
      continue
    }
    const x = v[fd.name]
    parts.push(encodeField(fd, x !== undefined ? x : defaultValue(fd), version, flexible))
  }
  if (flexible) {
    tagged.sort((a, b) => a[0] - b[0])
    parts.push(uvarint(tagged.length), ...tagged.flatMap(([t, b]) => [uvarint(t), uvarint(b.length), b]))
  }
  return Buffer.concat(parts)
}

export function encodeMessage(def: MessageDef, version: number, v: SchemaStruct): Buffer {
  return encodeStruct(def.fields, v, version, inRange(def.flexibleVersions, version))
}

// ---- arbitraries ----

const uuid = fc.uint8Array({ minLength: 16, maxLength: 16 }).map((b) => Buffer.from(b).toString('base64url'))

function scalarArb(fd: FieldDef, version: number, depth: number): fc.Arbitrary<SchemaValue> {
  switch (fd.type) {
    case 'int8':
      return fc.integer({ min: -128, max: 127 })
    case 'int16':
      return fc.integer({ min: -32768, max: 32767 })
    case 'uint16':
      return fc.integer({ min: 0, max: 65535 })
    case 'int32':
      return fc.integer()
    case 'uint32':
      return fc.integer({ min: 0, max: 0xffffffff })
    case 'int64':
      return fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
    case 'float64':
      return fc.double({ noNaN: true })
    case 'bool':
      return fc.boolean()
    case 'uuid':
      return uuid
    case 'string':
      return fc.string({ maxLength: 12 })
    case 'bytes':
    case 'records':
      return fc.uint8Array({ maxLength: 12 }).map((b) => Buffer.from(b))
    case 'struct':
      return structArb(fd.fields ?? [], version, depth + 1)
    default:
      return fd.type satisfies never
  }
}

function fieldArb(fd: FieldDef, version: number, depth: number): fc.Arbitrary<SchemaValue> {
  const { nullable: _n, ...rest } = fd
  const base =
    fd.array === true
      ? fc.array(scalarArb({ ...rest, array: false }, version, depth), { maxLength: depth > 2 ? 0 : 3 })
      : scalarArb(fd, version, depth)
  return inRange(fd.nullable, version) ? fc.option(base, { nil: null }) : base
}

export function structArb(
  fields: readonly FieldDef[],
  version: number,
  depth = 0,
  flexible = true,
): fc.Arbitrary<SchemaStruct> {
  const shape: Record<string, fc.Arbitrary<SchemaValue | undefined>> = {}
  for (const fd of fields) {
    if (!inRange(fd.versions, version)) continue
    const arb = fieldArb(fd, version, depth)
    // a tagged field is absent or non-default: Kafka's JsonConverter (and the reader) omit defaults
    shape[fd.name] = isTagged(fd, version, flexible)
      ? fc.option(
          arb.filter((x) => !sameAsDefault(fd, x)),
          { nil: undefined },
        )
      : arb
  }
  return fc.record(shape).map((r) => {
    const out: SchemaStruct = {}
    for (const fd of fields) if (r[fd.name] !== undefined) out[fd.name] = r[fd.name]!
    return out
  })
}

function sameAsDefault(fd: FieldDef, v: SchemaValue): boolean {
  const d = defaultValue(fd)
  if (v === null || d === null) return v === d
  if (Array.isArray(v) || Buffer.isBuffer(v)) return v.length === 0
  // a struct equal to `new Struct()` (every field at its default) is skipped by the JsonConverter
  if (typeof v === 'object')
    return (fd.fields ?? []).every((f) => v[f.name] === undefined || sameAsDefault(f, v[f.name]!))
  return v === d
}

export function messageArb(def: MessageDef, version: number): fc.Arbitrary<SchemaStruct> {
  return structArb(def.fields, version, 0, inRange(def.flexibleVersions, version))
}
