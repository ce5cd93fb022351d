// Fixed-width files beside a segment (Kafka OffsetIndex, TimeIndex, TransactionIndex/AbortedTxn):
//   .index      8-byte entries:  relativeOffset int32 | position int32
//   .timeindex 12-byte entries:  timestamp int64 | relativeOffset int32
//   .txnindex  34-byte entries:  version int16 | producerId int64 | firstOffset int64 | lastOffset int64 | lastStableOffset int64
// None has a header or checksum. Active-segment indexes are preallocated and zero-filled, so a
// zero entry after the first marks the end (DumpLogSegments stops there too).

export const OFFSET_INDEX_ENTRY_SIZE = 8
export const TIME_INDEX_ENTRY_SIZE = 12
export const ABORTED_TXN_SIZE = 34
/** AbortedTxn (a .txnindex entry): version int16, then producerId, firstOffset, lastOffset, lastStableOffset int64 */
export const ABORTED_TXN_PRODUCER_ID = 2
export const ABORTED_TXN_FIRST_OFFSET = 10
export const ABORTED_TXN_LAST_OFFSET = 18
export const ABORTED_TXN_LAST_STABLE_OFFSET = 26

/** Entry `i` of an index buffer, field by field: the one place each entry field's offset is written. */
export const offsetIndexRelativeOffset = (buf: Buffer, i: number): number =>
  buf.readInt32BE(i * OFFSET_INDEX_ENTRY_SIZE)
export const offsetIndexPosition = (buf: Buffer, i: number): number => buf.readInt32BE(i * OFFSET_INDEX_ENTRY_SIZE + 4)
export const timeIndexTimestamp = (buf: Buffer, i: number): bigint => buf.readBigInt64BE(i * TIME_INDEX_ENTRY_SIZE)
export const timeIndexRelativeOffset = (buf: Buffer, i: number): number =>
  buf.readInt32BE(i * TIME_INDEX_ENTRY_SIZE + 8)

export interface OffsetIndexEntry {
  index: number
  offset: bigint
  relativeOffset: number
  position: number
}
export interface TimeIndexEntry {
  index: number
  timestamp: bigint
  offset: bigint
  relativeOffset: number
}
export interface AbortedTxn {
  index: number
  version: number
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
  lastStableOffset: bigint
}

/** Offset index entries, stopping at the zero-filled tail (an entry i > 0 whose offset equals the base). */
export function* decodeOffsetIndex(buf: Buffer, baseOffset: bigint, firstIndex = 0): Generator<OffsetIndexEntry> {
  const n = Math.floor(buf.length / OFFSET_INDEX_ENTRY_SIZE)
  for (let i = 0; i < n; i++) {
    const relativeOffset = offsetIndexRelativeOffset(buf, i)
    const position = offsetIndexPosition(buf, i)
    const index = firstIndex + i
    if (index > 0 && relativeOffset === 0) return
    yield { index, offset: baseOffset + BigInt(relativeOffset), relativeOffset, position }
  }
}

export function* decodeTimeIndex(buf: Buffer, baseOffset: bigint, firstIndex = 0): Generator<TimeIndexEntry> {
  const n = Math.floor(buf.length / TIME_INDEX_ENTRY_SIZE)
  for (let i = 0; i < n; i++) {
    const timestamp = timeIndexTimestamp(buf, i)
    const relativeOffset = timeIndexRelativeOffset(buf, i)
    const index = firstIndex + i
    if (index > 0 && relativeOffset === 0) return
    yield { index, timestamp, offset: baseOffset + BigInt(relativeOffset), relativeOffset }
  }
}

export function* decodeTxnIndex(buf: Buffer, firstIndex = 0): Generator<AbortedTxn> {
  const n = Math.floor(buf.length / ABORTED_TXN_SIZE)
  for (let i = 0; i < n; i++) {
    const o = i * ABORTED_TXN_SIZE
    yield {
      index: firstIndex + i,
      version: buf.readInt16BE(o),
      producerId: buf.readBigInt64BE(o + ABORTED_TXN_PRODUCER_ID),
      firstOffset: buf.readBigInt64BE(o + ABORTED_TXN_FIRST_OFFSET),
      lastOffset: buf.readBigInt64BE(o + ABORTED_TXN_LAST_OFFSET),
      lastStableOffset: buf.readBigInt64BE(o + ABORTED_TXN_LAST_STABLE_OFFSET),
    }
  }
}

/**
 * Index of the first all-zero AbortedTxn entry of `buf` (whole entries from byte 0), or -1. Such an entry is
 * a zero-filled tail (a preallocated or zeroed file), not an aborted transaction of producer 0 at offset 0.
 */
export function firstZeroTxnEntry(buf: Buffer): number {
  for (let o = 0; o + ABORTED_TXN_SIZE <= buf.length; o += ABORTED_TXN_SIZE) {
    let zero = true
    for (let j = o; j < o + ABORTED_TXN_SIZE; j++)
      if (buf[j] !== 0) {
        zero = false
        break
      }
    if (zero) return o / ABORTED_TXN_SIZE
  }
  return -1
}
