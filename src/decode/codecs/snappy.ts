// snappy (attribute id 2). Java producers write snappy-java's *xerial* framing (SnappyOutputStream):
//
//   header: 82 53 4E 41 50 50 59 00 | version int32 BE | minCompatibleVersion int32 BE
//   chunks: { compressedLength int32 BE, raw snappy block }*
//
// SnappyInputStream falls back to one raw snappy block when the header is absent (kafkajs and
// librdkafka may write raw snappy), and accepts a new header where a chunk length is expected
// (concatenated streams). A raw block is: uncompressed length (unsigned varint, <= 32 bits), then
// elements tagged by the low 2 bits: 00 literal, 01 copy with 11-bit offset, 10 copy with 16-bit
// offset, 11 copy with 32-bit offset (github.com/google/snappy format_description.txt).
//
// The block decoder is our own rather than snappyjs's: snappyjs never checks that the output
// length matches the declared one, so a corrupt block comes back zero-padded instead of rejected.
import type { ByteStream, Codec } from './codec.js'
import { CodecError } from './codec-error.js'
import { BlockStream, StreamedInput } from './streamed-input.js'

const XERIAL_MAGIC = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00])
const XERIAL_HEADER_SIZE = 16
/** the first 4 magic bytes read as an int32 where a chunk length was expected: a concatenated stream */
const XERIAL_MAGIC_HEAD = XERIAL_MAGIC.readInt32BE(0)
/** a 3-byte copy element yields at most 64 bytes, so no block expands by more than 64/3 */
const MAX_EXPANSION = 22

interface Chunk {
  start: number
  end: number
  dataStart: number
  length: number
}

function fail(msg: string): never {
  throw new CodecError('DECOMPRESS_FAILED', `snappy: ${msg}`)
}

function isXerial(b: Buffer, pos: number): boolean {
  return b.length - pos >= XERIAL_HEADER_SIZE && XERIAL_MAGIC.equals(b.subarray(pos, pos + 8))
}

/**
 * The uncompressed-length varint of a raw block b[start, end), checked against what the block can expand
 * to; `base` is the input position of b[0] (a view of a streamed input), for the messages and the result.
 */
function blockHeader(b: Buffer, start: number, end: number, base = 0): Chunk {
  let length = 0
  let pos = start
  for (let shift = 0; ; shift += 7) {
    if (pos >= end || shift > 28) fail(`bad uncompressed-length varint at byte ${base + start}`)
    const c = b[pos++]!
    length += (c & 0x7f) * 2 ** shift
    if (c < 0x80) break
  }
  if (length > 0xffffffff || length > (end - pos) * MAX_EXPANSION) {
    fail(`block at byte ${base + start} declares ${length} bytes from ${end - pos} compressed bytes`)
  }
  return { start: base + start, end: base + end, dataStart: base + pos, length }
}

function xerialChunks(input: Buffer): Chunk[] {
  const chunks: Chunk[] = []
  let pos = XERIAL_HEADER_SIZE
  while (pos < input.length) {
    if (pos + 4 > input.length) fail(`chunk length at byte ${pos} truncated`)
    const n = input.readInt32BE(pos)
    if (n === XERIAL_MAGIC_HEAD && isXerial(input, pos)) {
      pos += XERIAL_HEADER_SIZE
      continue
    }
    if (n <= 0 || pos + 4 + n > input.length)
      fail(`chunk at byte ${pos} declares ${n} bytes, ${input.length - pos - 4} left`)
    chunks.push(blockHeader(input, pos + 4, pos + 4 + n))
    pos += 4 + n
  }
  return chunks
}

/**
 * Decode the elements of a raw snappy block `src[ip, iend)` into exactly `dst[op, oend)`.
 * Returns false on any inconsistency (including output shorter or longer than declared).
 */
function decodeSnappyElements(src: Buffer, ip: number, iend: number, dst: Buffer, op: number, oend: number): boolean {
  const ostart = op
  while (ip < iend) {
    const tag = src[ip++]!
    const type = tag & 3
    let len: number
    if (type === 0) {
      len = (tag >>> 2) + 1
      if (len > 60) {
        const extra = len - 60
        if (ip + extra > iend) return false
        len = 0
        for (let i = extra - 1; i >= 0; i--) len = len * 256 + src[ip + i]!
        len += 1
        ip += extra
      }
      if (ip + len > iend || op + len > oend) return false
      if (len < 64) {
        for (let i = 0; i < len; i++) dst[op + i] = src[ip + i]!
      } else {
        src.copy(dst, op, ip, ip + len) // Buffer.copy: no view object per literal run
      }
      ip += len
      op += len
      continue
    }
    let offset: number
    if (type === 1) {
      if (ip >= iend) return false
      len = ((tag >>> 2) & 7) + 4
      offset = ((tag >>> 5) << 8) | src[ip++]!
    } else if (type === 2) {
      if (ip + 2 > iend) return false
      len = (tag >>> 2) + 1
      offset = src[ip]! | (src[ip + 1]! << 8)
      ip += 2
    } else {
      if (ip + 4 > iend) return false
      len = (tag >>> 2) + 1
      offset = (src[ip]! | (src[ip + 1]! << 8) | (src[ip + 2]! << 16) | (src[ip + 3]! << 24)) >>> 0
      ip += 4
    }
    if (offset === 0 || offset > op - ostart || op + len > oend) return false
    const from = op - offset
    for (let i = 0; i < len; i++) dst[op + i] = dst[from + i]!
    op += len
  }
  return op === oend
}

