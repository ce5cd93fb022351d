// The one reader of v2 batch header fields (Kafka DefaultRecordBatch): a flyweight over the bytes that hold
// the entry (one object, re-pointed at each batch) with number getters, int64 fields in canonical I64 form
// (bytes/int64.ts), and the BatchHeader object (BigInt fields, batch-header.ts decodeBatchHeader) built only
// when asked. The fast paths read what they need as numbers; the general path asks for `header`. Both see the
// same fields and the same plausibility check (plausibleHeader), so they cannot disagree on what a healthy
// batch is. The framer's Frame is one (frame-scanner.ts); code holding an entry as a Buffer (V2Batch.bytes)
// points one at it with `of`.
import type { I64 } from '../bytes/int64.js'
import { i64At } from '../bytes/int64.js'
import type { BatchHeader } from './batch-header.js'
import { decodeBatchHeader } from './batch-header.js'
import * as L from './layout.js'

export class BatchView {
  /** the window holding the entry, which starts at window[o] */
  window: Buffer = Buffer.alloc(L.RECORD_BATCH_OVERHEAD)
  o = 0
  /** absolute file position of the entry */
  position = 0
  private decoded: BatchHeader | undefined
  /** the ArrayBuffer that `of` made `window` and `dv` cover, undefined after at() */
  private whole: ArrayBufferLike | undefined

  /** DataView over `window`: its getters compile to plain loads, Buffer's read methods validate each call */
  protected dv: DataView = new DataView(this.window.buffer, this.window.byteOffset, this.window.byteLength)

  /** re-point the view at another batch (nothing is allocated unless the window buffer changed) */
  at(window: Buffer, o: number, position: number): this {
    if (window !== this.window) {
      this.window = window
      this.dv = new DataView(window.buffer, window.byteOffset, window.byteLength)
      this.whole = undefined
    }
    this.o = o
    this.position = position
    this.decoded = undefined
    return this
  }

  /**
   * Point the view at the entry that starts at `bytes[0]` (V2Batch.bytes, a view into a read window). The view
   * covers the whole ArrayBuffer behind it, so the batches of one window share one DataView: nothing is
   * allocated per batch.
   */
  of(bytes: Buffer, position: number): this {
    const ab = bytes.buffer
    if (ab !== this.whole) {
      this.whole = ab
      this.window = Buffer.from(ab, 0, ab.byteLength)
      this.dv = new DataView(ab, 0, ab.byteLength)
    }
    this.o = bytes.byteOffset
    this.position = position
    this.decoded = undefined
    return this
  }

  /** at() with the DataView the caller keeps over the same window (the scanner's) */
  protected atView(window: Buffer, dv: DataView, o: number, position: number): void {
    this.window = window
    this.dv = dv
    this.o = o
    this.position = position
    this.decoded = undefined
    this.whole = undefined
  }

  /** the BatchHeader, decoded on first use (BigInts: the slow part of a header) */
  get header(): BatchHeader {
    this.decoded ??= decodeBatchHeader(this.window.subarray(this.o, this.o + L.RECORD_BATCH_OVERHEAD), this.position)
    return this.decoded
  }

  get sizeInBytes(): number {
    return this.dv.getInt32(this.o + L.SIZE_OFFSET) + L.LOG_OVERHEAD
  }
  get partitionLeaderEpoch(): number {
    return this.dv.getInt32(this.o + L.PARTITION_LEADER_EPOCH_OFFSET)
  }
  get magic(): number {
    return this.dv.getInt8(this.o + L.MAGIC_OFFSET)
  }
  get storedCrc(): number {
    return this.dv.getUint32(this.o + L.CRC_OFFSET)
  }
  get attributes(): number {
    return this.dv.getInt16(this.o + L.ATTRIBUTES_OFFSET)
  }
  get compression(): number {
    return this.attributes & L.COMPRESSION_CODEC_MASK
  }
  get isControl(): boolean {
    return (this.attributes & L.CONTROL_FLAG_MASK) !== 0
  }
  get isTransactional(): boolean {
    return (this.attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0
  }
  get lastOffsetDelta(): number {
    return this.dv.getInt32(this.o + L.LAST_OFFSET_DELTA_OFFSET)
  }
  get producerEpoch(): number {
    return this.dv.getInt16(this.o + L.PRODUCER_EPOCH_OFFSET)
  }
  get baseSequence(): number {
    return this.dv.getInt32(this.o + L.BASE_SEQUENCE_OFFSET)
  }
  get recordsCount(): number {
    return this.dv.getInt32(this.o + L.RECORDS_COUNT_OFFSET)
  }

  /**
   * The int64 field at `offset` (L.OFFSET_OFFSET, L.PRODUCER_ID_OFFSET, L.BASE_TIMESTAMP_OFFSET,
   * L.MAX_TIMESTAMP_OFFSET) as an I64. A legacy (magic 0/1) entry's offset is at L.OFFSET_OFFSET too.
   */
  int64(offset: number): I64 {
    return i64At(this.dv, this.o + offset)
  }

  /** readLog's cheap header checks (plausibleHeader) on this batch */
  headerPlausible(): boolean {
    return plausibleHeader(this.recordsCount, this.lastOffsetDelta, this.attributes, this.sizeInBytes)
  }
}

/**
 * readLog's cheap header checks, which need no record decoding: recordsCount >= 0, lastOffsetDelta >= 0,
 * and an uncompressed batch has room for its records (recordsFit). False when readLog reports a problem for
 * this header (log-reader.ts says which). Taking the fields as numbers lets a loop that has read them already
 * check without reading them again.
 */
export function plausibleHeader(
  recordsCount: number,
  lastOffsetDelta: number,
  attributes: number,
  sizeInBytes: number,
): boolean {
  return (
    recordsCount >= 0 &&
    lastOffsetDelta >= 0 &&
    ((attributes & L.COMPRESSION_CODEC_MASK) !== 0 || recordsFit(recordsCount, sizeInBytes))
  )
}

/** `count` uncompressed records fit in a batch of `sizeInBytes` (each record takes at least 7 bytes) */
export function recordsFit(count: number, sizeInBytes: number): boolean {
  return count >= 0 && count <= (sizeInBytes - L.RECORD_BATCH_OVERHEAD) / 7
}
