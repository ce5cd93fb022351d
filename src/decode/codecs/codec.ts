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
  decompress (input: Buffer, maxBytes: number, ctx: DecompressContext): Buffer
  /**
   * A decompressor fed piece by piece, for payloads larger than a read window (decode/payload-stream.ts);
   * absent when the codec has none (its payloads are decompressed whole).
   */
  stream? (onData: (chunk: Uint8Array) => void, ctx: DecompressContext): StreamDecompressor
}

/** Push compressed pieces in order; output goes to the onData given at creation, synchronously. */
export interface StreamDecompressor {
  /** @throws CodecError DECOMPRESS_FAILED (`last`: the input ends after this piece) */
  push (input: Uint8Array, last: boolean): void
}
