// DecodeError lives in bytes/ because the bounds-checked ByteReader throws it; decoders import it from here.
export type { DecodeContext, DecodeErrorCode } from '../bytes/decode-error.js'
export { DecodeError } from '../bytes/decode-error.js'
