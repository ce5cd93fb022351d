// The records of a v2 batch larger than a read window, decoded one at a time from a ByteStream
// (payload-stream.ts) with the one record walk (record-cursor.ts) over a rolling buffer of one window.
// Each record is held whole when it fits the window (the buffer grows to hold a larger one when the
// stream cannot seek: inside a compressed payload). On a seekable raw stream a larger record is read as
// head, tail, and then its value in window-sized pieces (ValuePieces), so one 512 MiB value costs one
// window; a value that fits the window is held (the record is large for its key or headers). Positions and messages are those of the whole-batch path (records.ts): the cursor keeps the
// absolute position of the window's first byte.
import type { BatchHeader } from './batch-header.js'
import { ByteWindow } from './byte-window.js'
import type { ByteStream } from './payload-stream.js'
import { DecodeError } from './errors.js'
import { RecordCursor } from './record-cursor.js'
import type { KafkaRecord, ValuePieces } from './records.js'
import { checkRecordsCount, checkRecordsEnd, recordOf } from './records.js'

export class StreamedRecords {
  readonly cur = new RecordCursor()
  private readonly w: ByteWindow
  private readonly logAppendTime: bigint | undefined
  private index = 0

  /**
   * @param base absolute position of stream offset 0 (errors are reported at base + offset)
   * @param total the stream's length (known: the batch size, or a first pass through the codec)
   * @param raw true when stream offsets are file positions minus `base` (an uncompressed batch)
   */
  constructor(
    private readonly h: BatchHeader,
    private readonly input: ByteStream,
    base: number,
    total: number,
    private readonly window: number,
    private readonly raw: boolean,
  ) {
    checkRecordsCount(h, total)
    this.w = new ByteWindow(input, total, window, (buf, shift) => this.cur.rebase(buf, shift))
    this.cur.at(this.w.buf, 0, total, base, { batchPosition: h.position, baseOffset: h.baseOffset })
    this.logAppendTime = h.timestampType === 'LogAppendTime' ? h.maxTimestamp : undefined
  }

  get done(): boolean {
    return this.index >= this.h.recordsCount
  }

  /**
   * The next record (valid until the next call). One whose value is larger than the window, on a seekable
   * stream, has value null, valueSize and valuePieces set. After the last record, call finish. @throws DecodeError, CodecError
   */
  next(): KafkaRecord {
    const cur = this.cur
    const i = this.index++
    this.w.ensure(cur.pos, 5)
    const want = this.peekLength(cur.pos)
    if (want <= this.window || this.input.seek === undefined) {
      this.w.ensure(cur.pos, want)
      cur.next(i)
      return recordOf(cur, this.h, this.logAppendTime, this.raw ? cur.base + cur.start : -1)
    }
    return this.large(i)
  }

  /** @throws DecodeError RECORD_COUNT_MISMATCH when bytes remain after the declared records */
  finish(): void {
    checkRecordsEnd(this.h, this.cur.remaining, this.cur.base + this.cur.pos)
  }

  // A record larger than the window, on a stream that can seek: its head (the key is copied), then the
  // headers after the value (held), then the value in pieces on demand.
  private large(i: number): KafkaRecord {
    const cur = this.cur
    const start = cur.pos
    this.w.ensure(start, this.window)
    // the head is read from the window; a key larger than that is held: grow until the head is inside it
    for (;;) {
      let failed: unknown
      try {
        cur.head(i)
      } catch (e) {
        failed = e
      }
      const all = this.w.atEnd
      // a problem found inside what the window holds is real; one past it was read from stale bytes
      if (failed !== undefined && (all || cur.pos <= this.w.len)) throw failed
      if (failed === undefined && (all || cur.valueAt <= this.w.len)) break
      cur.pos = cur.start
      const held = this.w.len - cur.pos
      if (this.w.ensure(cur.pos, 2 * held) <= held) {
        // the file ended before the size the framer saw (it changed while being read)
        throw (
          failed ??
          new DecodeError('TRUNCATED', `record ${i} ends past the end of the input`, cur.base + cur.start, {
            recordIndex: i,
          })
        )
      }
    }
    const key = cur.keyLength < 0 ? null : Buffer.from(cur.buf.subarray(cur.keyAt, cur.keyAt + cur.keyLength))
    const valueSize = Math.max(0, cur.valueLength)
    const valueFrom = this.w.streamAt + cur.valueAt
    const sizeInBytes = cur.recEndAt - cur.start
    // the tail: continue the window at the value's end
    this.w.moveTo(cur.valueAt + valueSize)
    cur.pos = 0
    this.w.ensure(0, cur.recEndAt)
    cur.tail(i)
    const rec = recordOf(cur, this.h, this.logAppendTime, this.raw ? cur.base + cur.start : -1)
    rec.key = key
    rec.value = null
    rec.sizeInBytes = sizeInBytes
    if (cur.valueLength < 0) return rec
    // the value's reads move the stream: the next fill seeks back to where the window ends
    this.w.reposition = true
    const pieces = new StreamValue(this.input, valueFrom, valueSize, this.window)
    // a value that fits the window is held (one piece, its own buffer): the record is large for its key or
    // headers, and a payload decoder can have its value; only a larger one is handed out in pieces
    if (valueSize <= this.window) {
      rec.value = pieces.next() ?? Buffer.alloc(0)
      return rec
    }
    rec.valueSize = valueSize
    rec.valuePieces = pieces
    return rec
  }

  /** bytes record at buf[at] takes with its length varint (5 when the varint does not parse: next() reports it) */
  private peekLength(at: number): number {
    const b = this.w.buf
    let v = 0
    for (let k = 0; k < 5 && at + k < this.w.len; k++) {
      const x = b[at + k]!
      v |= (x & 0x7f) << (7 * k)
      if ((x & 0x80) === 0) {
        const n = (v >>> 1) ^ -(v & 1)
        return n > 0 ? k + 1 + n : 5
      }
    }
    return 5
  }
}

// A value read in pieces from a seekable stream (its own piece buffer: the window stays as it is).
class StreamValue implements ValuePieces {
  private at: number
  private readonly piece: Buffer

  constructor(
    private readonly input: ByteStream,
    private readonly from: number,
    readonly size: number,
    window: number,
  ) {
    this.at = from
    this.piece = Buffer.allocUnsafe(Math.min(window, Math.max(1, size)))
  }

  next(): Buffer | null {
    const left = this.from + this.size - this.at
    if (left <= 0) return null
    this.input.seek!(this.at)
    const k = this.input.readInto(this.piece, 0, Math.min(left, this.piece.length))
    if (k === 0) return null
    this.at += k
    return this.piece.subarray(0, k)
  }
}
