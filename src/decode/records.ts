// Records inside a v2 batch (Kafka DefaultRecord):
//   length varint | attributes int8 | timestampDelta varlong | offsetDelta varint |
//   keyLength varint, key | valueLength varint, value | headersCount varint |
//   headers: headerKeyLength varint, headerKey | headerValueLength varint, value
// Each record is decoded inside a reader bounded to its own length, so a corrupt inner length cannot
// escape its record; the batch's recordsCount is checked against the bytes before anything is allocated.
import { ByteReader } from '../bytes/byte-reader.js'
import type { BatchHeader } from './batch-header.js'
import { incrementSequence } from './batch-header.js'
import { CodecError, DEFAULT_MAX_DECOMPRESSED, getCodec } from './codecs/index.js'
import { DecodeError } from './errors.js'
import * as L from './layout.js'

export interface RecordHeader { key: Buffer, value: Buffer | null }

export interface KafkaRecord {
  offset: bigint
  timestamp: bigint
  /** absolute file position of the record, or -1 inside a compressed payload */
  filePosition: number
  sizeInBytes: number
  attributes: number
  timestampDelta: bigint
  offsetDelta: number
  key: Buffer | null
  value: Buffer | null
  headers: RecordHeader[]
  /** baseSequence + offsetDelta (wrapping), -1 for batches without sequence */
  sequence: number
}

/** smallest possible encoded record: 7 one-byte fields */
const MIN_RECORD_SIZE = 7

export interface RecordLimits {
  maxDecompressed?: number
}

/**
 * The payload of a complete v2 batch, decompressed if needed.
 * @throws DecodeError UNSUPPORTED_CODEC, DECOMPRESS_FAILED, DECOMPRESSED_TOO_LARGE
 */
export function batchPayload (h: BatchHeader, batch: Buffer, limits: RecordLimits = {}): { reader: ByteReader, compressed: boolean } {
  const raw = batch.subarray(L.RECORD_BATCH_OVERHEAD)
  if (h.compression === 0) {
    return { reader: new ByteReader(raw, h.position + L.RECORD_BATCH_OVERHEAD), compressed: false }
  }
  const codec = getCodec(h.compression)
  if (codec === undefined) {
    throw new DecodeError('UNSUPPORTED_CODEC', `compression codec ${L.codecName(h.compression)} (id ${h.compression}) is not supported`,
      h.position, { batchPosition: h.position, baseOffset: h.baseOffset, field: 'attributes' })
  }
  try {
    const out = codec.decompress(raw, limits.maxDecompressed ?? DEFAULT_MAX_DECOMPRESSED, { magic: h.magic })
    // Positions inside a decompressed stream are not file positions: errors there name the batch.
    return { reader: new ByteReader(out, h.position), compressed: true }
  } catch (e) {
    if (e instanceof CodecError) {
      throw new DecodeError(e.code, `${codec.name} batch at position ${h.position}: ${e.message}`, h.position,
        { batchPosition: h.position, baseOffset: h.baseOffset }, { cause: e })
    }
    throw e
  }
}

/**
 * Records of a complete v2 batch. Errors end the iteration with a DecodeError carrying a position.
 * @throws DecodeError
 */
export function * decodeRecords (h: BatchHeader, batch: Buffer, limits: RecordLimits = {}): Generator<KafkaRecord> {
  const ctx = { batchPosition: h.position, baseOffset: h.baseOffset }
  if (h.recordsCount < 0) {
    throw new DecodeError('RECORD_COUNT_MISMATCH', `recordsCount ${h.recordsCount} is negative`, h.position + L.RECORDS_COUNT_OFFSET, ctx)
  }
  const { reader, compressed } = batchPayload(h, batch, limits)
  if (h.recordsCount > reader.remaining / MIN_RECORD_SIZE) {
    throw new DecodeError('RECORD_COUNT_MISMATCH',
      `recordsCount ${h.recordsCount} cannot fit in ${reader.remaining} bytes of records`, h.position + L.RECORDS_COUNT_OFFSET, ctx)
  }
  const logAppendTime = h.timestampType === 'LogAppendTime' ? h.maxTimestamp : undefined
  for (let i = 0; i < h.recordsCount; i++) {
    const start = reader.absolute
    const length = reader.readVarint('record length')
    if (length < MIN_RECORD_SIZE - 1) {
      throw new DecodeError('BAD_RECORD', `record ${i} length ${length} is too small`, start, { ...ctx, recordIndex: i })
    }
    const r = reader.child(length, `record ${i}`)
    const rec = decodeRecordBody(r, h, logAppendTime)
    rec.filePosition = compressed ? -1 : start
    rec.sizeInBytes = reader.absolute - start
    if (r.remaining !== 0) {
      throw new DecodeError('BAD_RECORD', `record ${i} declares ${length} bytes but its fields use ${length - r.remaining}`,
        start, { ...ctx, recordIndex: i })
    }
    yield rec
  }
  if (reader.remaining !== 0) {
    throw new DecodeError('RECORD_COUNT_MISMATCH',
      `${reader.remaining} bytes remain after the ${h.recordsCount} declared records`, reader.absolute, ctx)
  }
}

function decodeRecordBody (r: ByteReader, h: BatchHeader, logAppendTime: bigint | undefined): KafkaRecord {
  const attributes = r.readInt8('record attributes')
  const timestampDelta = r.readVarlong('timestampDelta')
  const offsetDelta = r.readVarint('offsetDelta')
  const key = r.readVarintBytes('key')
  const value = r.readVarintBytes('value')
  const at = r.absolute
  const headersCount = r.readVarint('headersCount')
  if (headersCount < 0 || headersCount > r.remaining / 2) {
    throw new DecodeError('BAD_RECORD', `headersCount ${headersCount} with ${r.remaining} bytes left`, at, { field: 'headersCount' })
  }
  const headers: RecordHeader[] = []
  for (let i = 0; i < headersCount; i++) {
    const hk = r.readVarintBytes('header key')
    if (hk === null) throw new DecodeError('BAD_RECORD', 'header key is null', r.absolute, { field: 'header key' })
    headers.push({ key: hk, value: r.readVarintBytes('header value') })
  }
  return {
    offset: h.baseOffset + BigInt(offsetDelta),
    timestamp: logAppendTime ?? h.baseTimestamp + timestampDelta,
    filePosition: -1,
    sizeInBytes: 0,
    attributes,
    timestampDelta,
    offsetDelta,
    key,
    value,
    headers,
    sequence: h.baseSequence < 0 ? -1 : incrementSequence(h.baseSequence, offsetDelta),
  }
}
