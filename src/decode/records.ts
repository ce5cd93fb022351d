// Records inside a v2 batch as KafkaRecord objects, built from the one record walk (record-cursor.ts);
// the batch's recordsCount is checked against the bytes before anything is allocated.
import { ByteReader } from '../bytes/byte-reader.js'
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import type { DecodeContext } from '../bytes/decode-error.js'
import type { BatchHeader } from './batch-header.js'
import { incrementSequence } from './batch-header.js'
import type { BatchView } from './batch-view.js'
import type { Codec } from './codecs/index.js'
import { CodecError, DEFAULT_MAX_DECOMPRESSED, getCodec } from './codecs/index.js'
import { DecodeError } from './errors.js'
import * as L from './layout.js'
import { MIN_RECORD_SIZE, RecordCursor } from './record-cursor.js'

export interface RecordHeader {
  key: Buffer
  value: Buffer | null
}

/** the value of a record too large for a read window, read in pieces */
export interface ValuePieces {
  readonly size: number
  /** the next piece, or null at the end of the value */
  next(): Buffer | null
}

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
  /**
   * Set only when the value is not held: a value larger than a read window inside a streamed batch
   * (decode/streamed-records.ts). `value` is then null and this is the value's length.
   */
  valueSize?: number
  /** with valueSize: the value in pieces, each valid until the next (read it before asking for the next record) */
  valuePieces?: ValuePieces
  headers: RecordHeader[]
  /** baseSequence + offsetDelta (wrapping), -1 for batches without sequence */
  sequence: number
}

export interface RecordLimits {
  maxDecompressed?: number
}

/**
 * The payload of a complete v2 batch, decompressed if needed.
 * @throws DecodeError UNSUPPORTED_CODEC, DECOMPRESS_FAILED, DECOMPRESSED_TOO_LARGE
 */
export function batchPayload(
  h: BatchHeader,
  batch: Buffer,
  limits: RecordLimits = {},
): { reader: ByteReader; compressed: boolean } {
  const raw = batch.subarray(L.RECORD_BATCH_OVERHEAD)
  if (h.compression === 0) {
    return { reader: new ByteReader(raw, h.position + L.RECORD_BATCH_OVERHEAD), compressed: false }
  }
  const codec = getCodec(h.compression)
  if (codec === undefined) {
    throw new DecodeError(
      'UNSUPPORTED_CODEC',
      `compression codec ${L.codecName(h.compression)} (id ${h.compression}) is not supported`,
      h.position,
      { batchPosition: h.position, baseOffset: h.baseOffset, field: 'attributes' },
    )
  }
  try {
    const out = codec.decompress(raw, limits.maxDecompressed ?? DEFAULT_MAX_DECOMPRESSED, { magic: h.magic })
    // Positions inside a decompressed stream are not file positions: errors there name the batch.
    return { reader: new ByteReader(out, h.position), compressed: true }
  } catch (e) {
    throw codecFailure(h, codec, e)
  }
}

/** A codec's error as the batch's DecodeError (anything else is passed on as it is). */
export function codecFailure(h: BatchHeader, codec: Codec, e: unknown): unknown {
  if (!(e instanceof CodecError)) return e
  return new DecodeError(
    e.code,
    `${codec.name} batch at position ${h.position}: ${e.message}`,
    h.position,
    { batchPosition: h.position, baseOffset: h.baseOffset },
    { cause: e },
  )
}

/**
 * Records of a complete v2 batch. Errors end the iteration with a DecodeError carrying a position.
 * @throws DecodeError
 */
export function* decodeRecords(h: BatchHeader, batch: Buffer, limits: RecordLimits = {}): Generator<KafkaRecord> {
  const ctx = { batchPosition: h.position, baseOffset: h.baseOffset }
  checkRecordsCount(h, -1)
  const { reader, compressed } = batchPayload(h, batch, limits)
  checkRecordsCount(h, reader.remaining)
  const cur = new RecordCursor().at(reader.buf, reader.pos, reader.end, reader.base, ctx)
  const logAppendTime = h.timestampType === 'LogAppendTime' ? h.maxTimestamp : undefined
  for (let i = 0; i < h.recordsCount; i++) {
    cur.next(i)
    yield recordOf(cur, h, logAppendTime, compressed ? -1 : cur.base + cur.start)
  }
  checkRecordsEnd(h, cur.remaining, cur.base + cur.pos)
}

/** the baseOffset of the batch walkPlainRecords walks: its errors' context reads it (a BigInt made only then) */
let walkBase: I64 = 0
/** the context of walkPlainRecords' errors, refilled per batch (the cursor copies it into the error it throws) */
const WALK_CONTEXT: DecodeContext = {
  batchPosition: 0,
  get baseOffset(): bigint {
    return toBigInt(walkBase)
  },
}

