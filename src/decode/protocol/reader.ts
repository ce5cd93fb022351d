// The one reader of Kafka's protocol-encoded messages (control records, __cluster_metadata,
// __consumer_offsets, __transaction_state, __share_group_state, __remote_log_metadata), driven by the
// generated definitions in decode/protocol/generated/. It follows Kafka's generated read() methods:
//   - a field is read when the version is in its `versions`; in `taggedVersions` it comes from the
//     tagged section that ends every struct of a flexible version (uvarint count, then tag, size, bytes;
//     unknown tags are skipped);
//   - flexible versions use compact lengths (uvarint N+1, 0 = null), others int16 (strings) / int32;
//   - a non-array struct field that is nullable carries a presence int8, or a uvarint when it is tagged.
// Every read is bounded by ByteReader, so a corrupt length cannot leave its record, and every error
// carries the absolute position. `kafkaMessage` is the exception text Kafka's own reader gives, which
// kafka-dump-log prints inside its "Error at offset" lines.
import { ByteReader } from '../../bytes/byte-reader.js'
import { DecodeError } from '../errors.js'
import type { FieldDef, MessageDef, SchemaStruct, SchemaValue } from './types.js'
import { inRange } from './types.js'

export class SchemaReadError extends DecodeError {
  constructor(
    message: string,
    position: number,
    readonly kafkaMessage: string,
    field?: string,
  ) {
    super('BAD_RECORD', message, position, field === undefined ? {} : { field })
  }
}

const ZERO_UUID = 'AAAAAAAAAAAAAAAAAAAAAA'

/** Kafka's Uuid.toString(): URL-safe base64 without padding */
function readUuid(r: ByteReader, field: string): string {
  return fixed(r, 16, field).toString('base64url')
}

/** room for a fixed-size read; Java's ByteBuffer throws BufferUnderflowException, whose message is null */
function room(r: ByteReader, n: number, field: string): ByteReader {
  if (r.remaining < n)
    throw new SchemaReadError(
      `${field}: needs ${n} bytes at position ${r.absolute}, only ${r.remaining} left`,
      r.absolute,
      'null',
      field,
    )
  return r
}

/** a fixed-size read of bytes (room() first) */
function fixed(r: ByteReader, n: number, field: string): Buffer {
  return room(r, n, field).readBytes(n, field)
}

/** ByteUtils.readUnsignedVarint: running out of bytes is a BufferUnderflowException (message null) */
function uvarint(r: ByteReader, field: string): number {
  if (r.remaining < 1) fixed(r, 1, field)
  return r.readUnsignedVarint(field)
}

function length(r: ByteReader, flexible: boolean, wide: boolean, field: string): number {
  if (flexible) {
    if (r.remaining < 1) fixed(r, 1, field)
    return r.readUnsignedVarint(field) - 1
  }
  return wide ? room(r, 4, field).readInt32(field) : room(r, 2, field).readInt16(field)
}

function nullField(r: ByteReader, fd: FieldDef, version: number, at: number): null {
  if (inRange(fd.nullable, version)) return null
  throw new SchemaReadError(
    `non-nullable field ${fd.name} was serialized as null at position ${at}`,
    at,
    `non-nullable field ${fd.name} was serialized as null`,
    fd.name,
  )
}

/** a length's bytes must be left in the record */
function sized(r: ByteReader, fd: FieldDef, n: number, what: string, at: number): ByteReader {
  if (n > r.remaining) {
    throw new SchemaReadError(
      `${fd.name}: ${what} of ${n} bytes at position ${at}, only ${r.remaining} left`,
      at,
      `Error reading byte array of ${n} byte(s): only ${r.remaining} byte(s) available`,
      fd.name,
    )
  }
  return r
}

