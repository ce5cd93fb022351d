// Byte layout of a log entry, named as in Kafka's DefaultRecordBatch / Records / LegacyRecord.
//
// RecordBatch v2:
//   baseOffset int64 | batchLength int32 | partitionLeaderEpoch int32 | magic int8 | crc uint32 |
//   attributes int16 | lastOffsetDelta int32 | baseTimestamp int64 | maxTimestamp int64 |
//   producerId int64 | producerEpoch int16 | baseSequence int32 | recordsCount int32 | records...
// The CRC-32C covers attributes..end. batchLength counts everything after itself.

export const OFFSET_OFFSET = 0
export const SIZE_OFFSET = 8
export const LOG_OVERHEAD = 12
/** bytes needed to know offset, size and magic of any entry (FileLogInputStream.HEADER_SIZE_UP_TO_MAGIC) */
export const HEADER_SIZE_UP_TO_MAGIC = 17
export const MAGIC_OFFSET = 16

export const PARTITION_LEADER_EPOCH_OFFSET = 12
export const CRC_OFFSET = 17
export const ATTRIBUTES_OFFSET = 21
export const LAST_OFFSET_DELTA_OFFSET = 23
export const BASE_TIMESTAMP_OFFSET = 27
export const MAX_TIMESTAMP_OFFSET = 35
export const PRODUCER_ID_OFFSET = 43
export const PRODUCER_EPOCH_OFFSET = 51
export const BASE_SEQUENCE_OFFSET = 53
export const RECORDS_COUNT_OFFSET = 57
export const RECORD_BATCH_OVERHEAD = 61
/** smallest batchLength a v2 batch can declare */
export const MIN_V2_BATCH_LENGTH = RECORD_BATCH_OVERHEAD - LOG_OVERHEAD
/** Records.MIN_RECORD_OVERHEAD / LegacyRecord.RECORD_OVERHEAD_V0: below this FileLogInputStream throws */
export const MIN_RECORD_OVERHEAD = 14

// attributes, 0-based bits
export const COMPRESSION_CODEC_MASK = 0x07 // bits 0-2
export const TIMESTAMP_TYPE_MASK = 0x08 // bit 3
export const TRANSACTIONAL_FLAG_MASK = 0x10 // bit 4
export const CONTROL_FLAG_MASK = 0x20 // bit 5
export const DELETE_HORIZON_FLAG_MASK = 0x40 // bit 6

export const NO_SEQUENCE = -1

export const CODEC_NAMES = ['none', 'gzip', 'snappy', 'lz4', 'zstd'] as const
export type CodecName = (typeof CODEC_NAMES)[number]

export function codecName(id: number): string {
  return CODEC_NAMES[id] ?? `unknown(${id})`
}
