// The header fields of an entry held in a Buffer that starts at the entry (V2Batch.bytes, a frame's
// bytes), read by name. With BatchView (the same fields over the scanner's window, through a DataView)
// these are the only reads of header fields outside batch-header.ts: each field's offset and width are
// written once, here and in layout.ts, not at every place that needs a count or the attributes.
// Tiny functions on purpose: V8 inlines them, so the byte-level writers lose nothing.
import * as L from './layout.js'

export const batchSizeInBytes = (b: Buffer): number => b.readInt32BE(L.SIZE_OFFSET) + L.LOG_OVERHEAD
export const batchMagic = (b: Buffer): number => b.readInt8(L.MAGIC_OFFSET)
export const batchStoredCrc = (b: Buffer): number => b.readUInt32BE(L.CRC_OFFSET)
export const batchAttributes = (b: Buffer): number => b.readInt16BE(L.ATTRIBUTES_OFFSET)
export const batchIsControl = (b: Buffer): boolean => (batchAttributes(b) & L.CONTROL_FLAG_MASK) !== 0
export const batchRecordsCount = (b: Buffer): number => b.readInt32BE(L.RECORDS_COUNT_OFFSET)
export const batchLastOffsetDelta = (b: Buffer): number => b.readInt32BE(L.LAST_OFFSET_DELTA_OFFSET)
export const batchBaseSequence = (b: Buffer): number => b.readInt32BE(L.BASE_SEQUENCE_OFFSET)
export const batchProducerEpoch = (b: Buffer): number => b.readInt16BE(L.PRODUCER_EPOCH_OFFSET)
export const batchPartitionLeaderEpoch = (b: Buffer): number => b.readInt32BE(L.PARTITION_LEADER_EPOCH_OFFSET)
/** the baseOffset field as a bigint (legacy entries: their offset, the same place) */
export const entryOffset = (b: Buffer): bigint => b.readBigInt64BE(L.OFFSET_OFFSET)
/** the two 32-bit halves of an int64 field (L.OFFSET_OFFSET, L.PRODUCER_ID_OFFSET ...): compared or formatted without a BigInt */
export const int64High = (b: Buffer, field: number): number => b.readInt32BE(field)
export const int64Low = (b: Buffer, field: number): number => b.readUInt32BE(field + 4)
/** an int64 field as a number when |v| < 2^52 (exact), else NaN: the byte-level writers fall back to the general path */
export function int64Number (b: Buffer, field: number): number {
  const hi = b.readInt32BE(field)
  return hi < 0x100000 && hi >= -0x100000 ? hi * 4294967296 + b.readUInt32BE(field + 4) : NaN
}

/**
 * An uncompressed batch of `b.length` bytes has room for its count (each record takes at least 7 bytes):
 * plausibleHeader's size rule (batch-view.ts), for a caller about to size a buffer by the count.
 */
export const countFits = (b: Buffer, count: number): boolean => count >= 0 && count <= (b.length - L.RECORD_BATCH_OVERHEAD) / 7
