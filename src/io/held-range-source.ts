// A file some of whose bytes, [from, from + held.length), were read already and are held: reads inside them are
// answered from memory, the rest read from the file. The dump's index checks read the log through it where the dump
// stopped at damage (--compat, --no-resync): the bytes its read window held past the damage, which it frames no more
// but kafka-dump-log's index check frames at the entries' positions.
import type { SegmentSource } from '../decode/segment-source.js'

export class HeldRangeSource implements SegmentSource {
  bytesRead = 0

  constructor(
    private readonly file: SegmentSource,
    private readonly from: number,
    private readonly held: Buffer,
  ) {}

  get name(): string {
    return this.file.name
  }

  get size(): number {
    return this.file.size
  }

  readAt(position: number, length: number): Buffer {
    const buf = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - position)))
    return buf.subarray(0, this.readInto(buf, position, buf.length))
  }

  readInto(target: Buffer, position: number, length: number): number {
    const want = Math.max(0, Math.min(length, target.length, this.size - position))
    const to = this.from + this.held.length
    let n = 0
    while (n < want) {
      const p = position + n
      if (p >= this.from && p < to) {
        const k = Math.min(want - n, to - p)
        this.held.copy(target, n, p - this.from, p - this.from + k) // copy: the caller's buffer
        n += k
        continue
      }
      const end = p < this.from ? Math.min(position + want, this.from) : position + want
      const k = this.file.readInto(target.subarray(n), p, end - p)
      n += k
      if (k < end - p) break
    }
    this.bytesRead += n
    return n
  }

  /** the file is the caller's to close */
  close(): void {}
}
