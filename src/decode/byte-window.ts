// A rolling window over a ByteStream (payload-stream.ts): the bytes from the entry being read on, moved to
// the front and refilled as the reader advances, grown only when one entry is larger than the window.
// Readers keep indexes into `buf`; `onMove(buf, shift)` tells them when what was at `shift` moved to 0.
import type { ByteStream } from './payload-stream.js'

export class ByteWindow {
  buf: Buffer
  /** valid bytes in buf */
  len = 0
  /** stream offset of buf[0] */
  streamAt = 0
  /** something else read from a seekable stream: seek back to the window's end before the next fill */
  reposition = false

  /** @param total the stream's length, when known (Infinity: until it ends) */
  constructor(
    private readonly input: ByteStream,
    private readonly total: number,
    capacity: number,
    private readonly onMove: (buf: Buffer, shift: number) => void = () => {},
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(1, Math.min(capacity, total)))
  }

  /** the stream holds nothing past the window */
  get atEnd(): boolean {
    return this.streamAt + this.len >= this.total
  }

  /** Make buf[from, from + n) valid, or as much as the stream has. Returns the bytes valid from `from`. */
  ensure(from: number, n: number): number {
    const stop = Math.min(from + n, this.total - this.streamAt)
    if (stop <= this.len) return this.len - from
    if (from > 0) {
      this.drop(from) // keep from `from` on: the entry being read starts there
      return this.ensure(0, n)
    }
    if (stop > this.buf.length) {
      const grown = Buffer.allocUnsafe(Math.max(stop, Math.min(this.total - this.streamAt, this.buf.length * 2)))
      this.buf.copy(grown, 0, 0, this.len)
      this.buf = grown
      this.onMove(grown, 0)
    }
    if (this.reposition) {
      this.input.seek!(this.streamAt + this.len)
      this.reposition = false
    }
    const fill = Math.min(this.buf.length, this.total - this.streamAt)
    while (this.len < stop) {
      const k = this.input.readInto(this.buf, this.len, fill - this.len)
      if (k === 0) break
      this.len += k
    }
    return this.len
  }

  /** Continue the window at buffer index `at` (which becomes 0); past what it holds, by a seek (a seekable stream). */
  moveTo(at: number): void {
    if (at <= this.len) {
      this.drop(at)
      return
    }
    const offset = this.streamAt + at
    this.onMove(this.buf, at)
    this.streamAt = offset
    this.len = 0
    this.input.seek!(offset)
  }

  // what was at `from` moves to 0
  private drop(from: number): void {
    if (from === 0) return
    this.buf.copy(this.buf, 0, from, this.len)
    this.len -= from
    this.streamAt += from
    this.onMove(this.buf, from)
  }
}
