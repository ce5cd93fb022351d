// zstd (attribute id 4, magic 2 only): RFC 8878 frames, decoded by fzstd (pure JS; Node 20's zlib has no zstd).
// The framing is walked by tsdump first (zstd-frames.ts): every check before any decoding, and a bound of each
// frame's output, so a lying header is rejected before fzstd allocates what it declares.
// - A frame with a content size is decoded by fzstd's one-shot decoder, which allocates exactly that size
//   (already checked against the budget): every frame of a whole payload, and the small ones of a streamed one.
// - Any other frame (zstd-jni's streaming writer, used by Kafka's producers, declares no content size) is
//   pushed into fzstd's streaming decoder one block at a time, so each push yields at most one block's output
//   (128 KiB; a whole frame pushed at once can emit its entire output from a few bytes of RLE blocks), counted
//   against the budget as it comes. fzstd keeps the window the frame header declares, so it is given a header
//   of tsdump's own with the window the frame can actually need: never more than its possible output or the
//   budget (a match cannot reach further back than the frame has produced), and never more than WINDOW_CAP.
//   A frame with only raw and RLE blocks needs no window: its bytes are copied or filled here.
// The same frame decoder serves the whole payload (a Buffer) and a payload larger than the read window (a
// StreamedInput, read block by block): memory is then one block, its output and the window.
// The optional XXH64 content checksum is not verified (the v2 batch CRC-32C already covers the bytes).
import { createRequire } from 'node:module'
import type * as Fzstd from 'fzstd'
import type { Decompress } from 'fzstd'
import type { ByteStream, Codec } from './codec.js'
import { blockOutputDone } from './block-garbage.js'
import { CodecError } from './codec-error.js'
import { BlockStream, StreamedInput } from './streamed-input.js'
import type { Frame, Read } from './zstd-frames.js'
import { BLOCK_RLE, blocksOf, checkFraming, fail, framesOf } from './zstd-frames.js'

// fzstd is loaded at the first zstd payload, through its CommonJS build, as pako is (gzip.ts): an ES import
// made every start-up resolve and compile it (bench/RESULTS-startup.md), and few inputs hold zstd
let fzstd: typeof Fzstd | undefined
const loadFzstd = (): typeof Fzstd => (fzstd ??= createRequire(import.meta.url)('fzstd') as typeof Fzstd)

/**
 * The largest window given to fzstd (it holds it for the whole frame and moves it on each block), so that a
 * streamed zstd batch stays under the 128 MiB promise whatever its header says. 4 MiB is windowLog 22: libzstd's
 * levels 9 to 16 for input of unknown size, as Kafka's producers write it (zstd-jni, level 3 by default:
 * windowLog 21, 2 MiB). Levels 17 to 22 declare 8 to 128 MiB, and their frames need more than the cap only when
 * they produce more than 4 MiB; such a frame is refused (DECOMPRESS_FAILED). Measured, a deep dump of one
 * 200 MiB batch (a 91 MiB payload) peaks at 114-120 MiB with a 2 MiB window, 120-126 with 4 MiB, and 127-130
 * with 8 MiB (fzstd allocates each block's output: up to ~30 MiB of it waits for the garbage collector).
 */
export const WINDOW_CAP = 4 * 1024 * 1024
/**
 * fzstd moves its whole window after every block (and allocates one per frame): a frame of millions of tiny
 * blocks costs blocks x window bytes of copying, hours for a few MiB of input. A payload may move at most this
 * many times its budget: twice what full 128 KiB blocks need with the largest window (4 MiB / 128 KiB = 32).
 * At the default budget that is 16 GiB, a few seconds.
 */
const WORK_PER_BUDGET_BYTE = 64
/** a streamed payload's frames with a content size up to this (and as many compressed bytes) are decoded in one call */
const ONE_SHOT_MAX = 1024 * 1024
/** the smallest window a descriptor can declare */
const MIN_WINDOW = 1024
const FRAME_MAGIC_LE = [0x28, 0xb5, 0x2f, 0xfd]