function readScalar(r: ByteReader, fd: FieldDef, version: number, flexible: boolean): SchemaValue {
  const name = fd.name
  switch (fd.type) {
    // read in place: a Buffer view per field was a fifth of decoding 1.2 M __transaction_state records
    case 'int8':
      return room(r, 1, name).readInt8(name)
    case 'int16':
      return room(r, 2, name).readInt16(name)
    case 'uint16':
      return room(r, 2, name).readUint16(name)
    case 'int32':
      return room(r, 4, name).readInt32(name)
    case 'uint32':
      return room(r, 4, name).readUint32(name)
    case 'int64':
      return room(r, 8, name).readInt64(name)
    case 'float64': {
      const v = room(r, 8, name).buf.readDoubleBE(r.pos)
      r.pos += 8
      return v
    }
    case 'bool':
      return room(r, 1, name).readUint8(name) !== 0
    case 'uuid':
      return readUuid(r, name)
    case 'string': {
      const at = r.absolute
      const n = length(r, flexible, false, name)
      if (n < 0) return nullField(r, fd, version, at)
      // decoded in place (no Buffer view)
      const text = sized(r, fd, n, 'string', at).buf.toString('utf8', r.pos, r.pos + n)
      r.pos += n
      return text
    }
    case 'bytes':
    case 'records': {
      const at = r.absolute
      const n = length(r, flexible, true, name)
      if (n < 0) return nullField(r, fd, version, at)
      return sized(r, fd, n, 'byte array', at).readBytes(n, fd.name)
    }
    case 'struct': {
      if (inRange(fd.nullable, version)) {
        // generateStructReader: a tagged nullable struct's presence is a uvarint (<= 0 null; 1 written), an untagged one an int8 (< 0 null)
        if (inRange(fd.tagged, version) ? r.readUnsignedVarint(name) <= 0 : room(r, 1, name).readInt8(name) < 0)
          return null
      }
      return readStruct(r, fd.fields ?? [], version, flexible)
    }
    default:
      return fd.type satisfies never
  }
}

function readField(r: ByteReader, fd: FieldDef, version: number, flexible: boolean): SchemaValue {
  if (fd.array !== true) return readScalar(r, fd, version, flexible)
  const at = r.absolute
  const n = length(r, flexible, true, fd.name)
  if (n < 0) return nullField(r, fd, version, at)
  // every element takes at least one byte: a count beyond that is corrupt, not a huge allocation
  if (n > r.remaining) {
    throw new SchemaReadError(
      `${fd.name}: ${n} elements in ${r.remaining} bytes at position ${at}`,
      at,
      `Tried to allocate a collection of size ${n}, but there are only ${r.remaining} bytes remaining.`,
      fd.name,
    )
  }
  // an element is never null itself (nullableVersions is about the array); a struct element has no presence byte
  const { nullable: _n, ...rest } = fd
  const element: FieldDef = { ...rest, array: false }
  const out: SchemaValue[] = []
  for (let i = 0; i < n; i++) out.push(readScalar(r, element, version, flexible))
  return out
}

/** The default Kafka gives an absent field (FieldSpec.defaultString), as a decoded value. */
export function defaultValue(fd: FieldDef): SchemaValue {
  const d = fd.default
  if (d === 'null') return null
  if (fd.array === true) return []
  switch (fd.type) {
    case 'int64':
      return BigInt(d ?? 0)
    case 'int8':
    case 'int16':
    case 'uint16':
    case 'int32':
    case 'uint32':
    case 'float64':
      return Number(d ?? 0)
    case 'bool':
      return d === true || d === 'true'
    case 'string':
      return typeof d === 'string' ? d : ''
    case 'uuid':
      return ZERO_UUID
    case 'bytes':
    case 'records':
      return Buffer.alloc(0)
    // FieldSpec.fieldDefault: `new Struct()`, each field at its own default (a JSON null default is no default)
    case 'struct':
      return Object.fromEntries((fd.fields ?? []).map((f) => [f.name, defaultValue(f)]))
    default:
      return fd.type satisfies never
  }
}

/**
 * Structs read with unknown tagged fields: their generated equals() compares the raw tagged fields too
 * (MessageUtil.compareRawTaggedFields), so such a struct never equals its default-built one.
 */
const withUnknownTags = new WeakSet<SchemaStruct>()

/**
 * JsonConverter writes a tagged field only when it differs from its default (generateNonDefaultValueCheck):
 * a struct without a "null" default is skipped when it equals `new Struct()` (ClassicMemberMetadata
 * {sessionTimeoutMs: 0, supportedProtocols: []}, 3.9.1-4.4.0 alike) and printed when null.
 */
