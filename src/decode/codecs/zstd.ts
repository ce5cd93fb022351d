// zstd (attribute id 4, magic 2 only): RFC 8878 frames, decoded by fzstd (pure JS; Node 20's zlib has no zstd).
//
//   frame: magic 0xFD2FB528 (LE) | FHD | [windowDescriptor] | [dictionaryId 0/1/2/4] | [contentSize 0/1/2/4/8] |
//          blocks: { header 3 bytes LE (bit 0 last, bits 1-2 type, bits 3-23 size), content }* | [checksum 4]
//   skippable frame: magic 0x184D2A5? (LE) | size int32 LE | data
//
// fzstd trusts the header: it allocates the declared content size, or else the declared window size
// (up to 2 GiB), before decoding. So we walk every frame's headers first (cheap, no decoding):
// - the block headers give an upper bound of the frame's output (raw/RLE: their size; compressed:
//   min(window, 128 KiB)), so a lying content size is rejected before fzstd allocates it;
// - frames with a content size use fzstd's one-shot decoder, which allocates exactly that size;
// - frames without one (zstd-jni's streaming writer, used by Kafka, omits it) use fzstd's streaming
//   decoder, whose output is counted block by block against the budget. Its window allocation is
//   clamped by rewriting the window descriptor in a copy of the frame: a window larger than the
//   frame's possible output can never be referenced, so the result is the same.
// The optional XXH64 content checksum is not verified (the v2 batch CRC-32C already covers the bytes).
import { Decompress, decompress as fzstdDecompress } from 'fzstd'
import type { Codec } from './codec.js'
import { CodecError } from './codec-error.js'

const FRAME_MAGIC = 0xFD2FB528
const SKIPPABLE_MAGIC_MASK = 0xFFFFFFF0
const SKIPPABLE_MAGIC = 0x184D2A50
const BLOCK_MAX = 128 * 1024
/** smallest window we ask fzstd for; 1 MiB keeps its 128 KiB block buffer intact */
const MIN_CLAMPED_WINDOW = 1 << 20

interface Frame {
  start: number
  end: number
  /** declared content size, null when absent */
  contentSize: number | null
  windowSize: number
  /** byte index of the window descriptor, -1 for single-segment frames */
  windowDescriptorAt: number
  /** most bytes the blocks can produce */
  maxOutput: number
}

function fail (msg: string): never {
  throw new CodecError('DECOMPRESS_FAILED', `zstd: ${msg}`)
}

function need (b: Buffer, pos: number, n: number, what: string): void {
  if (pos + n > b.length) fail(`${what} at byte ${pos} runs past the end (${b.length} bytes)`)
}

function readLE (b: Buffer, pos: number, n: number): number {
  let v = 0
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[pos + i]!
  return v
}

/** Parse one frame's header and walk its blocks. */
function walkFrame (b: Buffer, start: number): Frame {
  need(b, start, 5, 'frame header')
  const fhd = b[start + 4]!
  if ((fhd & 0x08) !== 0) fail(`reserved bit set in frame header at byte ${start + 4}`)
  const singleSegment = (fhd & 0x20) !== 0
  const dictBytes = [0, 1, 2, 4][fhd & 3]!
  const fcsFlag = fhd >>> 6
  const fcsBytes = fcsFlag === 0 ? (singleSegment ? 1 : 0) : 1 << fcsFlag
  let pos = start + 5
  let windowSize = 0
  const windowDescriptorAt = singleSegment ? -1 : pos
  if (!singleSegment) {
    need(b, pos, 1, 'window descriptor')
    const wd = b[pos++]!
    const base = 2 ** (10 + (wd >>> 3))
    windowSize = base + (base / 8) * (wd & 7)
  }
  need(b, pos, dictBytes + fcsBytes, 'frame header')
  if (dictBytes > 0 && readLE(b, pos, dictBytes) !== 0) fail('frames that need a dictionary are not supported')
  pos += dictBytes
  let contentSize: number | null = null
  if (fcsBytes > 0) contentSize = readLE(b, pos, fcsBytes) + (fcsBytes === 2 ? 256 : 0)
  pos += fcsBytes
  if (singleSegment) windowSize = contentSize ?? 0
  const blockMax = Math.min(windowSize, BLOCK_MAX)
  let maxOutput = 0
  for (let last = false; !last;) {
    need(b, pos, 3, 'block header')
    const h = readLE(b, pos, 3)
    last = (h & 1) !== 0
    const type = (h >>> 1) & 3
    const size = h >>> 3
    pos += 3
    if (type === 3) fail(`reserved block type at byte ${pos - 3}`)
    if (size > blockMax && type !== 2) fail(`block at byte ${pos - 3} regenerates ${size} bytes, max ${blockMax}`)
    if (type === 2 && size > blockMax) fail(`compressed block at byte ${pos - 3} is ${size} bytes, max ${blockMax}`)
    const contentBytes = type === 1 ? 1 : size
    need(b, pos, contentBytes, 'block content')
    pos += contentBytes
    maxOutput += type === 2 ? blockMax : size
  }
  if ((fhd & 0x04) !== 0) { need(b, pos, 4, 'content checksum'); pos += 4 }
  return { start, end: pos, contentSize, windowSize, windowDescriptorAt, maxOutput }
}

