// A v2 batch header read in place: a flyweight over the scanner's window (one object, re-pointed at each
// batch) with number getters, and the BatchHeader object (BigInt fields) built only when asked. The fast
// paths read what they need as numbers; the general path asks for `header`. Both see the same fields and
// the same plausibility check (headerPlausible), so they cannot disagree on what a healthy batch is.
import type { BatchHeader } from './batch-header.js'
import { decodeBatchHeader } from './batch-header.js'
import * as L from './layout.js'

const TWO_53 = 0x200000 // 2^53 / 2^32: the high word range of an exact double

export class BatchView {
  /** the window holding the entry, which starts at window[o] */
  window: Buffer = Buffer.alloc(L.RECORD_BATCH_OVERHEAD)
  o = 0
  /** absolute file position of the entry */
  position = 0
  private decoded: BatchHeader | undefined

  /** DataView over `window`: its getters compile to plain loads, Buffer's read methods validate each call */
  protected dv: DataView = new DataView(this.window.buffer, this.window.byteOffset, this.window.byteLength)

  /** re-point the view at another batch (nothing is allocated unless the window buffer changed) */
  at (window: Buffer, o: number, position: number): this {
    if (window !== this.window) {
      this.window = window
      this.dv = new DataView(window.buffer, window.byteOffset, window.byteLength)
    }
    this.o = o
    this.position = position
    this.decoded = undefined
    return this
  }

  /** at() with the DataView the caller keeps over the same window (the scanner's) */
  protected atView (window: Buffer, dv: DataView, o: number, position: number): void {
    this.window = window; this.dv = dv; this.o = o; this.position = position; this.decoded = undefined
  }

  /** the BatchHeader, decoded on first use (BigInts: the slow part of a header) */
  get header (): BatchHeader {
    this.decoded ??= decodeBatchHeader(this.window.subarray(this.o, this.o + L.RECORD_BATCH_OVERHEAD), this.position)
    return this.decoded
  }

  get sizeInBytes (): number { return this.dv.getInt32(this.o + L.SIZE_OFFSET) + L.LOG_OVERHEAD }
  get attributes (): number { return this.dv.getInt16(this.o + L.ATTRIBUTES_OFFSET) }
  get compression (): number { return this.attributes & L.COMPRESSION_CODEC_MASK }
  get isControl (): boolean { return (this.attributes & L.CONTROL_FLAG_MASK) !== 0 }
  get isTransactional (): boolean { return (this.attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0 }
  get recordsCount (): number { return this.dv.getInt32(this.o + L.RECORDS_COUNT_OFFSET) }
  get lastOffsetDelta (): number { return this.dv.getInt32(this.o + L.LAST_OFFSET_DELTA_OFFSET) }
  get producerEpoch (): number { return this.dv.getInt16(this.o + L.PRODUCER_EPOCH_OFFSET) }
  get baseSequence (): number { return this.dv.getInt32(this.o + L.BASE_SEQUENCE_OFFSET) }
  get storedCrc (): number { return this.dv.getUint32(this.o + L.CRC_OFFSET) }

  /**
   * The int64 field at `offset` (L.OFFSET_OFFSET, L.PRODUCER_ID_OFFSET, ...) in canonical form: a number
   * when in [-2^53, 2^53) (exact), else a bigint.
   */
  int64 (offset: number): number | bigint {
    const dv = this.dv
    const at = this.o + offset
    const hi = dv.getInt32(at)
    if (hi >= -TWO_53 && hi < TWO_53) return hi * 4294967296 + dv.getUint32(at + 4)
    return dv.getBigInt64(at)
  }

  /** readLog's cheap header checks (plausibleHeader) on this batch */
  headerPlausible (): boolean {
    return plausibleHeader(this.recordsCount, this.lastOffsetDelta, this.attributes, this.sizeInBytes)
  }
}

/**
 * readLog's cheap header checks, which need no record decoding: recordsCount >= 0, lastOffsetDelta >= 0,
 * and an uncompressed batch has room for its records (each takes at least 7 bytes). False when readLog
 * reports a problem for this header (log-reader.ts says which). Taking the fields as numbers lets a
 * loop that has read them already check without reading them again.
 */
export function plausibleHeader (recordsCount: number, lastOffsetDelta: number, attributes: number, sizeInBytes: number): boolean {
  return recordsCount >= 0 && lastOffsetDelta >= 0 &&
    ((attributes & L.COMPRESSION_CODEC_MASK) !== 0 || recordsCount <= (sizeInBytes - L.RECORD_BATCH_OVERHEAD) / 7)
}
