// Legacy message format, magic 0 and 1 (Kafka LegacyRecord / AbstractLegacyRecordBatch,
// docs/implementation.html "Old Message Format"):
//
//   offset int64 | messageSize int32 | crc uint32 | magic int8 | attributes int8 |
//   [timestamp int64, magic 1 only] | keyLength int32, key | valueLength int32, value
//
// CRC-32 (IEEE) covers magic..end of message. attributes: bits 0-2 codec (0 none, 1 gzip, 2 snappy,
// 3 lz4), bit 3 timestamp type (magic 1). A compressed "wrapper" message has a null key and a value
// that is a compressed set of inner entries with the same layout; inner messages are never compressed.
// v0 inner offsets are absolute; v1 inner offsets are relative (0..n-1) and the wrapper carries the
// absolute offset of the last inner message (KIP-31).
import { ByteReader } from '../bytes/byte-reader.js'
import { crc32 } from '../bytes/crc32.js'
import { CodecError, DEFAULT_MAX_DECOMPRESSED, getCodec } from './codecs/index.js'
import { ByteWindow } from './byte-window.js'
import { DecodeError } from './errors.js'
import { InflatedBytes, MemoryBytes, decompressedLength } from './payload-stream.js'
import * as L from './layout.js'

/** LegacyRecord.RECORD_OVERHEAD_V0 / V1: crc + magic + attributes (+ timestamp) + key and value lengths */
export const RECORD_OVERHEAD_V0 = 14
export const RECORD_OVERHEAD_V1 = 22

export interface LegacyEntry {
  /** absolute file position of the entry */
  position: number
  /** the entry's offset field (for a compressed v1 wrapper: the last inner absolute offset) */
  offset: bigint
  /** 12 + messageSize */
  sizeInBytes: number
  /** stored, unsigned */
  crc: number
  /** CRC-32 IEEE over magic..end matches, and messageSize >= 14 */
  crcValid: boolean
  magic: 0 | 1
  attributes: number
  /** codec id 0..3 (zstd is invalid for legacy messages and reported as unsupported) */
  compression: number
  timestampType: 'CreateTime' | 'LogAppendTime' | 'NoTimestampType'
  /** magic 0: -1n */
  timestamp: bigint
  key: Buffer | null
  value: Buffer | null
}

export interface LegacyRecord {
  offset: bigint
  timestamp: bigint
  crc: number
  crcValid: boolean
  magic: number
  key: Buffer | null
  value: Buffer | null
  sizeInBytes: number
  keySize: number
  valueSize: number
}

function readInt32Bytes(r: ByteReader, field: string): Buffer | null {
  const at = r.absolute
  const n = r.readInt32(field)
  if (n === -1) return null
  if (n < 0) throw new DecodeError('BAD_LENGTH', `${field} length ${n} at position ${at}`, at, { field })
  return r.readBytes(n, field)
}

/**
 * Decode one legacy entry; `bytes` starts at its offset field and holds at least the whole entry.
 * @throws DecodeError TRUNCATED, BAD_LENGTH or BAD_MAGIC, with absolute positions
 */
export function decodeLegacyEntry(bytes: Buffer, position: number): LegacyEntry {
  const head = new ByteReader(bytes, position)
  const offset = head.readInt64('offset')
  const sizeAt = head.absolute
  const messageSize = head.readInt32('messageSize')
  if (messageSize < RECORD_OVERHEAD_V0) {
    throw new DecodeError(
      'BAD_LENGTH',
      `messageSize ${messageSize} at position ${sizeAt} is below the minimum ${RECORD_OVERHEAD_V0}`,
      sizeAt,
      { field: 'messageSize' },
    )
  }
  // Every field below is read inside the message's own bounds.
  const r = head.child(messageSize, 'message')
  const crc = r.readUint32('crc')
  const magicAt = r.absolute
  const magic = r.readInt8('magic')
  if (magic !== 0 && magic !== 1) {
    throw new DecodeError('BAD_MAGIC', `magic ${magic} at position ${magicAt} is not a legacy message`, magicAt, {
      field: 'magic',
    })
  }
  const crcComputed = crc32(bytes.subarray(L.MAGIC_OFFSET, L.LOG_OVERHEAD + messageSize))
  const attributes = r.readInt8('attributes')
  const timestamp = magic === 1 ? r.readInt64('timestamp') : -1n
  const key = readInt32Bytes(r, 'key')
  const value = readInt32Bytes(r, 'value')
  // Bytes after the value are covered by the CRC but otherwise ignored, as LegacyRecord does.
  return {
    position,
    offset,
    sizeInBytes: L.LOG_OVERHEAD + messageSize,
    crc,
    crcValid: crc === crcComputed,
    magic,
    attributes,
    compression: attributes & L.COMPRESSION_CODEC_MASK,
    timestampType:
      magic === 0 ? 'NoTimestampType' : (attributes & L.TIMESTAMP_TYPE_MASK) !== 0 ? 'LogAppendTime' : 'CreateTime',
    timestamp,
    key,
    value,
  }
}

