// Codecs report problems without knowing file positions; decodeRecords attaches the batch position.
export type CodecErrorCode = 'UNSUPPORTED_CODEC' | 'DECOMPRESS_FAILED' | 'DECOMPRESSED_TOO_LARGE'

export class CodecError extends Error {
  override readonly name = 'CodecError'
  constructor(
    readonly code: CodecErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options)
  }
}
