// A tiny RecordBatch v2 encoder for tests (Kafka DefaultRecordBatch / DefaultRecord), with knobs for
// the damage tsdump must survive: bad CRC, bad batchLength, bad recordsCount, raw record bytes,
// truncation and a codec attribute with a caller-supplied (possibly corrupt) compressed stream.
//
//   baseOffset int64 | batchLength int32 | partitionLeaderEpoch int32 | magic int8 | crc uint32 |
//   attributes int16 | lastOffsetDelta int32 | baseTimestamp int64 | maxTimestamp int64 |
//   producerId int64 | producerEpoch int16 | baseSequence int32 | recordsCount int32 | records
//
// Deliberately independent of src/decode (only the CRC-32C primitive is shared), so that a decoder bug
// is not mirrored by the encoder.
import { gzipSync } from 'node:zlib'
import { crc32c } from '../../src/bytes/crc32c.js'

export type Bytes = Buffer | string | null

export interface HeaderSpec {
  key: string | Buffer
  value: Bytes
}

export interface RecordSpec {
  key?: Bytes
  value?: Bytes
  headers?: HeaderSpec[]
  /** default: the record's index */
  offsetDelta?: number
  timestampDelta?: bigint | number
  attributes?: number
  /** the whole encoded record (length prefix included) instead of encoding the fields above */
  raw?: Buffer
}

export type MarkerType = 'ABORT' | 'COMMIT' | number

export interface BatchSpec {
  baseOffset?: bigint | number
  partitionLeaderEpoch?: number
  magic?: number
  /** codec id 0-7 (bits 0-2 of attributes) */
  codec?: number
  logAppendTime?: boolean
  transactional?: boolean
  /** extra attribute bits ORed in as-is */
  attributeBits?: number
  baseTimestamp?: bigint | number
  maxTimestamp?: bigint | number
  producerId?: bigint | number
  producerEpoch?: number
  baseSequence?: number
  records?: RecordSpec[]
  /** a control batch with one COMMIT/ABORT (or other type) record; sets the control and transactional bits */
  marker?: { type: MarkerType; coordinatorEpoch?: number; keyVersion?: number }
  // ---- damage knobs ----
  /** override lastOffsetDelta (default: records - 1) */
  lastOffsetDelta?: number
  /** override recordsCount (default: records.length) */
  recordsCount?: number
  /** override the batchLength field (the bytes written stay the same) */
  batchLength?: number
  /** 'bad': the correct CRC xor 1; a number: written as is */
  crc?: 'bad' | number
  /** the record section as written, replacing the encoded records (before compression, if compress is not set) */
  recordBytes?: Buffer
  /** compressor for the record section; default gzip for codec 1, identity otherwise */
  compress?: (records: Buffer) => Buffer
}

// ---- varints (protobuf base-128, zigzag), as Kafka ByteUtils.writeVarint / writeVarlong ----

export function uvarint(n: bigint): Buffer {
  const out: number[] = []
  let v = n
  do {
    let b = Number(v & 0x7fn)
    v >>= 7n
    if (v !== 0n) b |= 0x80
    out.push(b)
  } while (v !== 0n)
  return Buffer.from(out)
}

export function varint(n: number): Buffer {
  return uvarint(BigInt(((n << 1) ^ (n >> 31)) >>> 0))
}

export function varlong(n: bigint | number): Buffer {
  const v = BigInt.asIntN(64, BigInt(n))
  return uvarint(BigInt.asUintN(64, (v << 1n) ^ (v >> 63n)))
}

/** a varint of `bytes` bytes that never terminates (every byte has the continuation bit) */
export function endlessVarint(bytes: number): Buffer {
  return Buffer.alloc(bytes, 0xff)
}

function toBuf(b: Bytes | undefined): Buffer | null {
  if (b === undefined || b === null) return null
  return typeof b === 'string' ? Buffer.from(b, 'utf8') : b
}

function lengthPrefixed(b: Buffer | null): Buffer {
  return b === null ? varint(-1) : Buffer.concat([varint(b.length), b])
}

/** The body of one record (everything after its length varint). */
export function encodeRecordBody(r: RecordSpec, index: number): Buffer {
  const headers = r.headers ?? []
  return Buffer.concat([
    Buffer.from([r.attributes ?? 0]),
    varlong(r.timestampDelta ?? 0),
    varint(r.offsetDelta ?? index),
    lengthPrefixed(toBuf(r.key)),
    lengthPrefixed(toBuf(r.value)),
    varint(headers.length),
    ...headers.flatMap((h) => [lengthPrefixed(toBuf(h.key)), lengthPrefixed(toBuf(h.value))]),
  ])
}

export function encodeRecord(r: RecordSpec, index: number): Buffer {
  if (r.raw !== undefined) return r.raw
  const body = encodeRecordBody(r, index)
  return Buffer.concat([varint(body.length), body])
}

const CONTROL_TYPE: Record<string, number> = { ABORT: 0, COMMIT: 1 }

function markerRecord(m: NonNullable<BatchSpec['marker']>): RecordSpec {
  const type = typeof m.type === 'number' ? m.type : CONTROL_TYPE[m.type]!
  const key = Buffer.alloc(4)
  key.writeInt16BE(m.keyVersion ?? 0, 0)
  key.writeInt16BE(type, 2)
  const value = Buffer.alloc(6)
  value.writeInt16BE(0, 0)
  value.writeInt32BE(m.coordinatorEpoch ?? 0, 2)
  return { key, value }
}