function toRecord(e: LegacyEntry, offset: bigint, timestamp: bigint): LegacyRecord {
  return {
    offset,
    timestamp,
    crc: e.crc,
    crcValid: e.crcValid,
    magic: e.magic,
    key: e.key,
    value: e.value,
    sizeInBytes: e.sizeInBytes,
    keySize: e.key?.length ?? -1,
    valueSize: e.value?.length ?? -1,
  }
}

/**
 * The records of a legacy entry: the entry itself, or the inner messages of a compressed wrapper
 * with absolute offsets (AbstractLegacyRecordBatch.DeepRecordsIterator).
 * @throws DecodeError with the wrapper's position
 */
export function* decodeLegacyRecords(
  e: LegacyEntry,
  limits: { maxDecompressed?: number } = {},
): Generator<LegacyRecord> {
  if (e.compression === 0) {
    yield toRecord(e, e.offset, e.timestamp)
    return
  }
  const inner = innerPasses(e, limits.maxDecompressed ?? DEFAULT_MAX_DECOMPRESSED)
  // Two passes over the payload, keeping no inner message: the first validates every inner message and
  // finds the last offset (magic 1 needs it before the first record can be given its absolute offset),
  // the second decodes them again one at a time. Holding them all cost ~700 bytes per message
  // (7.7 M inner messages: 2.2 GiB). A payload larger than a window is not held either: each pass inflates
  // it again as a stream (streamedInner).
  let lastOffset = -1n
  for (const m of inner()) lastOffset = m.offset
  let base = 0n // v0: inner offsets are absolute already
  if (e.magic === 1) {
    // KIP-31: relative inner offsets. A wrapper offset of 0 means "not assigned" (old librdkafka).
    if (e.offset !== 0n) {
      if (e.offset < lastOffset) {
        throw wrapperError(e, 'BAD_RECORD', `wrapper offset ${e.offset} is below the last inner offset ${lastOffset}`)
      }
      base = e.offset - lastOffset
    }
  }
  const logAppendTime = e.magic === 1 && e.timestampType === 'LogAppendTime'
  for (const m of inner()) yield toRecord(m, base + m.offset, logAppendTime ? e.timestamp : m.timestamp)
}

function wrapperError(e: LegacyEntry, code: DecodeError['code'], msg: string, cause?: unknown): DecodeError {
  return new DecodeError(
    code,
    `legacy wrapper message at position ${e.position}: ${msg}`,
    e.position,
    { batchPosition: e.position, baseOffset: e.offset },
    cause === undefined ? undefined : { cause },
  )
}

/** a decompressed value up to this size is held whole; a larger one is streamed */
const HELD_VALUE = 8 * 1024 * 1024
/** the rolling window of a streamed value (it grows to hold one larger inner message) */
const INNER_WINDOW = 1024 * 1024

/**
 * The inner messages of a compressed wrapper, as a pass that can be run again: over the decompressed value
 * when it fits HELD_VALUE, else (a codec that can stream) over a fresh stream each time.
 */
