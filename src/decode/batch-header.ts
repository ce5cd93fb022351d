// Decoding of the 61-byte v2 RecordBatch header (Kafka DefaultRecordBatch) and its CRC-32C check.
import { crc32c } from '../bytes/crc32c.js'
import * as L from './layout.js'

export type TimestampType = 'CreateTime' | 'LogAppendTime' | 'NoTimestampType'

export interface BatchHeader {
  /** absolute file position of the entry (its baseOffset field) */
  position: number
  baseOffset: bigint
  batchLength: number
  partitionLeaderEpoch: number
  magic: number
  crc: number
  attributes: number
  lastOffsetDelta: number
  baseTimestamp: bigint
  maxTimestamp: bigint
  producerId: bigint
  producerEpoch: number
  baseSequence: number
  recordsCount: number
  // derived
  lastOffset: bigint
  sizeInBytes: number
  compression: number
  timestampType: TimestampType
  isTransactional: boolean
  isControl: boolean
  hasDeleteHorizon: boolean
}

/** Decode a v2 header from `buf` (at least 61 bytes, starting at the entry). */
export function decodeBatchHeader(buf: Buffer, position: number): BatchHeader {
  const batchLength = buf.readInt32BE(L.SIZE_OFFSET)
  const attributes = buf.readInt16BE(L.ATTRIBUTES_OFFSET)
  const baseOffset = buf.readBigInt64BE(L.OFFSET_OFFSET)
  const lastOffsetDelta = buf.readInt32BE(L.LAST_OFFSET_DELTA_OFFSET)
  return {
    position,
    baseOffset,
    batchLength,
    partitionLeaderEpoch: buf.readInt32BE(L.PARTITION_LEADER_EPOCH_OFFSET),
    magic: buf.readInt8(L.MAGIC_OFFSET),
    crc: buf.readUInt32BE(L.CRC_OFFSET),
    attributes,
    lastOffsetDelta,
    baseTimestamp: buf.readBigInt64BE(L.BASE_TIMESTAMP_OFFSET),
    maxTimestamp: buf.readBigInt64BE(L.MAX_TIMESTAMP_OFFSET),
    producerId: buf.readBigInt64BE(L.PRODUCER_ID_OFFSET),
    producerEpoch: buf.readInt16BE(L.PRODUCER_EPOCH_OFFSET),
    baseSequence: buf.readInt32BE(L.BASE_SEQUENCE_OFFSET),
    recordsCount: buf.readInt32BE(L.RECORDS_COUNT_OFFSET),
    lastOffset: baseOffset + BigInt(lastOffsetDelta),
    sizeInBytes: batchLength + L.LOG_OVERHEAD,
    compression: attributes & L.COMPRESSION_CODEC_MASK,
    timestampType: (attributes & L.TIMESTAMP_TYPE_MASK) !== 0 ? 'LogAppendTime' : 'CreateTime',
    isTransactional: (attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0,
    isControl: (attributes & L.CONTROL_FLAG_MASK) !== 0,
    hasDeleteHorizon: (attributes & L.DELETE_HORIZON_FLAG_MASK) !== 0,
  }
}

/** CRC-32C over attributes..end of a complete batch. */
export function computeBatchCrc(batch: Buffer): number {
  return crc32c(batch.subarray(L.ATTRIBUTES_OFFSET))
}

/** DefaultRecordBatch.lastSequence: wraps past Int32.MAX to 0 (DefaultRecordBatch.incrementSequence). */
export function lastSequence(h: BatchHeader): number {
  if (h.baseSequence === L.NO_SEQUENCE) return L.NO_SEQUENCE
  return incrementSequence(h.baseSequence, h.lastOffsetDelta)
}

export function incrementSequence(sequence: number, increment: number): number {
  if (sequence > 0x7fffffff - increment) return increment - (0x7fffffff - sequence) - 1
  return sequence + increment
}

/** OptionalLong rendering used by kafka-dump-log for deleteHorizonMs */
export function deleteHorizonMs(h: BatchHeader): bigint | null {
  return h.hasDeleteHorizon ? h.baseTimestamp : null
}
