// The one record of a COMMIT/ABORT marker batch, read straight from the batch bytes without a
// BatchHeader, a KafkaRecord or BigInts (the partition scan meets one marker per transaction).
// Only the shape brokers write is accepted: uncompressed, one-byte varints, key
// (version int16 >= 0, type 0 or 1), value (version int16 >= 0, coordinatorEpoch int32), no headers.
// Anything else returns false and the caller takes the general path (log-reader's readControl), which
// reports what is wrong. Where this returns true, that path yields the same type and coordinatorEpoch
// without problems.
import {
  ATTRIBUTES_OFFSET,
  COMPRESSION_CODEC_MASK,
  CONTROL_FLAG_MASK,
  RECORD_BATCH_OVERHEAD,
  RECORDS_COUNT_OFFSET,
} from './layout.js'

export interface EndTxnMarkerFacts {
  /** 0 ABORT, 1 COMMIT */
  type: number
  keyVersion: number
  coordinatorEpoch: number
}

/** zigzag value of a one-byte varint, or undefined when the byte has a continuation bit */
function varint1(b: number): number | undefined {
  return (b & 0x80) !== 0 ? undefined : (b >>> 1) ^ -(b & 1)
}

/**
 * Read the first record of the complete control batch `buf[start, end)` into `out`.
 * @returns false when the batch is not a plain COMMIT/ABORT marker (including an empty batch)
 */
export function readEndTxnMarkerFast(buf: Uint8Array, start: number, end: number, out: EndTxnMarkerFacts): boolean {
  if (end - start < RECORD_BATCH_OVERHEAD + 7) return false
  const attributes = (buf[start + ATTRIBUTES_OFFSET]! << 8) | buf[start + ATTRIBUTES_OFFSET + 1]!
  if ((attributes & CONTROL_FLAG_MASK) === 0 || (attributes & COMPRESSION_CODEC_MASK) !== 0) return false
  const c = start + RECORDS_COUNT_OFFSET
  const count = (buf[c]! << 24) | (buf[c + 1]! << 16) | (buf[c + 2]! << 8) | buf[c + 3]!
  // the general path checks recordsCount against the bytes before the first record
  if (count <= 0 || count > (end - start - RECORD_BATCH_OVERHEAD) / 7) return false
  let p = start + RECORD_BATCH_OVERHEAD
  const length = varint1(buf[p++]!)
  if (length === undefined || length < 6) return false
  const recEnd = p + length
  if (recEnd > end) return false
  // attributes int8, timestampDelta varlong, offsetDelta varint
  p++
  if (p + 3 > recEnd || varint1(buf[p++]!) === undefined || varint1(buf[p++]!) === undefined) return false
  const keyLength = varint1(buf[p++]!)
  if (keyLength === undefined || keyLength < 4 || p + keyLength > recEnd) return false
  const keyVersion = (((buf[p]! << 8) | buf[p + 1]!) << 16) >> 16
  const type = (((buf[p + 2]! << 8) | buf[p + 3]!) << 16) >> 16
  if (keyVersion < 0 || (type !== 0 && type !== 1)) return false
  p += keyLength
  if (p >= recEnd) return false
  const valueLength = varint1(buf[p++]!)
  if (valueLength === undefined || valueLength < 6 || p + valueLength > recEnd) return false
  const valueVersion = (((buf[p]! << 8) | buf[p + 1]!) << 16) >> 16
  if (valueVersion < 0) return false
  const coordinatorEpoch = (buf[p + 2]! << 24) | (buf[p + 3]! << 16) | (buf[p + 4]! << 8) | buf[p + 5]!
  p += valueLength
  // headersCount 0, and nothing else in the record
  if (p + 1 !== recEnd || buf[p] !== 0) return false
  out.type = type
  out.keyVersion = keyVersion
  out.coordinatorEpoch = coordinatorEpoch
  return true
}
