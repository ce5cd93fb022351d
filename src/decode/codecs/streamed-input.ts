// The compressed input of a streamed codec (snappy chunks, lz4 blocks, zstd frames): read forward through one
// buffer that holds what is being looked at, so a codec's framing can be walked without the input in memory.
// And the ByteStreams the codecs share: a buffer's bytes, and a codec's output counted against the budget (here,
// below decode/payload-stream.ts, so that a codec can use them: gzip's whole path falls back to its stream).
import type { ByteStream, Codec, DecompressContext } from './codec.js'
import { CodecError } from './codec-error.js'

/** the compressed input, read forward through a buffer that holds what is being looked at */
export class StreamedInput {
  pos = 0
  readonly length: number
  private buf = Buffer.allocUnsafe(64 * 1024)
  private at = 0
  private len = 0

  constructor(private readonly s: ByteStream) {
    if (s.length === undefined) throw new Error('a streamed codec needs the input length')
    this.length = s.length
  }

  /** input bytes [pos, pos + n) (n at most what is left), a view valid until the next call */
  peek(n: number): Buffer {
    const o = this.pos - this.at
    // o < 0: a position before the buffer (a walk that goes back to a frame's first block)
    if (o < 0 || o + n > this.len) {
      const keep = o < 0 ? 0 : Math.max(0, this.len - o)
      // the bytes kept move to the front, of a larger buffer when n does not fit (copied from the old one)
      const into = n > this.buf.length ? Buffer.alloc(n) : this.buf
      if (keep > 0) this.buf.copy(into, 0, o, this.len)
      this.buf = into
      this.at = this.pos
      this.len = keep
      if (keep === 0) this.s.seek?.(this.pos)
      while (this.len < n) {
        const k = this.s.readInto(this.buf, this.len, Math.min(this.buf.length, this.length - this.at) - this.len)
        if (k === 0) break
        this.len += k
      }
      return this.buf.subarray(0, n)
    }
    return this.buf.subarray(o, o + n)
  }

  skip(n: number): void {
    this.pos += n
  }
}

/** A codec stream that decodes one block at a time into `out` (nextBlock) and hands it out in pieces. */
export abstract class BlockStream implements ByteStream {
  protected out: Buffer = Buffer.alloc(0)
  protected outLen = 0
  private outAt = 0

  /** decode the next block into out[0, outLen); false at the end */
  protected abstract nextBlock(): boolean

  readInto(target: Buffer, at: number, max: number): number {
    let n = 0
    while (n < max) {
      if (this.outAt === this.outLen) {
        if (!this.nextBlock()) break
        this.outAt = 0
        continue
      }
      const k = Math.min(max - n, this.outLen - this.outAt)
      this.out.copy(target, at + n, this.outAt, this.outAt + k)
      this.outAt += k
      n += k
    }
    return n
  }
}

/** bytes of a buffer */
export class MemoryBytes implements ByteStream {
  private at = 0
  readonly length: number
  constructor(private readonly bytes: Uint8Array) {
    this.length = bytes.length
  }
  readInto(target: Buffer, at: number, max: number): number {
    const n = Math.min(max, this.bytes.length - this.at)
    target.set(this.bytes.subarray(this.at, this.at + n), at)
    this.at += n
    return n
  }

  seek(offset: number): void {
    this.at = offset
  }
}

/** a codec's output over a compressed ByteStream, counted against `maxBytes` (CodecError DECOMPRESSED_TOO_LARGE past it) */
export class InflatedBytes implements ByteStream {
  /** output bytes so far */
  total = 0
  private readonly out: ByteStream

  constructor(
    private readonly codec: Codec,
    input: ByteStream,
    private readonly maxBytes: number,
    ctx: DecompressContext,
  ) {
    if (codec.stream === undefined) throw new Error(`${codec.name} cannot stream`)
    this.out = codec.stream(input, ctx, maxBytes)
  }

  readInto(target: Buffer, at: number, max: number): number {
    // one byte past the budget is enough to know it is exceeded
    const n = this.out.readInto(target, at, Math.min(max, this.maxBytes + 1 - this.total))
    this.total += n
    if (this.total > this.maxBytes)
      throw new CodecError('DECOMPRESSED_TOO_LARGE', `${this.codec.name} output exceeds ${this.maxBytes} bytes`)
    return n
  }
}
