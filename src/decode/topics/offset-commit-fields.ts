// An offset commit record of __consumer_offsets (OffsetCommitKey / OffsetCommitValue of the group coordinator,
// key types 0 and 1) read in place, for `transactions`, which reads every commit as the partition scan streams
// them (scan/offset-commit-scan.ts): the general reader (decode/protocol/reader.ts) built a struct for the key and
// one for the value of each. The general decoder stays the judge: the walk takes a record only where it reads it
// without an error and gives the same fields (test/decode/offset-commit-fields.test.ts); elsewhere it refuses and the
// caller decodes it with decodeGroupRecord.
import type { AsciiIntern } from '../../bytes/ascii-intern.js'

/** what `transactions` reads of an offset commit */
export interface OffsetCommitFields {
  group: string
  topic: string
  partition: number
  /** null: a tombstone (no value) */
  offset: bigint | null
  metadata: string | null
}

export function offsetCommitFields(): OffsetCommitFields {
  return { group: '', topic: '', partition: -1, offset: null, metadata: null }
}

/** a non-nullable int16-length string at `at` of buf[.., end): its end, or -1 */
function shortString(buf: Buffer, at: number, end: number): number {
  if (end - at < 2) return -1
  const n = buf.readInt16BE(at)
  return n < 0 || n > end - at - 2 ? -1 : at + 2 + n
}

/** Kafka's ByteUtils.readUnsignedVarint at `at` (at most 5 bytes) into `uv`; the position after it, or -1 */
let uv = 0
function uvarint(buf: Buffer, at: number, end: number): number {
  let v = 0
  for (let i = 0; i < 5; i++) {
    if (at >= end) return -1
    const x = buf[at++]!
    v += (x & 0x7f) * 2 ** (7 * i)
    if ((x & 0x80) === 0) {
      uv = v
      return at
    }
  }
  return -1
}

/**
 * The record with key buf[keyAt, keyAt + keyLength) and value buf[valueAt, valueAt + valueLength) (valueLength -1: a
 * tombstone), an offset commit (key type 0 or 1), into `into`. False when the walk does not take it (another key
 * type, a value version other than 0-4 (0 for key type 0), a length that does not fit, a null where none may be, a topicId tag of
 * another size): decodeGroupRecord then decides, and throws where it should.
 */
export function readOffsetCommitAt(
  buf: Buffer,
  keyAt: number,
  keyLength: number,
  valueAt: number,
  valueLength: number,
  into: OffsetCommitFields,
  intern: AsciiIntern,
): boolean {
  // key: type int16, group string, topic string, partition int32 (bytes past them are ignored, as Kafka's read())
  const keyEnd = keyAt + keyLength
  if (keyLength < 2) return false
  const type = buf.readInt16BE(keyAt)
  if (type !== 0 && type !== 1) return false
  const groupEnd = shortString(buf, keyAt + 2, keyEnd)
  if (groupEnd < 0) return false
  const topicEnd = shortString(buf, groupEnd, keyEnd)
  if (topicEnd < 0 || keyEnd - topicEnd < 4) return false
  let offset: bigint | null = null
  let metadata: string | null = null
  if (valueLength >= 0) {
    // value: version, offset int64, leaderEpoch int32 (v3+), metadata (compact from v4), commitTimestamp int64,
    // expireTimestamp int64 (v1), tagged fields (v4: topicId, a uuid)
    const end = valueAt + valueLength
    if (valueLength < 10) return false
    const version = buf.readInt16BE(valueAt)
    // key type 0 is LegacyOffsetCommitKey, whose value has version 0 only (another reads no field)
    if (version < 0 || version > (type === 0 ? 0 : 4)) return false
    let p = valueAt + 10
    if (version >= 3) p += 4
    let metaAt: number
    let metaEnd: number
    if (version === 4) {
      p = uvarint(buf, p, end)
      if (p < 0 || uv === 0 || uv - 1 > end - p) return false
      metaAt = p
      metaEnd = p + uv - 1
    } else {
      metaEnd = shortString(buf, p, end)
      if (metaEnd < 0) return false
      metaAt = p + 2
    }
    p = metaEnd + 8 + (version === 1 ? 8 : 0)
    if (p > end) return false
    if (version === 4) {
      p = uvarint(buf, p, end)
      if (p < 0) return false
      const count = uv
      for (let i = 0; i < count; i++) {
        p = uvarint(buf, p, end)
        if (p < 0) return false
        const tag = uv
        p = uvarint(buf, p, end)
        if (p < 0 || uv > end - p || (tag === 0 && uv !== 16)) return false
        p += uv
      }
    }
    offset = buf.readBigInt64BE(valueAt + 2)
    metadata = buf.toString('utf8', metaAt, metaEnd)
  }
  into.group = intern.get(buf, keyAt + 4, groupEnd - keyAt - 4)
  into.topic = intern.get(buf, groupEnd + 2, topicEnd - groupEnd - 2)
  into.partition = buf.readInt32BE(topicEnd)
  into.offset = offset
  into.metadata = metadata
  return true
}
