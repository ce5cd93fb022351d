import type { SegmentSource } from '../decode/segment-source.js'

/** A whole input already in memory (stdin, tests). */
export class BufferSource implements SegmentSource {
  bytesRead = 0
  constructor(
    readonly buf: Buffer,
    readonly name = '<buffer>',
  ) {}
  get size(): number {
    return this.buf.length
  }
  readAt(position: number, length: number): Buffer {
    const start = Math.min(position, this.buf.length)
    const v = this.buf.subarray(start, Math.min(this.buf.length, start + length))
    this.bytesRead += v.length
    return v
  }

  readInto(target: Buffer, position: number, length: number): number {
    const v = this.readAt(position, Math.min(length, target.length))
    v.copy(target, 0)
    return v.length
  }

  close(): void {}
}