/** smallest window descriptor byte whose window is at least `size` */
function windowDescriptorFor(size: number): number {
  for (let exp = 0; exp < 32; exp++) {
    const base = 2 ** (10 + exp)
    for (let mantissa = 0; mantissa < 8; mantissa++) {
      if (base + (base / 8) * mantissa >= size) return (exp << 3) | mantissa
    }
  }
  return 0xff
}

function tooLarge(maxBytes: number): CodecError {
  return new CodecError('DECOMPRESSED_TOO_LARGE', `zstd output exceeds ${maxBytes} bytes`)
}

/** fzstd's own errors (corrupt block contents) become DECOMPRESS_FAILED */
function fzstdCall<T>(f: () => T): T {
  try {
    return f()
  } catch (e) {
    if (e instanceof CodecError) throw e
    throw new CodecError('DECOMPRESS_FAILED', `zstd: ${(e as Error).message}`, { cause: e })
  }
}

/**
 * The header fzstd is given for a frame: no content size, no dictionary, no checksum (tsdump skips it), and
 * the window the frame can need, at least one block (fzstd sizes its block buffer from the window).
 */
function fzstdHeader(f: Frame, budget: number): Buffer {
  return Buffer.from([...FRAME_MAGIC_LE, 0, windowDescriptorFor(windowFor(f, budget))])
}

/** the window a frame with compressed blocks is decoded with: what it can need, at least one block */
function windowFor(f: Frame, budget: number): number {
  const needed = Math.min(f.windowSize, f.maxOutput, budget)
  if (needed > WINDOW_CAP) {
    fail(
      `frame at byte ${f.start} needs a window of ${needed} bytes (declared ${f.windowSize}), more than tsdump's limit of ${WINDOW_CAP} (zstd levels 17 to 22 on batches over 4 MiB)`,
    )
  }
  return Math.max(MIN_WINDOW, f.blockMax, needed)
}

/**
 * fzstd's push leaves an empty view of each pushed chunk in its pending list, which it clears only when
 * something is pending: one object per block, without bound on a frame of millions of tiny blocks.
 */
function dropEmptyPending(d: Decompress): void {
  const p = d as unknown as { c?: unknown; l?: unknown }
  if (p.l === 0 && Array.isArray(p.c)) p.c.length = 0
}

/** The output of one frame without a one-shot decoding, block by block; `budget` is what is left of the budget. */
function* frameBlocks(read: Read, length: number, f: Frame, budget: number): Generator<Uint8Array> {
  if (!f.compressed) {
    for (const b of blocksOf(read, length, f)) {
      if (b.size === 0) continue
      // copy: a raw block's bytes are a view of the input, which a streamed read reuses
      yield b.type === BLOCK_RLE ? Buffer.alloc(b.size, read(b.at + 3, 1)[0]!) : Buffer.from(read(b.at + 3, b.size))
      blockOutputDone(b.size)
    }
    return
  }
  const out: Uint8Array[] = []
  const d = new (loadFzstd().Decompress)((chunk) => {
    if (chunk.length > 0) out.push(chunk)
  })
  let header: Buffer | undefined = fzstdHeader(f, budget)
  for (const b of blocksOf(read, length, f)) {
    let bytes = read(b.at, b.end - b.at)
    // copy: fzstd holds a first push shorter than 18 bytes until the next one, and `bytes` is a view of the input
    if (header !== undefined) {
      bytes = Buffer.concat([header, bytes])
      header = undefined
    }
    fzstdCall(() => d.push(bytes, b.last))
    dropEmptyPending(d)
    for (const c of out) {
      yield c
      blockOutputDone(c.length)
    }
    out.length = 0
  }
}

/**
 * The decompressed output of a payload in chunks (each valid until the next is asked for), counted against
 * maxBytes; frames with a content size up to `oneShotMax` are decoded in one call. The framing checks
 * (checkFraming) come first, by the caller.
 */
