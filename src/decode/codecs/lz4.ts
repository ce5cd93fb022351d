// lz4 (attribute id 3): the LZ4 *frame* format as Kafka reads it (KafkaLZ4BlockInputStream /
// Lz4BlockInputStream), not the whole frame spec.
//
//   magic 0x184D2204 (int32 LE) | FLG | BD | [contentSize int64 LE] | HC |
//   blocks: { size int32 LE (bit 31 = stored uncompressed), data, [XXH32(data) int32 LE] }* |
//   endMark int32 0 | [contentChecksum int32 LE]
//
// FLG: version (bits 6-7) must be 01, block independence (bit 5) must be set, bits 0-1 reserved.
// BD: bits 4-6 = max block size code 4..7 (64 KiB .. 4 MiB), other bits reserved.
// HC = (XXH32(FLG..contentSize, seed 0) >> 8) & 0xFF. Kafka's magic-0 writer hashed the wrong bytes
// (KAFKA-3160), so, like Kafka, HC is not checked for magic 0.
// Like Kafka: block checksums are verified, the content size and content checksum are skipped, and
// decoding stops at the first end mark.
//
// The block decoder is our own (about 50 lines) rather than lz4js's decompressBlock: lz4js writes
// without bounds checks, so it can neither report corruption nor stop at a byte budget.
import type { ByteStream, Codec } from './codec.js'
import { CodecError } from './codec-error.js'
import { BlockStream, StreamedInput } from './streamed-input.js'
import { xxhash32 } from './xxhash32.js'

const MAGIC = 0x184d2204
const UNCOMPRESSED_FLAG = 0x80000000
const MIN_MATCH = 4
/** a compressed LZ4 byte can expand to at most 255 output bytes (one 0xFF length-extension byte) */
const MAX_EXPANSION = 255

interface Block {
  start: number
  size: number
  compressed: boolean
}

function fail(msg: string): never {
  throw new CodecError('DECOMPRESS_FAILED', `lz4: ${msg}`)
}

function u32le(b: Buffer, i: number, what: string, length = b.length): number {
  if (i + 4 > length) fail(`${what} at byte ${i} runs past the end (${length} bytes)`)
  return b.readUInt32LE(i)
}

interface FrameHead {
  blockMax: number
  blockChecksum: boolean
  firstBlock: number
}

/** The frame header; `head` holds the input's first bytes (15 or all), `length` is the input's. */
function frameHead(head: Buffer, length: number, magic: number): FrameHead {
  if (u32le(head, 0, 'frame magic', length) !== MAGIC) fail(`bad frame magic 0x${head.readUInt32LE(0).toString(16)}`)
  if (length < 7) fail('frame descriptor truncated')
  const flg = head[4]!
  const bd = head[5]!
  if (flg >>> 6 !== 1) fail(`unsupported frame version ${flg >>> 6}`)
  if ((flg & 0x03) !== 0) fail('FLG reserved bits (or preset dictionary) set')
  if ((flg & 0x20) === 0) fail('dependent blocks are not supported (Kafka requires block independence)')
  const code = (bd >>> 4) & 0x07
  if ((bd & 0x8f) !== 0 || code < 4) fail(`bad BD byte 0x${bd.toString(16)}`)
  const descEnd = 6 + ((flg & 0x08) !== 0 ? 8 : 0)
  if (descEnd + 1 > length) fail('frame descriptor truncated')
  const hc = head[descEnd]!
  const expected = (xxhash32(head, 0, 4, descEnd) >>> 8) & 0xff
  if (magic !== 0 && hc !== expected) {
    fail(`frame descriptor checksum 0x${hc.toString(16)} != computed 0x${expected.toString(16)}`)
  }
  return { blockMax: 1 << (2 * code + 8), blockChecksum: (flg & 0x10) !== 0, firstBlock: descEnd + 1 }
}

/** bytes [pos, pos + n) of the input, a view valid until the next call */
type Read = (pos: number, n: number) => Buffer

/** Walk the block headers (checking block checksums); no output is produced. */
function* blocksOf(read: Read, length: number, h: FrameHead): Generator<Block> {
  const u32At = (at: number, what: string): number => {
    if (at + 4 > length) fail(`${what} at byte ${at} runs past the end (${length} bytes)`)
    return read(at, 4).readUInt32LE(0)
  }
  let pos = h.firstBlock
  for (;;) {
    const word = u32At(pos, 'block size')
    pos += 4
    if (word === 0) break
    const size = word & ~UNCOMPRESSED_FLAG
    if (size > h.blockMax) fail(`block at byte ${pos - 4} declares ${size} bytes, max ${h.blockMax}`)
    if (pos + size > length) fail(`block at byte ${pos - 4} (${size} bytes) runs past the end`)
    if (h.blockChecksum) {
      const stored = u32At(pos + size, 'block checksum')
      const computed = xxhash32(read(pos, size), 0, 0, size)
      if (stored !== computed)
        fail(`block checksum at byte ${pos + size}: 0x${stored.toString(16)} != 0x${computed.toString(16)}`)
    }
    yield { start: pos, size, compressed: (word & UNCOMPRESSED_FLAG) === 0 }
    pos += size + (h.blockChecksum ? 4 : 0)
  }
}

const OVERFLOW = -1
const CORRUPT = -2

/**
 * Decode one LZ4 block of `src[ip, iend)` into `dst` at `op`, writing nothing at or past `oend`.
 * Returns the new output position, OVERFLOW when the output would pass `oend`, CORRUPT otherwise.
 */
