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
}