function* output(read: Read, length: number, maxBytes: number, oneShotMax: number): Generator<Uint8Array> {
  let total = 0
  let work = 0
  for (const f of framesOf(read, length)) {
    const declared = f.contentSize ?? 0
    if (declared > 0) {
      if (total + declared > maxBytes) throw tooLarge(maxBytes)
      if (declared <= oneShotMax && f.end - f.start <= oneShotMax) {
        // fzstd allocates exactly the declared content size here
        const frame = read(f.start, f.end - f.start)
        const one = fzstdCall(() => loadFzstd().decompress(frame))
        if (one.length !== declared)
          fail(`frame at byte ${f.start} decoded to ${one.length} bytes, declared ${declared}`)
        total += declared
        yield one
        continue
      }
    }
    if (f.compressed) {
      // the frame's window moved after each block, and allocated once: what fzstd will copy
      work += (f.blocks + 1) * windowFor(f, maxBytes - total)
      if (work > WORK_PER_BUDGET_BYTE * Math.max(maxBytes, WINDOW_CAP)) {
        throw new CodecError(
          'DECOMPRESSED_TOO_LARGE',
          `zstd frame at byte ${f.start}: ${f.blocks} blocks over a window of ${windowFor(f, maxBytes - total)} bytes would copy more than ${WORK_PER_BUDGET_BYTE} times the ${maxBytes}-byte budget`,
        )
      }
    }
    let made = 0
    for (const c of frameBlocks(read, length, f, maxBytes - total)) {
      made += c.length
      if (total + made > maxBytes) throw tooLarge(maxBytes)
      if (declared > 0 && made > declared)
        fail(`frame at byte ${f.start} decodes to more than the ${declared} bytes it declares`)
      yield c
    }
    if (declared > 0 && made !== declared)
      fail(`frame at byte ${f.start} decoded to ${made} bytes, declared ${declared}`)
    total += made
  }
}

function streamedRead(input: ByteStream): { read: Read; length: number } {
  // each frame is walked to its end, then read again from its first block: the input must seek
  if (input.seek === undefined) throw new Error('zstd: a streamed payload needs a seekable input')
  const r = new StreamedInput(input)
  return {
    read: (p, n) => {
      r.pos = p
      return r.peek(n)
    },
    length: r.length,
  }
}

export const zstd: Codec = {
  id: 4,
  name: 'zstd',
  decompress(input, maxBytes) {
    const read: Read = (p, n) => input.subarray(p, p + n)
    checkFraming(read, input.length, maxBytes)
    const parts: Uint8Array[] = []
    let total = 0
    for (const c of output(read, input.length, maxBytes, Infinity)) {
      parts.push(c)
      total += c.length
    }
    if (parts.length === 1) {
      const p = parts[0]!
      return Buffer.from(p.buffer, p.byteOffset, p.length)
    }
    // copy: several frames or blocks are joined into one payload
    return Buffer.concat(parts, total)
  },
  stream(input, _ctx, maxBytes) {
    return new ZstdStream(input, maxBytes)
  },
  streamLength(input, maxBytes) {
    // the framing first, as decompress walks it before decoding; then every block decoded and counted
    const { read, length } = streamedRead(input)
    checkFraming(read, length, maxBytes)
    let total = 0
    for (const c of output(read, length, maxBytes, ONE_SHOT_MAX)) total += c.length
    return total
  },
}

/** A payload past the read window: one block's output at a time. */
class ZstdStream extends BlockStream {
  private readonly chunks: Generator<Uint8Array>

  constructor(input: ByteStream, maxBytes: number) {
    super()
    const { read, length } = streamedRead(input)
    this.chunks = output(read, length, maxBytes, ONE_SHOT_MAX)
  }

  protected nextBlock(): boolean {
    const next = this.chunks.next()
    if (next.done === true) return false
    const c = next.value
    this.out = Buffer.from(c.buffer, c.byteOffset, c.length) // a view, used up before the next chunk is made
    this.outLen = c.length
    return true
  }
}
