// zstd framing (RFC 8878 3.1), walked by tsdump itself before fzstd sees a byte: the one walker of both the
// whole-payload path (a Buffer) and the streamed one (a StreamedInput), through `Read`.
//
//   frame: magic 0xFD2FB528 (LE) | FHD | [windowDescriptor] | [dictionaryId 0/1/2/4] | [contentSize 0/1/2/4/8] |
//          blocks: { header 3 bytes LE (bit 0 last, bits 1-2 type, bits 3-23 size), content }* | [checksum 4]
//   skippable frame: magic 0x184D2A5? (LE) | size int32 LE | data
//
// fzstd trusts the header (it allocates the declared content size or window), so the walk bounds every
// frame's output from its block headers (raw/RLE: their size; compressed: min(window, 128 KiB)) before
// anything is decoded, and the decoder (zstd.ts) then chooses the window it gives fzstd.
import { CodecError } from './codec-error.js'

export const FRAME_MAGIC = 0xfd2fb528
export const SKIPPABLE_MAGIC_MASK = 0xfffffff0
export const SKIPPABLE_MAGIC = 0x184d2a50
export const BLOCK_MAX = 128 * 1024
export const BLOCK_RAW = 0
export const BLOCK_RLE = 1
export const BLOCK_COMPRESSED = 2

/** bytes [pos, pos + n) of the input (within its length), a view valid until the next call */
export type Read = (pos: number, n: number) => Buffer

export interface Frame {
  start: number
  end: number
  /** declared content size, null when absent */
  contentSize: number | null
  windowSize: number
  /** Block_Maximum_Size: min(window, 128 KiB) */
  blockMax: number
  /** byte index of the first block header */
  firstBlock: number
  /** most bytes the blocks can produce */
  maxOutput: number
  /** true when any block is compressed (the others fzstd is not needed for) */
  compressed: boolean
  blocks: number
}

export interface Block {
  /** byte index of the block header; the block's bytes (header and content) are [at, end) */
  at: number
  end: number
  type: number
  /** Block_Size: the regenerated size of raw and RLE blocks, the content size of compressed ones */
  size: number
  last: boolean
}

export function fail(msg: string): never {
  throw new CodecError('DECOMPRESS_FAILED', `zstd: ${msg}`)
}

function need(length: number, pos: number, n: number, what: string): void {
  if (pos + n > length) fail(`${what} at byte ${pos} runs past the end (${length} bytes)`)
}

function readLE(b: Buffer, pos: number, n: number): number {
  let v = 0
  for (let i = n - 1; i >= 0; i--) v = v * 256 + b[pos + i]!
  return v
}

interface FrameHead {
  start: number
  fhd: number
  contentSize: number | null
  windowSize: number
  firstBlock: number
}

/** how many header bytes follow a frame's descriptor `fhd`: window descriptor, dictionary id, content size */
export function headBytes(fhd: number): number {
  const singleSegment = (fhd & 0x20) !== 0
  const fcsFlag = fhd >>> 6
  const fcsBytes = fcsFlag === 0 ? (singleSegment ? 1 : 0) : 1 << fcsFlag
  return (singleSegment ? 0 : 1) + [0, 1, 2, 4][fhd & 3]! + fcsBytes
}

/** the sizes a frame header declares; `b` holds the headBytes(fhd) bytes after the descriptor. @throws CodecError */
export function declaredSizes(fhd: number, b: Buffer): { contentSize: number | null; windowSize: number } {
  const singleSegment = (fhd & 0x20) !== 0
  const dictBytes = [0, 1, 2, 4][fhd & 3]!
  let pos = 0
  let windowSize = 0
  if (!singleSegment) {
    const wd = b[pos++]!
    const base = 2 ** (10 + (wd >>> 3))
    windowSize = base + (base / 8) * (wd & 7)
  }
  if (dictBytes > 0 && readLE(b, pos, dictBytes) !== 0) fail('frames that need a dictionary are not supported')
  pos += dictBytes
  const fcsBytes = b.length - pos
  let contentSize: number | null = null
  if (fcsBytes > 0) contentSize = readLE(b, pos, fcsBytes) + (fcsBytes === 2 ? 256 : 0)
  if (singleSegment) windowSize = contentSize ?? 0
  return { contentSize, windowSize }
}

/** the frame header at `start` (its magic already read) */
function frameHead(read: Read, length: number, start: number): FrameHead {
  need(length, start, 5, 'frame header')
  const fhd = read(start + 4, 1)[0]!
  if ((fhd & 0x08) !== 0) fail(`reserved bit set in frame header at byte ${start + 4}`)
  const n = headBytes(fhd)
  const wdBytes = (fhd & 0x20) === 0 ? 1 : 0
  if (wdBytes === 1) need(length, start + 5, 1, 'window descriptor')
  need(length, start + 5 + wdBytes, n - wdBytes, 'frame header')
  const { contentSize, windowSize } = declaredSizes(fhd, read(start + 5, n))
  return { start, fhd, contentSize, windowSize, firstBlock: start + 5 + n }
}

