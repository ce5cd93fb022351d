export interface DecompressContext {
  /** message format of the batch: lz4 ignores the frame header checksum for magic 0 (KAFKA-3160 quirk) */
  magic: number
}

export interface Codec {
  /** attribute id: 1 gzip, 2 snappy, 3 lz4, 4 zstd */
  readonly id: number
  readonly name: string
  /**
   * Decompress a whole batch payload. Output larger than maxBytes is a CodecError('DECOMPRESSED_TOO_LARGE'),
   * never an out-of-memory crash; a corrupt stream is CodecError('DECOMPRESS_FAILED').
   */
  decompress(input: Buffer, maxBytes: number, ctx: DecompressContext): Buffer
  /**
   * The decompressed bytes of a compressed stream, pulled window by window (decode/payload-stream.ts), for
   * payloads larger than a read window; absent when the codec has none (its payloads are decompressed whole).
   * maxBytes is the budget the output is counted against (InflatedBytes): zstd sizes its window by it.
   */
  stream?(input: ByteStream, ctx: DecompressContext, maxBytes: number): ByteStream
  /**
   * With stream: the decompressed length, with every check and message `decompress` makes, in its order
   * (framing, then the budget, then the blocks' contents: snappy decodes each block into a scratch buffer
   * here, since a corrupt block must fail the batch before any record is read). Absent: the stream is
   * inflated once to learn it.
   */
  streamLength?(input: ByteStream, maxBytes: number, ctx: DecompressContext): number
}

/** Bytes pulled in order: raw bytes of a file range, a buffer, or a codec's output. */
export interface ByteStream {
  /** Copy up to `max` next bytes into target[at...]; fewer only at the end (0: nothing left). @throws CodecError */
  readInto(target: Buffer, at: number, max: number): number
  /** random access (raw bytes of a seekable source, a buffer): continue from stream offset `offset` */
  seek?(offset: number): void
  /** the stream's length, when known (raw bytes) */
  readonly length?: number
}
