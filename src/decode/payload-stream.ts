// The records bytes of a v2 batch (or the value of a legacy wrapper) as a stream, for payloads larger than
// a read window: raw bytes read from the source a window at a time, or a codec's output inflated straight
// into the reader's window. Memory is that window, whatever the payload size; the decompression budget
// then bounds time and output, not memory.
import type { ByteStream, Codec, DecompressContext } from './codecs/index.js'
import type { SegmentSource } from './segment-source.js'

export type { ByteStream }

/** bytes [from, to) of a source, by positional reads */
export class SourceBytes implements ByteStream {
  private at: number
  readonly length: number
  constructor(
    private readonly source: SegmentSource,
    private readonly from: number,
    private readonly to: number,
  ) {
    this.at = from
    this.length = to - from
  }
  readInto(target: Buffer, at: number, max: number): number {
    const n = Math.min(max, this.to - this.at)
    if (n <= 0) return 0
    const got = this.source.readInto(at === 0 ? target : target.subarray(at), this.at, n)
    this.at += got
    return got
  }

  seek(offset: number): void {
    this.at = this.from + offset
  }
}

export { InflatedBytes, MemoryBytes } from './codecs/streamed-input.js'
import { InflatedBytes } from './codecs/streamed-input.js'

/** The length of a stream, read to its end through a scratch buffer (nothing kept). @throws CodecError */
export function streamLength(s: ByteStream, scratch: Buffer): number {
  let total = 0
  for (let k = s.readInto(scratch, 0, scratch.length); k > 0; k = s.readInto(scratch, 0, scratch.length)) total += k
  return total
}

/**
 * The decompressed length of `compressed` (read to its end; seek it back to 0 to read it again): from the
 * codec's framing when it has such a walk, else by inflating it once. @throws CodecError
 */
export function decompressedLength(
  codec: Codec,
  compressed: ByteStream,
  maxBytes: number,
  ctx: DecompressContext,
): number {
  if (codec.streamLength !== undefined) return codec.streamLength(compressed, maxBytes, ctx)
  return streamLength(new InflatedBytes(codec, compressed, maxBytes, ctx), Buffer.allocUnsafe(64 * 1024))
}