function decodeLz4Block(src: Uint8Array, ip: number, iend: number, dst: Uint8Array, op: number, oend: number): number {
  const ostart = op
  while (ip < iend) {
    const token = src[ip++]!
    let lit = token >>> 4
    if (lit === 15) {
      let b: number
      do {
        if (ip >= iend) return CORRUPT
        b = src[ip++]!
        lit += b
      } while (b === 255)
    }
    if (ip + lit > iend) return CORRUPT
    if (op + lit > oend) return OVERFLOW
    if (lit < 32) {
      for (let i = 0; i < lit; i++) dst[op + i] = src[ip + i]!
    } else {
      dst.set(src.subarray(ip, ip + lit), op)
    }
    ip += lit
    op += lit
    if (ip === iend) return op // the last sequence carries literals only
    if (ip + 2 > iend) return CORRUPT
    const offset = src[ip]! | (src[ip + 1]! << 8)
    ip += 2
    if (offset === 0 || offset > op - ostart) return CORRUPT
    let len = token & 15
    if (len === 15) {
      let b: number
      do {
        if (ip >= iend) return CORRUPT
        b = src[ip++]!
        len += b
      } while (b === 255)
    }
    len += MIN_MATCH
    if (op + len > oend) return OVERFLOW
    let from = op - offset
    if (len < 32) {
      for (let i = 0; i < len; i++) dst[op + i] = dst[from + i]!
      op += len
    } else {
      // An overlapping match repeats a period of `offset` bytes; copying the ever longer repeated
      // prefix doubles the chunk each time instead of going byte by byte.
      while (len > 0) {
        const n = Math.min(len, op - from)
        dst.copyWithin(op, from, from + n)
        op += n
        len -= n
      }
    }
  }
  return CORRUPT // an empty block, or one that ends right after a match
}

export const lz4: Codec = {
  id: 3,
  name: 'lz4',
  decompress(input, maxBytes, { magic }) {
    const h = frameHead(input, input.length, magic)
    const blockMax = h.blockMax
    const blocks = [...blocksOf((p, n) => input.subarray(p, p + n), input.length, h)]
    // Allocate what the block headers can possibly produce, never more than the budget.
    let bound = 0
    for (const b of blocks) bound += b.compressed ? Math.min(blockMax, b.size * MAX_EXPANSION) : b.size
    const out = Buffer.allocUnsafe(Math.min(bound, maxBytes))
    let op = 0
    for (const b of blocks) {
      const oend = Math.min(op + blockMax, out.length)
      if (!b.compressed) {
        if (op + b.size > out.length) throw tooLarge(maxBytes)
        input.copy(out, op, b.start, b.start + b.size)
        op += b.size
        continue
      }
      const r = decodeLz4Block(input, b.start, b.start + b.size, out, op, oend)
      if (r === CORRUPT) fail(`corrupt block at byte ${b.start - 4}`)
      if (r === OVERFLOW) {
        if (oend === out.length && out.length === maxBytes) throw tooLarge(maxBytes)
        fail(`block at byte ${b.start - 4} decodes to more than ${blockMax} bytes`)
      }
      op = r
    }
    // Only out[0, op) was written: the unwritten tail of allocUnsafe memory is never exposed.
    return out.subarray(0, op)
  },
  stream(input, { magic }) {
    return new Lz4Stream(input, magic)
  },
  streamLength(input, maxBytes, { magic }) {
    // the framing first, as decompress walks it before decoding; then the blocks decoded and counted
    const s = new Lz4Stream(input, magic, true)
    return streamLengthOf(s, maxBytes)
  },
}

// A payload past the read window is decoded one block at a time (Kafka's frames have independent blocks):
// memory is one block (at most 4 MiB) and its output.
class Lz4Stream extends BlockStream {
  private readonly r: StreamedInput
  private readonly blocks: Generator<Block>
  private readonly blockMax: number

  constructor(input: ByteStream, magic: number, walkFirst = false) {
    super()
    this.r = new StreamedInput(input)
    const L = this.r.length
    const h = frameHead(Buffer.from(this.r.peek(Math.min(15, L))), L, magic)
    this.blockMax = h.blockMax
    const read: Read = (p, n) => {
      this.r.pos = p
      return this.r.peek(n)
    }
    if (walkFirst)
      for (const _b of blocksOf(read, L, h)) {
        /* framing and block checksums only */
      }
    this.blocks = blocksOf(read, L, h)
  }

  protected nextBlock(): boolean {
    const next = this.blocks.next()
    if (next.done === true) return false
    const b = next.value
    this.r.pos = b.start
    const data = this.r.peek(b.size)
    if (!b.compressed) {
      this.out = data // a view of the input buffer, used up before the next block is read
      this.outLen = b.size
      return true
    }
    if (this.out.length < this.blockMax || this.out.buffer === data.buffer) this.out = Buffer.allocUnsafe(this.blockMax)
    const r = decodeLz4Block(data, 0, b.size, this.out, 0, this.blockMax)
    if (r === CORRUPT) fail(`corrupt block at byte ${b.start - 4}`)
    if (r === OVERFLOW) fail(`block at byte ${b.start - 4} decodes to more than ${this.blockMax} bytes`)
    this.outLen = r
    return true
  }
}

function streamLengthOf(s: ByteStream, maxBytes: number): number {
  const scratch = Buffer.allocUnsafe(64 * 1024)
  let total = 0
  for (let k = s.readInto(scratch, 0, scratch.length); k > 0; k = s.readInto(scratch, 0, scratch.length)) {
    total += k
    if (total > maxBytes) throw tooLarge(maxBytes)
  }
  return total
}

function tooLarge(maxBytes: number): CodecError {
  return new CodecError('DECOMPRESSED_TOO_LARGE', `lz4 output exceeds ${maxBytes} bytes`)
}