/** The blocks of a frame from its first block header, each checked before it is yielded. */
export function* blocksOf(read: Read, length: number, f: { firstBlock: number; windowSize: number }): Generator<Block> {
  const blockMax = Math.min(f.windowSize, BLOCK_MAX)
  let pos = f.firstBlock
  for (let last = false; !last; ) {
    need(length, pos, 3, 'block header')
    const h = readLE(read(pos, 3), 0, 3)
    last = (h & 1) !== 0
    const type = (h >>> 1) & 3
    const size = h >>> 3
    if (type === 3) fail(`reserved block type at byte ${pos}`)
    if (size > blockMax && type !== BLOCK_COMPRESSED)
      fail(`block at byte ${pos} regenerates ${size} bytes, max ${blockMax}`)
    if (type === BLOCK_COMPRESSED && size > blockMax)
      fail(`compressed block at byte ${pos} is ${size} bytes, max ${blockMax}`)
    const contentBytes = type === BLOCK_RLE ? 1 : size
    need(length, pos + 3, contentBytes, 'block content')
    yield { at: pos, end: pos + 3 + contentBytes, type, size, last }
    pos += 3 + contentBytes
  }
}

/** Parse one frame's header and walk its blocks (no decoding). */
function walkFrame(read: Read, length: number, start: number): Frame {
  const h = frameHead(read, length, start)
  const blockMax = Math.min(h.windowSize, BLOCK_MAX)
  let maxOutput = 0
  let compressed = false
  let blocks = 0
  let end = h.firstBlock
  for (const b of blocksOf(read, length, h)) {
    maxOutput += b.type === BLOCK_COMPRESSED ? blockMax : b.size
    compressed ||= b.type === BLOCK_COMPRESSED
    blocks++
    end = b.end
  }
  if ((h.fhd & 0x04) !== 0) {
    need(length, end, 4, 'content checksum')
    end += 4
  }
  return {
    start,
    end,
    contentSize: h.contentSize,
    windowSize: h.windowSize,
    blockMax,
    firstBlock: h.firstBlock,
    maxOutput,
    compressed,
    blocks,
  }
}

/** The frames of a payload in order, each walked whole before it is yielded; skippable frames are passed over. */
export function* framesOf(read: Read, length: number): Generator<Frame> {
  if (length === 0) fail('empty input')
  let pos = 0
  while (pos < length) {
    need(length, pos, 4, 'frame magic')
    const magic = read(pos, 4).readUInt32LE(0)
    if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) {
      need(length, pos + 4, 4, 'skippable frame size')
      const size = read(pos + 4, 4).readUInt32LE(0)
      need(length, pos + 8, size, 'skippable frame')
      pos += 8 + size
      continue
    }
    if (magic !== FRAME_MAGIC) fail(`bad frame magic 0x${magic.toString(16)} at byte ${pos}`)
    const f = walkFrame(read, length, pos)
    yield f
    pos = f.end
  }
}

/**
 * Every check made before decoding, in the whole path's order: the framing of every frame, then each frame's
 * declared content size against what its blocks can hold, then the declared total against the budget.
 * Nothing is kept per frame (a payload of millions of tiny frames stays small).
 */
export function checkFraming(read: Read, length: number, maxBytes: number): void {
  let declared = 0
  let lie: string | undefined
  for (const f of framesOf(read, length)) {
    if (lie === undefined && f.contentSize !== null && f.contentSize > f.maxOutput) {
      lie = `frame at byte ${f.start} declares ${f.contentSize} bytes but its blocks hold at most ${f.maxOutput}`
    }
    declared += f.contentSize ?? 0
  }
  if (lie !== undefined) fail(lie)
  if (declared > maxBytes)
    throw new CodecError('DECOMPRESSED_TOO_LARGE', `zstd frames declare ${declared} bytes, more than ${maxBytes}`)
}

/**
 * The largest window Kafka's consumers and brokers decode: zstd-jni's ZstdInputStream keeps libzstd's default
 * limit, ZSTD_WINDOWLOG_LIMIT_DEFAULT 27 (ZSTD_decompressStream refuses a frame whose window, or the content size
 * of a single-segment frame, is larger: frameParameter_windowTooLarge). tsdump decodes such frames.
 */
export const KAFKA_MAX_WINDOW = 2 ** 27

/** a frame whose window Kafka's consumers refuse: where it starts in the payload, and the window it declares */
export interface ZstdWindowRefusal {
  frameAt: number
  windowSize: number
}

/** the first frame of `payload` whose window Kafka refuses, or undefined (also when the framing is damaged: decoding says so) */
export function windowKafkaRefuses(payload: Buffer): ZstdWindowRefusal | undefined {
  const read: Read = (pos, n) => payload.subarray(pos, pos + n)
  try {
    for (const f of framesOf(read, payload.length))
      if (f.windowSize > KAFKA_MAX_WINDOW) return { frameAt: f.start, windowSize: f.windowSize }
  } catch {
    /* damaged framing: the decoder reports it */
  }
  return undefined
}
