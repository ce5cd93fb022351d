// The records bytes of a v2 batch (or the value of a legacy wrapper) as a stream, for payloads larger than
// a read window: raw bytes read from the source a window at a time, or a codec's output pushed piece by
// piece. Memory is one window plus what one input piece can inflate to (deflate's ratio is at most ~1032,
// so an 8 KiB piece gives at most ~8.3 MiB), whatever the payload size; the decompression budget then
// bounds time and output, not memory.
import type { Codec, DecompressContext, StreamDecompressor } from './codecs/index.js'
import { CodecError } from './codecs/index.js'
import type { SegmentSource } from './segment-source.js'

export interface ByteStream {
  /** Copy up to `max` next bytes into target[at...]; 0 only at the end. @throws CodecError */
  readInto (target: Buffer, at: number, max: number): number
  /** random access (raw bytes of a seekable source): continue from stream offset `offset` */
  seek? (offset: number): void
}

/** bytes [from, to) of a source, by positional reads */
export class SourceBytes implements ByteStream {
  private at: number
  constructor (private readonly source: SegmentSource, private readonly from: number, private readonly to: number) { this.at = from }
  readInto (target: Buffer, at: number, max: number): number {
    const n = Math.min(max, this.to - this.at)
    if (n <= 0) return 0
    const got = this.source.readInto(at === 0 ? target : target.subarray(at), this.at, n)
    this.at += got
    return got
  }

  seek (offset: number): void { this.at = this.from + offset }
}

/** bytes of a buffer */
export class MemoryBytes implements ByteStream {
  private at = 0
  constructor (private readonly bytes: Uint8Array) {}
  readInto (target: Buffer, at: number, max: number): number {
    const n = Math.min(max, this.bytes.length - this.at)
    target.set(this.bytes.subarray(this.at, this.at + n), at)
    this.at += n
    return n
  }

  seek (offset: number): void { this.at = offset }
}

/** input piece pushed into the decompressor at a time: bounds what one push can produce */
const PIECE = 8 * 1024

/** a codec's output over a compressed ByteStream, counted against `maxBytes` (CodecError DECOMPRESSED_TOO_LARGE past it) */
export class InflatedBytes implements ByteStream {
  /** output bytes so far */
  total = 0
  private readonly queue: Uint8Array[] = []
  private qi = 0
  private qoff = 0
  private readonly piece = Buffer.allocUnsafe(PIECE)
  private readonly dec: StreamDecompressor
  private inputDone = false

  constructor (private readonly codec: Codec, private readonly input: ByteStream, private readonly maxBytes: number, ctx: DecompressContext) {
    if (codec.stream === undefined) throw new Error(`${codec.name} cannot stream`)
    this.dec = codec.stream((chunk) => {
      this.total += chunk.length
      if (this.total > this.maxBytes) throw new CodecError('DECOMPRESSED_TOO_LARGE', `${this.codec.name} output exceeds ${this.maxBytes} bytes`)
      this.queue.push(chunk)
    }, ctx)
  }

  readInto (target: Buffer, at: number, max: number): number {
    let n = 0
    while (n < max) {
      if (this.qi === this.queue.length) {
        if (this.inputDone) break
        this.queue.length = 0; this.qi = 0
        const k = this.input.readInto(this.piece, 0, PIECE)
        this.inputDone = k < PIECE
        this.dec.push(this.piece.subarray(0, k), this.inputDone)
        continue
      }
      const c = this.queue[this.qi]!
      const k = Math.min(max - n, c.length - this.qoff)
      target.set(c.subarray(this.qoff, this.qoff + k), at + n)
      n += k
      this.qoff += k
      if (this.qoff === c.length) { this.qi++; this.qoff = 0 }
    }
    return n
  }
}

/** The length of a stream, read to its end through a scratch buffer (nothing kept). @throws CodecError */
export function streamLength (s: ByteStream, scratch: Buffer): number {
  let total = 0
  for (let k = s.readInto(scratch, 0, scratch.length); k > 0; k = s.readInto(scratch, 0, scratch.length)) total += k
  return total
}