function innerPasses(e: LegacyEntry, maxBytes: number): () => Generator<LegacyEntry> {
  // zstd (4) was never valid for magic 0/1 (KIP-110); ids 5-7 are unknown.
  const codec = e.compression <= 3 ? getCodec(e.compression) : undefined
  if (codec === undefined) {
    throw wrapperError(
      e,
      'UNSUPPORTED_CODEC',
      `compression codec ${L.codecName(e.compression)} (id ${e.compression}) is not supported`,
    )
  }
  const value = e.value
  if (value === null) throw wrapperError(e, 'BAD_RECORD', 'compressed wrapper has a null value')
  const ctx = { magic: e.magic }
  const streams = codec.stream !== undefined && maxBytes > HELD_VALUE
  let payload: Buffer
  try {
    payload = codec.decompress(value, streams ? HELD_VALUE : maxBytes, ctx)
  } catch (err) {
    if (!(err instanceof CodecError)) throw err
    if (!streams || err.code !== 'DECOMPRESSED_TOO_LARGE')
      throw wrapperError(e, err.code, `${codec.name}: ${err.message}`, err)
    const open = (): InflatedBytes => new InflatedBytes(codec, new MemoryBytes(value), maxBytes, ctx)
    // its length first: a codec problem (or the budget) is then reported before any inner message, as whole
    let total
    try {
      total = decompressedLength(codec, new MemoryBytes(value), maxBytes, ctx)
    } catch (err2) {
      throw codecWrapperError(e, codec.name, err2)
    }
    return () => streamedInner(e, codec.name, open(), total)
  }
  return () => innerEntries(e, payload)
}

function codecWrapperError(e: LegacyEntry, codec: string, err: unknown): unknown {
  return err instanceof CodecError ? wrapperError(e, err.code, `${codec}: ${err.message}`, err) : err
}

// innerEntries over a stream: each inner message held whole in a rolling window (ByteWindow)
function* streamedInner(e: LegacyEntry, codec: string, input: InflatedBytes, total: number): Generator<LegacyEntry> {
  let pos = 0
  const w = new ByteWindow(input, total, INNER_WINDOW, (_buf, shift) => {
    pos -= shift
  })
  let n = 0
  try {
    while (w.streamAt + pos < total) {
      const head = w.ensure(pos, L.LOG_OVERHEAD)
      const size =
        head >= L.LOG_OVERHEAD ? L.LOG_OVERHEAD + Math.max(0, w.buf.readInt32BE(pos + L.SIZE_OFFSET)) : L.LOG_OVERHEAD
      w.ensure(pos, size)
      const m = decodeInnerEntry(e, w.buf.subarray(pos, w.len), w.streamAt + pos, n)
      if (m.compression !== 0) throw wrapperError(e, 'BAD_RECORD', `inner message ${n} is itself compressed`)
      n++
      pos += m.sizeInBytes
      yield m
    }
  } catch (err) {
    throw codecWrapperError(e, codec, err)
  }
  if (n === 0) throw wrapperError(e, 'BAD_RECORD', 'compressed wrapper holds no inner messages')
}

function* innerEntries(e: LegacyEntry, payload: Buffer): Generator<LegacyEntry> {
  let pos = 0
  let n = 0
  while (pos < payload.length) {
    const m = decodeInnerEntry(e, payload.subarray(pos), pos, n)
    if (m.compression !== 0) throw wrapperError(e, 'BAD_RECORD', `inner message ${n} is itself compressed`)
    n++
    pos += m.sizeInBytes
    yield m
  }
  if (n === 0) throw wrapperError(e, 'BAD_RECORD', 'compressed wrapper holds no inner messages')
}

// `bytes` starts at the inner message, `pos` is its offset in the decompressed value
function decodeInnerEntry(e: LegacyEntry, bytes: Buffer, pos: number, index: number): LegacyEntry {
  try {
    return decodeLegacyEntry(bytes, pos)
  } catch (err) {
    // Positions inside the decompressed payload are not file positions: the error names the wrapper.
    if (err instanceof DecodeError) {
      throw wrapperError(
        e,
        err.code,
        `inner message ${index} (byte ${err.position} of the decompressed value): ${err.message}`,
        err,
      )
    }
    throw err
  }
}
