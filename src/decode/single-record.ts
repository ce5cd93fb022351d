// The one record of a v2 batch that holds one, read in place: what the transaction coordinator appends to
// __transaction_state (TransactionStateManager writes one record per batch, uncompressed), millions of them on a busy
// broker. The record cursor (record-cursor.ts) walks any number of records of any shape; for this shape its
// per-record setup and calls were a tenth of lso's time on the coordinator's partitions. Only the common shape is
// taken (every varint one byte, the record's length and its value's up to two; a key and a value, no headers, the
// fields filling the declared length exactly); anything else is declined, and the caller reads the batch with
// walkPlainRecords (records.ts), which takes what this takes, the same fields, and throws where it should.
import * as L from './layout.js'

/** the record's key and value: window[keyAt, keyAt + keyLength), window[valueAt, valueAt + valueLength) */
export interface SingleRecord {
  offsetDelta: number
  keyAt: number
  keyLength: number
  valueAt: number
  valueLength: number
}

/**
 * The record of the one-record batch at w[o, o + size) into `into`; false (`into` then unspecified) when it is not
 * of the common shape. The caller has checked the batch: recordsCount 1, uncompressed, whole in the window.
 */
export function readSingleRecord(w: Buffer, o: number, size: number, into: SingleRecord): boolean {
  const end = o + size
  let p = o + L.RECORD_BATCH_OVERHEAD
  if (p + 7 > end) return false
  // the record's length: a zigzag varint of one or two bytes
  let raw = varint2(w, p)
  if (raw < 0) return false
  p += w[p]! >= 0x80 ? 2 : 1
  const length = (raw >>> 1) ^ -(raw & 1)
  if (length < 6 || p + length !== end) return false
  // attributes (one byte), then timestampDelta and offsetDelta of one byte each
  const ts = w[p + 1]!
  const od = w[p + 2]!
  const k = w[p + 3]!
  if ((ts | od | k) >= 0x80) return false
  const keyLength = (k >>> 1) ^ -(k & 1)
  p += 4
  if (keyLength < 0 || keyLength > end - p) return false
  const keyAt = p
  p += keyLength
  // the value's length: one or two bytes, inside the record
  if (p + 2 > end) return false
  raw = varint2(w, p)
  if (raw < 0) return false
  p += w[p]! >= 0x80 ? 2 : 1
  const valueLength = (raw >>> 1) ^ -(raw & 1)
  // a value and then headersCount 0, the record's last byte
  if (valueLength < 0 || p + valueLength + 1 !== end || w[p + valueLength] !== 0) return false
  into.offsetDelta = (od >>> 1) ^ -(od & 1)
  into.keyAt = keyAt
  into.keyLength = keyLength
  into.valueAt = p
  into.valueLength = valueLength
  return true
}

/** the unsigned varint of one or two bytes at w[p] (its zigzag not undone); -1 when it is longer */
function varint2(w: Buffer, p: number): number {
  const x = w[p]!
  if (x < 0x80) return x
  const y = w[p + 1]!
  return y >= 0x80 ? -1 : (x & 0x7f) | (y << 7)
}