function isDefault(fd: FieldDef, v: SchemaValue): boolean {
  // defaultValue is null exactly for a "null" default; the value itself is built only for scalars below
  // (a struct's would be a whole default-built object, only to be compared field by field here)
  const nullDefault = fd.default === 'null'
  if (v === null || nullDefault) return v === null && nullDefault
  if (Array.isArray(v)) return v.length === 0
  if (Buffer.isBuffer(v)) return v.length === 0
  if (typeof v === 'object') {
    // a field outside the struct's version was not read and keeps its default
    return !withUnknownTags.has(v) && (fd.fields ?? []).every((f) => !(f.name in v) || isDefault(f, v[f.name]!))
  }
  return v === defaultValue(fd)
}

function readStruct(r: ByteReader, fields: readonly FieldDef[], version: number, flexible: boolean): SchemaStruct {
  // fields are written in declaration order as they are read (the generated JsonConverter order);
  // only when a tagged field turns up is the object rebuilt to put it in its declared place
  const out: SchemaStruct = {}
  let byTag: Map<number, FieldDef> | undefined
  for (const fd of fields) {
    if (!inRange(fd.versions, version)) continue
    if (flexible && fd.tag !== undefined && inRange(fd.tagged, version)) {
      ;(byTag ??= new Map()).set(fd.tag, fd)
      continue
    }
    out[fd.name] = readField(r, fd, version, flexible)
  }
  if (!flexible) return out
  const count = uvarint(r, 'taggedFields')
  if (count === 0) return out
  // no check of the count against the bytes left: Kafka has none, it fails on the first tag that is not
  // there (each one takes at least two bytes, so a huge count ends at the end of the value)
  let tagged: Map<string, SchemaValue> | undefined
  let unknownTags = false
  for (let i = 0; i < count; i++) {
    const tag = uvarint(r, 'tag')
    const size = uvarint(r, 'tagSize')
    if (size > r.remaining) {
      // readUnknownTaggedField -> readArray(size) (a known tag would fail inside its field: same text for the bytes)
      throw new SchemaReadError(
        `tag ${tag}: ${size} bytes at position ${r.absolute}, only ${r.remaining} left`,
        r.absolute,
        `Error reading byte array of ${size} byte(s): only ${r.remaining} byte(s) available`,
        `tag ${tag}`,
      )
    }
    const body = r.child(size, `tag ${tag}`)
    const fd = byTag?.get(tag)
    if (fd === undefined) {
      unknownTags = true
      continue
    } // kept opaque by Kafka and never printed
    const v = readField(body, fd, version, flexible)
    if (body.remaining !== 0)
      throw new SchemaReadError(
        `tagged field ${fd.name} has ${body.remaining} bytes left over at position ${body.absolute}`,
        body.absolute,
        'null',
        fd.name,
      )
    // a tagged struct sent as null (presence 0) is not its default: printed as `null` by every release's
    // kafka-dump-log (ClassicMemberMetadata of KIP-848 members, fixtures/broker-4.4/groups, 3.9.1-4.4.0 alike)
    if (!isDefault(fd, v)) (tagged ??= new Map()).set(fd.name, v)
  }
  let result = out
  if (tagged !== undefined) {
    result = {}
    for (const fd of fields) {
      const v = fd.name in out ? out[fd.name] : tagged.get(fd.name) // not ??: a read value may be null
      if (v !== undefined) result[fd.name] = v
    }
  }
  if (unknownTags) withUnknownTags.add(result)
  return result
}

/**
 * Decode `def` at `version` from `r`; the caller checks the version against `def.validVersions`
 * (the messages differ in what Kafka says about an unknown one).
 * @throws SchemaReadError / DecodeError with the absolute position of the fault
 */
export function readMessage(r: ByteReader, def: MessageDef, version: number): SchemaStruct {
  return readStruct(r, def.fields, version, inRange(def.flexibleVersions, version))
}

/** Decode a whole buffer; bytes left over are ignored, as Kafka's generated read() does. */
export function decodeMessage(buf: Buffer, def: MessageDef, version: number, position = 0): SchemaStruct {
  return readMessage(new ByteReader(buf, position), def, version)
}
