// Record lines of one uncompressed v2 data batch, written straight from the batch bytes: no KafkaRecord
// objects, no BigInts. It prints exactly what the general path (records.ts + record-line-ascii.ts) prints,
// and gives up (returns false, having committed nothing) on anything that path would report or treat
// specially: an int64 past 2^52, a varint longer than the common case, a malformed record, a gap in
// offsets, a count that does not match. The caller then runs the general path for that batch.
import * as L from '../decode/layout.js'
import { incrementSequence } from '../decode/batch-header.js'
import { putBytes, putInt } from './ascii.js'
import { K_APPEND, K_CREATE, K_HEADERKEYS, K_KEY, K_KEYSIZE, K_OFFSET, K_PAYLOAD, K_SEQUENCE, K_VALUESIZE, putUtf8 } from './record-line-ascii.js'


/** payloadPipe: `|` before ` payload: ` when nothing precedes it on the line (kafka-dump-log 4.3+) */
export interface FastLinesOptions { printData: boolean, skipRecordMetadata: boolean, payloadPipe?: boolean }

export interface FastLinesResult {
  /** end of what was written into `out` */
  end: number
  firstOffset: number
  lastOffset: number
}

/** upper bound of the bytes the lines of this batch can take */
export function fastLinesSize (batch: Buffer, count: number): number {
  return count * 200 + batch.length * 3 + 64
}

// int64 at b[o] as a number when |v| < 2^52, else NaN
function int64At (b: Buffer, o: number): number {
  const hi = b.readInt32BE(o)
  return hi < 0x100000 && hi >= -0x100000 ? hi * 4294967296 + b.readUInt32BE(o + 4) : NaN
}

let p = 0 // read cursor, module state reset on every call

// zigzag varint of at most 4 bytes (values below 2^27); -Infinity when longer or past the end
function varint (b: Buffer, end: number): number {
  let v = 0
  for (let i = 0; i < 4; i++) {
    if (p >= end) return -Infinity
    const x = b[p++]!
    v |= (x & 0x7F) << (7 * i)
    if ((x & 0x80) === 0) return (v >>> 1) ^ -(v & 1)
  }
  return -Infinity
}

// zigzag varlong of at most 7 bytes (|value| < 2^48), as a number; NaN when longer or past the end
function varlong (b: Buffer, end: number): number {
  let v = 0
  let mul = 1
  for (let i = 0; i < 7; i++) {
    if (p >= end) return NaN
    const x = b[p++]!
    v += (x & 0x7F) * mul
    if ((x & 0x80) === 0) return v % 2 === 0 ? v / 2 : -(v + 1) / 2
    mul *= 128
  }
  return NaN
}

/**
 * Write the record lines of the complete, uncompressed, non-control v2 batch `b` into out[pos...].
 * @returns the result, or null when the general path must handle this batch
 */
export function writeRecordLinesFast (out: Buffer, pos: number, b: Buffer, o: FastLinesOptions): FastLinesResult | null {
  const count = b.readInt32BE(L.RECORDS_COUNT_OFFSET)
  const end = b.length
  if (count < 0 || count > (end - L.RECORD_BATCH_OVERHEAD) / 7) return null
  const baseOffset = int64At(b, L.OFFSET_OFFSET)
  const baseTimestamp = int64At(b, L.BASE_TIMESTAMP_OFFSET)
  const attributes = b.readInt16BE(L.ATTRIBUTES_OFFSET)
  const logAppendTime = (attributes & L.TIMESTAMP_TYPE_MASK) !== 0
  const maxTimestamp = int64At(b, L.MAX_TIMESTAMP_OFFSET)
  if (Number.isNaN(baseOffset) || Number.isNaN(baseTimestamp) || Number.isNaN(maxTimestamp)) return null
  const baseSequence = b.readInt32BE(L.BASE_SEQUENCE_OFFSET)
  const tsLabel = logAppendTime ? K_APPEND : K_CREATE
  p = L.RECORD_BATCH_OVERHEAD
  let prev = NaN
  let first = NaN
  for (let i = 0; i < count; i++) {
    const length = varint(b, end)
    if (length < 6 || p + length > end) return null
    const recEnd = p + length
    p++ // attributes
    const tsDelta = varlong(b, recEnd)
    const offsetDelta = varint(b, recEnd)
    if (Number.isNaN(tsDelta) || offsetDelta === -Infinity) return null
    const keyLen = varint(b, recEnd)
    if (keyLen < -1 || p + Math.max(0, keyLen) > recEnd) return null
    const keyAt = p
    p += Math.max(0, keyLen)
    const valueLen = varint(b, recEnd)
    if (valueLen < -1 || p + Math.max(0, valueLen) > recEnd) return null
    const valueAt = p
    p += Math.max(0, valueLen)
    const headersCount = varint(b, recEnd)
    if (headersCount < 0 || headersCount > (recEnd - p) / 2) return null
    const headersAt = p
    for (let h = 0; h < headersCount; h++) {
      const hk = varint(b, recEnd)
      if (hk < 0 || p + hk > recEnd) return null
      p += hk
      const hv = varint(b, recEnd)
      if (hv < -1 || p + Math.max(0, hv) > recEnd) return null
      p += Math.max(0, hv)
    }
    if (p !== recEnd) return null
    const offset = baseOffset + offsetDelta
    if (i === 0) first = offset
    else if (offset !== prev + 1) return null // gaps are recorded by the general path
    prev = offset
    let pipe = true
    if (!o.skipRecordMetadata) {
      pos = putBytes(out, pos, K_OFFSET)
      pos = putInt(out, pos, offset)
      pos = putBytes(out, pos, tsLabel)
      pos = putInt(out, pos, logAppendTime ? maxTimestamp : baseTimestamp + tsDelta)
      pos = putBytes(out, pos, K_KEYSIZE)
      pos = putInt(out, pos, keyLen)
      pos = putBytes(out, pos, K_VALUESIZE)
      pos = putInt(out, pos, valueLen)
      pos = putBytes(out, pos, K_SEQUENCE)
      pos = putInt(out, pos, baseSequence < 0 ? -1 : incrementSequence(baseSequence, offsetDelta))
      pos = putBytes(out, pos, K_HEADERKEYS)
      const save = p
      p = headersAt
      for (let h = 0; h < headersCount; h++) {
        if (h > 0) out[pos++] = 44
        const hk = varint(b, recEnd)
        pos = putUtf8(out, pos, b.subarray(p, p + hk))
        p += hk
        const hv = varint(b, recEnd)
        p += Math.max(0, hv)
      }
      p = save
      out[pos++] = 93
      pipe = false
    }
    if (o.printData) {
      if (keyLen >= 0) {
        if (pipe) { out[pos++] = 124; pipe = false }
        out[pos++] = 32
        pos = putBytes(out, pos, K_KEY)
        pos = putUtf8(out, pos, b.subarray(keyAt, keyAt + keyLen))
      }
      if (valueLen >= 0) {
        if (pipe && o.payloadPipe === true) out[pos++] = 124
        pos = putBytes(out, pos, K_PAYLOAD)
        pos = putUtf8(out, pos, b.subarray(valueAt, valueAt + valueLen))
      }
    }
    out[pos++] = 10
  }
  if (p !== end) return null
  return { end: pos, firstOffset: first, lastOffset: prev }
}
