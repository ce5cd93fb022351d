// gzip (attribute id 1): RFC 1952, possibly several members (java.util.zip.GZIPInputStream reads them all).
import * as zlib from 'node:zlib'
import type { Codec } from './codec.js'
import { CodecError } from './codec-error.js'

export const gzip: Codec = {
  id: 1,
  name: 'gzip',
  decompress (input, maxBytes) {
    try {
      // gunzipSync continues across concatenated members; maxOutputLength bounds a decompression bomb.
      return zlib.gunzipSync(input, { maxOutputLength: Math.max(1, maxBytes) })
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        throw new CodecError('DECOMPRESSED_TOO_LARGE', `gzip output exceeds ${maxBytes} bytes`, { cause: e })
      }
      throw new CodecError('DECOMPRESS_FAILED', `gzip: ${err.message}`, { cause: e })
    }
  },
}
