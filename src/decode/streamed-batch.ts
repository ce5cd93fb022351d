// Deep iteration's records of one v2 batch, whatever its size. A batch the framer held whole decodes
// whole (records.ts) when its payload fits a read window; a compressed one that inflates past the window
// (a bomb, or a big batch under a small compressed size) and a batch larger than the window (never held:
// the framer streamed its CRC) are decoded record by record from a stream (streamed-records.ts), so
// memory stays about one window. A codec without a streaming decoder keeps the whole path (every codec
// has one now: zstd's decodes one block at a time into fzstd, codecs/zstd.ts).
//
// A compressed stream is read twice: once to its end to learn its length and meet any codec failure or the
// decompression budget, then to decode. So a codec problem is reported before any record, and the
// recordsCount check uses the payload's length, exactly as the whole path does; the positions of every
// finding are the whole path's too.
import type { BatchHeader } from './batch-header.js'
import type { Codec } from './codecs/index.js'
import { DEFAULT_MAX_DECOMPRESSED, getCodec } from './codecs/index.js'
import { DecodeError } from './errors.js'
import * as L from './layout.js'
import type { ByteStream } from './payload-stream.js'
import { InflatedBytes, MemoryBytes, SourceBytes, decompressedLength } from './payload-stream.js'
import type { KafkaRecord } from './records.js'
import { checkRecordsCount, codecFailure, decodeRecords } from './records.js'
import type { SegmentSource } from './segment-source.js'
import { StreamedRecords } from './streamed-records.js'

export interface BatchRecordsOptions {
  /** the read window: payloads up to this size are decoded whole */
  window: number
  maxDecompressed?: number
}

/**
 * The records of the batch at h.position: `bytes` is the whole batch when `complete`, else only its header
 * and the rest is read from `source`. Records are valid until the next one is asked for.
 * @throws DecodeError
 */
export function* batchRecords(
  h: BatchHeader,
  bytes: Buffer,
  complete: boolean,
  source: SegmentSource,
  opts: BatchRecordsOptions,
): Generator<KafkaRecord> {
  const max = opts.maxDecompressed ?? DEFAULT_MAX_DECOMPRESSED
  const codec = h.compression === 0 ? undefined : getCodec(h.compression)
  if (complete) {
    if (codec?.stream === undefined || max <= opts.window) {
      yield* decodeRecords(h, bytes, { maxDecompressed: max })
      return
    }
    // try it whole within one window first: almost every batch fits, and then nothing changes
    const whole = decodeRecords(h, bytes, { maxDecompressed: opts.window })
    let r
    try {
      r = whole.next()
    } catch (e) {
      if (!(e instanceof DecodeError) || e.code !== 'DECOMPRESSED_TOO_LARGE') throw e
      yield* inflated(h, codec, new MemoryBytes(bytes.subarray(L.RECORD_BATCH_OVERHEAD)), max, opts.window)
      return
    }
    for (; r.done !== true; r = whole.next()) yield r.value
    return
  }
  const size = bytes.readInt32BE(L.SIZE_OFFSET) + L.LOG_OVERHEAD
  const raw = new SourceBytes(source, h.position + L.RECORD_BATCH_OVERHEAD, h.position + size)
  if (h.compression === 0) {
    checkRecordsCount(h, -1)
    yield* each(
      new StreamedRecords(
        h,
        raw,
        h.position + L.RECORD_BATCH_OVERHEAD,
        size - L.RECORD_BATCH_OVERHEAD,
        opts.window,
        true,
      ),
    )
    return
  }
  // an unknown codec is reported by the whole path; one that cannot stream is decoded whole (read now)
  if (codec?.stream === undefined) {
    yield* decodeRecords(h, source.readAt(h.position, size), { maxDecompressed: max })
    return
  }
  yield* inflated(h, codec, raw, max, opts.window)
}

function* inflated(
  h: BatchHeader,
  codec: Codec,
  compressed: ByteStream,
  max: number,
  window: number,
): Generator<KafkaRecord> {
  checkRecordsCount(h, -1)
  const ctx = { magic: h.magic }
  let total
  try {
    total = decompressedLength(codec, compressed, max, ctx)
  } catch (e) {
    throw codecFailure(h, codec, e)
  }
  compressed.seek!(0)
  // positions inside a decompressed stream are not file positions: they count from the batch's (records.ts)
  yield* each(
    new StreamedRecords(h, new InflatedBytes(codec, compressed, max, ctx), h.position, total, window, false),
    h,
    codec,
  )
}

function* each(s: StreamedRecords, h?: BatchHeader, codec?: Codec): Generator<KafkaRecord> {
  try {
    while (!s.done) yield s.next()
    s.finish()
  } catch (e) {
    // the second pass through a codec meets no codec problem the first did not (same bytes)
    throw h !== undefined && codec !== undefined ? codecFailure(h, codec, e) : e
  }
}