export const snappy: Codec = {
  id: 2,
  name: 'snappy',
  decompress(input, maxBytes) {
    const chunks = isXerial(input, 0) ? xerialChunks(input) : [blockHeader(input, 0, input.length)]
    let total = 0
    for (const c of chunks) total += c.length
    // Every declared length is checked before anything is allocated.
    if (total > maxBytes) throw tooLarge(total, maxBytes)
    // Every byte of `out` is written below, or the call throws: allocUnsafe memory never escapes.
    const out = Buffer.allocUnsafe(total)
    let op = 0
    for (const c of chunks) {
      if (!decodeSnappyElements(input, c.dataStart, c.end, out, op, op + c.length))
        fail(`corrupt block at byte ${c.start}`)
      op += c.length
    }
    return out
  },
  stream(input) {
    return new XerialStream(input)
  },
  streamLength(input, maxBytes) {
    let total = 0
    for (const c of streamedChunks(new StreamedInput(input))) total += c.length
    if (total > maxBytes) throw tooLarge(total, maxBytes)
    // then every block decoded (into one scratch buffer), as decompress does before any record is read: a
    // corrupt block is DECOMPRESS_FAILED for the batch, not a record error after some records were printed
    if (input.seek === undefined) return total // a forward-only input is walked once (a new StreamedInput seeks to 0)
    const r = new StreamedInput(input)
    let scratch = Buffer.alloc(0)
    for (const c of streamedChunks(r)) {
      r.pos = c.start
      const block = r.peek(c.end - c.start)
      if (c.length > scratch.length) scratch = Buffer.allocUnsafe(c.length)
      if (!decodeSnappyElements(block, c.dataStart - c.start, block.length, scratch, 0, c.length))
        fail(`corrupt block at byte ${c.start}`)
    }
    return total
  },
}

function tooLarge(total: number, maxBytes: number): CodecError {
  return new CodecError('DECOMPRESSED_TOO_LARGE', `snappy output of ${total} bytes exceeds ${maxBytes}`)
}

// A streamed payload (larger than the read window) is decoded one xerial chunk at a time: the chunks are
// independent blocks. Memory is one chunk and its output (snappy-java writes 32 KiB chunks); a raw block
// (no xerial header) is one block, held whole as before.

/**
 * The most a raw block (one block, no xerial framing) may declare when streamed: it is decoded whole, so this
 * bounds the memory of a deep dump (a raw-snappy bomb declaring 255 MiB peaked at 346 MiB). Kafka's producers
 * write xerial chunks of 32 KiB; a raw block this large is a bomb or a very unusual client.
 */
export const RAW_BLOCK_MAX = 64 * 1024 * 1024

/** xerialChunks over a streamed input, the same checks in the same order; each chunk's bytes are then at pos */
function* streamedChunks(r: StreamedInput): Generator<Chunk> {
  const L = r.length
  if (!isXerial(r.peek(Math.min(XERIAL_HEADER_SIZE, L)), 0)) {
    const c = blockHeader(r.peek(Math.min(5, L)), 0, L)
    if (c.length > RAW_BLOCK_MAX) {
      throw new CodecError(
        'DECOMPRESSED_TOO_LARGE',
        `snappy: a raw block (no xerial framing) declares ${c.length} bytes; it is decoded whole, and tsdump holds at most ${RAW_BLOCK_MAX} bytes of one block`,
      )
    }
    yield c
    return
  }
  r.skip(XERIAL_HEADER_SIZE)
  while (r.pos < L) {
    const pos = r.pos
    if (pos + 4 > L) fail(`chunk length at byte ${pos} truncated`)
    const n = r.peek(4).readInt32BE(0)
    if (n === XERIAL_MAGIC_HEAD && isXerial(r.peek(Math.min(XERIAL_HEADER_SIZE, L - pos)), 0)) {
      r.skip(XERIAL_HEADER_SIZE)
      continue
    }
    if (n <= 0 || pos + 4 + n > L) fail(`chunk at byte ${pos} declares ${n} bytes, ${L - pos - 4} left`)
    r.skip(4)
    const c = blockHeader(r.peek(Math.min(5, n)), 0, n, pos + 4)
    yield c
    r.pos = c.end
  }
}

class XerialStream extends BlockStream {
  private readonly chunks: Generator<Chunk>
  private readonly r: StreamedInput

  constructor(input: ByteStream) {
    super()
    this.r = new StreamedInput(input)
    this.chunks = streamedChunks(this.r)
  }

  protected nextBlock(): boolean {
    const next = this.chunks.next()
    if (next.done === true) return false
    const c = next.value
    // the block's bytes are at c.start (the raw-block case starts at 0)
    this.r.pos = c.start
    const block = this.r.peek(c.end - c.start)
    if (c.length > this.out.length) this.out = Buffer.allocUnsafe(c.length)
    if (!decodeSnappyElements(block, c.dataStart - c.start, block.length, this.out, 0, c.length))
      fail(`corrupt block at byte ${c.start}`)
    this.outLen = c.length
    return true
  }
}