function walkFrames (input: Buffer): Frame[] {
  const frames: Frame[] = []
  let pos = 0
  if (input.length === 0) fail('empty input')
  while (pos < input.length) {
    need(input, pos, 4, 'frame magic')
    const magic = input.readUInt32LE(pos)
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(input, pos + 4, 4, 'skippable frame size')
      const size = input.readUInt32LE(pos + 4)
      need(input, pos + 8, size, 'skippable frame')
      pos += 8 + size
      continue
    }
    if (magic !== FRAME_MAGIC) fail(`bad frame magic 0x${magic.toString(16)} at byte ${pos}`)
    const f = walkFrame(input, pos)
    frames.push(f)
    pos = f.end
  }
  return frames
}

/** smallest window descriptor byte whose window is at least `size` */
function windowDescriptorFor (size: number): number {
  for (let exp = 0; exp < 32; exp++) {
    const base = 2 ** (10 + exp)
    for (let mantissa = 0; mantissa < 8; mantissa++) {
      if (base + (base / 8) * mantissa >= size) return (exp << 3) | mantissa
    }
  }
  return 0xFF
}

function tooLarge (maxBytes: number): CodecError {
  return new CodecError('DECOMPRESSED_TOO_LARGE', `zstd output exceeds ${maxBytes} bytes`)
}

function decodeStreaming (input: Buffer, f: Frame, budget: number, maxBytes: number): Uint8Array[] {
  let frame = input.subarray(f.start, f.end)
  const window = Math.max(MIN_CLAMPED_WINDOW, Math.min(f.maxOutput, budget + 1))
  if (f.windowDescriptorAt >= 0 && f.windowSize > window) {
    frame = Buffer.from(frame) // copy: the window descriptor is rewritten, the input stays untouched
    frame[f.windowDescriptorAt - f.start] = windowDescriptorFor(window)
  }
  const parts: Uint8Array[] = []
  let produced = 0
  const d = new Decompress((chunk) => {
    produced += chunk.length
    if (produced > budget) throw tooLarge(maxBytes)
    if (chunk.length > 0) parts.push(chunk)
  })
  d.push(frame, true)
  return parts
}

export const zstd: Codec = {
  id: 4,
  name: 'zstd',
  decompress (input, maxBytes) {
    const frames = walkFrames(input)
    let declared = 0
    for (const f of frames) {
      if (f.contentSize !== null && f.contentSize > f.maxOutput) {
        fail(`frame at byte ${f.start} declares ${f.contentSize} bytes but its blocks hold at most ${f.maxOutput}`)
      }
      declared += f.contentSize ?? 0
    }
    if (declared > maxBytes) throw new CodecError('DECOMPRESSED_TOO_LARGE', `zstd frames declare ${declared} bytes, more than ${maxBytes}`)
    const parts: Uint8Array[] = []
    let total = 0
    try {
      for (const f of frames) {
        if (f.contentSize !== null && f.contentSize > 0) {
          // fzstd allocates exactly the declared content size here, already checked against the budget.
          const out = fzstdDecompress(input.subarray(f.start, f.end))
          if (out.length !== f.contentSize) fail(`frame at byte ${f.start} decoded to ${out.length} bytes, declared ${f.contentSize}`)
          parts.push(out)
          total += out.length
        } else {
          for (const p of decodeStreaming(input, f, maxBytes - total, maxBytes)) { parts.push(p); total += p.length }
        }
      }
    } catch (e) {
      if (e instanceof CodecError) throw e
      throw new CodecError('DECOMPRESS_FAILED', `zstd: ${(e as Error).message}`, { cause: e })
    }
    if (parts.length === 1) { const p = parts[0]!; return Buffer.from(p.buffer, p.byteOffset, p.length) }
    // copy: several frames or streamed blocks are joined into one payload
    return Buffer.concat(parts, total)
  },
}
