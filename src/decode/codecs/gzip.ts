// gzip (attribute id 1): RFC 1952, possibly several members (java.util.zip.GZIPInputStream reads them all).
// Whole payloads go through node:zlib. A payload larger than a read window is inflated as a stream by
// pako's zlib port (pure JS, zlib's messages), driven through its low-level API so that it inflates straight
// into the reader's window: no output queue, no buffer per chunk. Node's zlib has no synchronous
// incremental API and the dump loop is synchronous. Measured on 100 MiB of base64 text in 16 KiB pieces:
// pako 0.96 s CPU, zlib one-shot 0.41 s; only payloads past one window pay it.
import type * as Zlib from 'node:zlib'
import { createRequire } from 'node:module'
import type * as Pako from 'pako'
import type { ByteStream, Codec } from './codec.js'
import { CodecError } from './codec-error.js'
import { InflatedBytes, MemoryBytes } from './streamed-input.js'

// pako is loaded at the first streamed payload, through its CommonJS build (a synchronous load, as the dump
// loop is): loading it costs 6-9 ms, which every command paid at start-up though few inputs stream gzip.
let pako: typeof Pako | undefined
const loadPako = (): typeof Pako => (pako ??= createRequire(import.meta.url)('pako') as typeof Pako)
// node:zlib likewise at the first gzip payload: loading it cost every start-up about 2 ms (bench/RESULTS-startup.md)
let zlib: typeof Zlib | undefined
const loadZlib = (): typeof Zlib => (zlib ??= createRequire(import.meta.url)('node:zlib') as typeof Zlib)

export const gzip: Codec = {
  id: 1,
  name: 'gzip',
  decompress(input, maxBytes, ctx) {
    try {
      // gunzipSync continues across concatenated members; maxOutputLength bounds a decompression bomb.
      return loadZlib().gunzipSync(input, { maxOutputLength: Math.max(1, maxBytes) })
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      if (err.code === 'ERR_BUFFER_TOO_LARGE' || err instanceof RangeError) {
        throw new CodecError('DECOMPRESSED_TOO_LARGE', `gzip output exceeds ${maxBytes} bytes`, { cause: e })
      }
      // zlib goes on into any non-zero byte after a member and fails there; java.util.zip.GZIPInputStream (what
      // Kafka's consumers read with) ends the stream at bytes that do not start another member. The stream decoder
      // keeps Java's rule, so it decides a failed whole inflate: data, or the error Java would meet.
      return inflateAll(new InflatedBytes(gzip, new MemoryBytes(input), maxBytes, ctx))
    }
  },
  stream(input) {
    return new GunzipStream(input)
  },
}

const Z_OK = 0
const Z_STREAM_END = 1
const Z_BUF_ERROR = -5
/** windowBits 15 + 16: a gzip wrapper (not zlib, not raw), as gunzip */
const GZIP_WINDOW_BITS = 31
/** a member header's first bytes: ID1, ID2, CM = deflate */
const GZIP_ID1 = 0x1f
const GZIP_ID2 = 0x8b
const CM_DEFLATE = 8
/**
 * GZIPInputStream.readTrailer looks for another member only when more than 26 bytes are left from the trailer's
 * start (or its source has more than its buffer holds): 18 after the 8-byte trailer
 */
const MIN_NEXT_MEMBER = 19
/** compressed bytes handed to inflate at a time */
const PIECE = 16 * 1024

class GunzipStream implements ByteStream {
  private readonly z = loadPako()
  private readonly strm = new this.z.ZStream()
  private readonly piece = Buffer.allocUnsafe(PIECE)
  private inputDone = false
  private ended = false

  constructor(private readonly input: ByteStream) {
    this.z.zlibInflateInit2(this.strm, GZIP_WINDOW_BITS)
    this.strm.avail_in = 0
  }

  /** more input after the bytes not yet inflated, which move to the front of the piece */
  private refill(): void {
    const strm = this.strm
    const keep = strm.avail_in
    if (keep > 0) this.piece.copy(this.piece, 0, strm.next_in, strm.next_in + keep)
    const k = this.input.readInto(this.piece, keep, PIECE - keep)
    this.inputDone = k < PIECE - keep
    strm.input = this.piece
    strm.next_in = 0
    strm.avail_in = keep + k
  }

  /**
   * After a member: does another one start here? As java.util.zip.GZIPInputStream.readTrailer decides it: enough
   * bytes left, and a header its readHeader accepts (the magic and deflate; anything else ends the stream quietly).
   * Checked against JDK 17 (test/decode/gzip-members.test.ts).
   */
  private memberFollows(): boolean {
    const strm = this.strm
    if (strm.avail_in < MIN_NEXT_MEMBER && !this.inputDone) this.refill()
    const b = strm.input
    const i = strm.next_in
    return strm.avail_in >= MIN_NEXT_MEMBER && b[i] === GZIP_ID1 && b[i + 1] === GZIP_ID2 && b[i + 2] === CM_DEFLATE
  }

  readInto(target: Buffer, at: number, max: number): number {
    const strm = this.strm
    let n = 0
    while (n < max && !this.ended) {
      if (strm.avail_in === 0 && !this.inputDone) this.refill()
      strm.output = target as Uint8Array<ArrayBuffer>
      strm.next_out = at + n
      strm.avail_out = max - n
      const status = this.z.zlibInflate(strm, 0)
      const made = strm.next_out - at - n
      n += made
      if (status === Z_STREAM_END) {
        if (this.memberFollows()) this.z.zlibInflateReset(strm)
        else this.ended = true
      } else if (status !== Z_OK && status !== Z_BUF_ERROR) {
        throw new CodecError('DECOMPRESS_FAILED', `gzip: ${strm.msg}`)
      } else if (made === 0 && strm.avail_in === 0 && this.inputDone) {
        throw new CodecError('DECOMPRESS_FAILED', 'gzip: unexpected end of file')
      }
    }
    return n
  }
}

/** everything `s` gives (an InflatedBytes: counted against the budget) */
function inflateAll(s: ByteStream): Buffer {
  const parts: Buffer[] = []
  let total = 0
  for (;;) {
    const chunk = Buffer.allocUnsafe(64 * 1024)
    const k = s.readInto(chunk, 0, chunk.length)
    if (k === 0) break
    total += k
    parts.push(k === chunk.length ? chunk : chunk.subarray(0, k))
  }
  return Buffer.concat(parts, total)
}