export const RECORD_BATCH_OVERHEAD = 61

/** One v2 batch (or a damaged one, per the knobs). */
export function encodeBatch(spec: BatchSpec = {}): Buffer {
  const records =
    spec.marker !== undefined ? [markerRecord(spec.marker)] : (spec.records ?? [{ key: null, value: 'v' }])
  const codec = spec.codec ?? 0
  const plain = spec.recordBytes ?? Buffer.concat(records.map((r, i) => encodeRecord(r, i)))
  const compress = spec.compress ?? (codec === 1 ? (b: Buffer) => gzipSync(b) : (b: Buffer) => b)
  const section = compress(plain)
  let attributes = codec & 0x07
  if (spec.logAppendTime === true) attributes |= 0x08 // 0-based bit 3
  if (spec.transactional === true || spec.marker !== undefined) attributes |= 0x10 // bit 4
  if (spec.marker !== undefined) attributes |= 0x20 // bit 5
  attributes |= spec.attributeBits ?? 0

  const buf = Buffer.alloc(RECORD_BATCH_OVERHEAD + section.length)
  const baseTimestamp = BigInt(spec.baseTimestamp ?? 1_700_000_000_000n)
  buf.writeBigInt64BE(BigInt(spec.baseOffset ?? 0), 0)
  buf.writeInt32BE(spec.batchLength ?? buf.length - 12, 8)
  buf.writeInt32BE(spec.partitionLeaderEpoch ?? 0, 12)
  buf.writeInt8(spec.magic ?? 2, 16)
  buf.writeInt16BE(attributes, 21)
  buf.writeInt32BE(spec.lastOffsetDelta ?? Math.max(0, records.length - 1), 23)
  buf.writeBigInt64BE(baseTimestamp, 27)
  buf.writeBigInt64BE(BigInt(spec.maxTimestamp ?? baseTimestamp), 35)
  buf.writeBigInt64BE(
    BigInt(spec.producerId ?? (spec.marker !== undefined || spec.transactional === true ? 1000 : -1)),
    43,
  )
  buf.writeInt16BE(spec.producerEpoch ?? (spec.marker !== undefined || spec.transactional === true ? 0 : -1), 51)
  buf.writeInt32BE(spec.baseSequence ?? -1, 53)
  buf.writeInt32BE(spec.recordsCount ?? records.length, 57)
  section.copy(buf, RECORD_BATCH_OVERHEAD)
  const crc = crc32c(buf.subarray(21))
  buf.writeUInt32BE(spec.crc === 'bad' ? (crc ^ 1) >>> 0 : (spec.crc ?? crc), 17)
  return buf
}

/** Batches laid out as a segment, each batch's baseOffset following the previous one's lastOffset. */
export function segment(...specs: BatchSpec[]): Buffer {
  let next = 0n
  const parts: Buffer[] = []
  for (const s of specs) {
    const base = s.baseOffset !== undefined ? BigInt(s.baseOffset) : next
    const b = encodeBatch({ ...s, baseOffset: base })
    parts.push(b)
    next = base + BigInt(b.readInt32BE(23)) + 1n
  }
  return Buffer.concat(parts)
}

/** Start positions of the batches of a well-formed segment (by walking batchLength). */
export function batchPositions(seg: Buffer): number[] {
  const out: number[] = []
  for (let p = 0; p + 12 <= seg.length; ) {
    out.push(p)
    p += 12 + seg.readInt32BE(p + 8)
  }
  return out
}

/** `n` simple batches of `perBatch` records each, optionally a transaction per batch closed by a marker. */
export function simpleSegment(n: number, perBatch = 2): Buffer {
  const specs: BatchSpec[] = []
  for (let i = 0; i < n; i++) {
    specs.push({
      records: Array.from({ length: perBatch }, (_, j) => ({
        key: `k${i}-${j}`,
        value: `value ${i}/${j}`,
        headers: j === 0 ? [{ key: 'h', value: 'x' }] : [],
      })),
    })
  }
  return segment(...specs)
}

export function truncate(buf: Buffer, length: number): Buffer {
  return buf.subarray(0, Math.max(0, Math.min(buf.length, length)))
}

export function flipBit(buf: Buffer, bit: number): Buffer {
  const out = Buffer.from(buf) // copy: callers keep the original
  out[bit >> 3]! ^= 1 << (bit & 7)
  return out
}

// ---- index files ----

export function offsetIndex(entries: Array<[relativeOffset: number, position: number]>, zeroTailEntries = 0): Buffer {
  const b = Buffer.alloc((entries.length + zeroTailEntries) * 8)
  entries.forEach(([o, p], i) => {
    b.writeInt32BE(o, i * 8)
    b.writeInt32BE(p, i * 8 + 4)
  })
  return b
}

export function timeIndex(entries: Array<[timestamp: bigint, relativeOffset: number]>, zeroTailEntries = 0): Buffer {
  const b = Buffer.alloc((entries.length + zeroTailEntries) * 12)
  entries.forEach(([t, o], i) => {
    b.writeBigInt64BE(t, i * 12)
    b.writeInt32BE(o, i * 12 + 8)
  })
  return b
}