/**
 * The records of a whole, uncompressed v2 batch (`v` over its bytes, `baseOffset` its baseOffset) walked with `cur`,
 * nothing allocated per record: `visit` reads the cursor's fields, valid until it returns. decodeRecords' checks and
 * errors, for a reader that takes a few fields of many small records (the coordinator's, scan/transaction-state-read.ts).
 * @throws DecodeError
 */
export function walkPlainRecords(
  v: BatchView,
  baseOffset: I64,
  cur: RecordCursor,
  visit: (cur: RecordCursor) => void,
): void {
  const count = v.recordsCount
  const size = v.sizeInBytes
  if (count < 0 || count > (size - L.RECORD_BATCH_OVERHEAD) / MIN_RECORD_SIZE)
    checkRecordsCount(
      { position: v.position, baseOffset: toBigInt(baseOffset), recordsCount: count },
      size - L.RECORD_BATCH_OVERHEAD,
    )
  WALK_CONTEXT.batchPosition = v.position
  walkBase = baseOffset
  // index i of the window is at position base + i, as decodeRecords' reader counts from the batch's records
  cur.at(v.window, v.o + L.RECORD_BATCH_OVERHEAD, v.o + size, v.position - v.o, WALK_CONTEXT)
  for (let i = 0; i < count; i++) {
    cur.next(i)
    visit(cur)
  }
  if (cur.remaining !== 0)
    checkRecordsEnd(
      { position: v.position, baseOffset: toBigInt(baseOffset), recordsCount: count },
      cur.remaining,
      cur.base + cur.pos,
    )
}

/**
 * The batch's recordsCount against the bytes of its records (`bytes` -1: the sign only, before they are known).
 * @throws DecodeError RECORD_COUNT_MISMATCH
 */
export function checkRecordsCount(
  h: Pick<BatchHeader, 'position' | 'baseOffset' | 'recordsCount'>,
  bytes: number,
): void {
  const ctx = { batchPosition: h.position, baseOffset: h.baseOffset }
  if (h.recordsCount < 0) {
    throw new DecodeError(
      'RECORD_COUNT_MISMATCH',
      `recordsCount ${h.recordsCount} is negative`,
      h.position + L.RECORDS_COUNT_OFFSET,
      ctx,
    )
  }
  if (bytes >= 0 && h.recordsCount > bytes / MIN_RECORD_SIZE) {
    throw new DecodeError(
      'RECORD_COUNT_MISMATCH',
      `recordsCount ${h.recordsCount} cannot fit in ${bytes} bytes of records`,
      h.position + L.RECORDS_COUNT_OFFSET,
      ctx,
    )
  }
}

/** @throws DecodeError RECORD_COUNT_MISMATCH when bytes remain after the declared records */
export function checkRecordsEnd(
  h: Pick<BatchHeader, 'position' | 'baseOffset' | 'recordsCount'>,
  remaining: number,
  at: number,
): void {
  if (remaining !== 0) {
    throw new DecodeError(
      'RECORD_COUNT_MISMATCH',
      `${remaining} bytes remain after the ${h.recordsCount} declared records`,
      at,
      { batchPosition: h.position, baseOffset: h.baseOffset },
    )
  }
}

/** The KafkaRecord of the cursor's current record (its key, value and headers are views of cur.buf). */
export function recordOf(
  cur: RecordCursor,
  h: BatchHeader,
  logAppendTime: bigint | undefined,
  filePosition: number,
): KafkaRecord {
  const b = cur.buf
  const headers: RecordHeader[] = []
  cur.firstHeader()
  for (let i = 0; i < cur.headersCount; i++) {
    cur.nextHeader()
    headers.push({
      key: b.subarray(cur.headerKeyAt, cur.headerKeyAt + cur.headerKeyLength),
      value:
        cur.headerValueLength < 0 ? null : b.subarray(cur.headerValueAt, cur.headerValueAt + cur.headerValueLength),
    })
  }
  const timestampDelta = cur.timestampDeltaBig()
  return {
    offset: h.baseOffset + BigInt(cur.offsetDelta),
    timestamp: logAppendTime ?? h.baseTimestamp + timestampDelta,
    filePosition,
    sizeInBytes: cur.recordEnd - cur.start,
    attributes: cur.attributes,
    timestampDelta,
    offsetDelta: cur.offsetDelta,
    key: cur.keyLength < 0 ? null : b.subarray(cur.keyAt, cur.keyAt + cur.keyLength),
    value: cur.valueLength < 0 ? null : b.subarray(cur.valueAt, cur.valueAt + cur.valueLength),
    headers,
    sequence: h.baseSequence < 0 ? -1 : incrementSequence(h.baseSequence, cur.offsetDelta),
  }
}

/** the value's length as kafka-dump-log prints it (valueSize), -1 for a null value */
export function valueSizeOf(r: KafkaRecord): number {
  return r.value !== null ? r.value.length : (r.valueSize ?? -1)
}
