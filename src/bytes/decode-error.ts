// Every decoding problem carries a stable code and the absolute byte position where it was found.
// It sits in bytes/ (the lowest layer) because ByteReader, the first thrower, must not import decode/;
// the codes are the decode layer's vocabulary (each is also a finding code, analysis/findings.ts).

export type DecodeErrorCode =
  | 'TRUNCATED'
  | 'BAD_LENGTH'
  | 'BAD_MAGIC'
  | 'CRC_MISMATCH'
  | 'VARINT_TOO_LONG'
  | 'UNSUPPORTED_CODEC'
  | 'DECOMPRESS_FAILED'
  | 'DECOMPRESSED_TOO_LARGE'
  | 'ZSTD_WINDOW_TOO_LARGE'
  | 'RECORD_COUNT_MISMATCH'
  | 'BAD_CONTROL_RECORD'
  | 'BAD_RECORD'

export interface DecodeContext {
  batchPosition?: number
  baseOffset?: bigint
  recordIndex?: number
  field?: string
}

/**
 * A problem in the input, never a tsdump bug: it becomes a finding (code, position, message), so its stack is not
 * captured. That capture was most of the cost of a damaged batch (1 M batches with bad CRCs: 8.8 s of a worker's
 * 33 s); TSDUMP_DEBUG keeps it.
 */
export class DecodeError extends Error {
  override readonly name = 'DecodeError'
  constructor(
    readonly code: DecodeErrorCode,
    message: string,
    readonly position: number,
    readonly context: DecodeContext = {},
    options?: ErrorOptions,
  ) {
    const limit = Error.stackTraceLimit
    if (!KEEP_STACKS) Error.stackTraceLimit = 0
    super(message, options)
    Error.stackTraceLimit = limit
  }
}

const KEEP_STACKS = process.env.TSDUMP_DEBUG !== undefined
