// The window check of windowKafkaRefuses (zstd-frames.ts) for a payload that is never held whole: a batch
// larger than the read window, whose bytes pass once, window by window, while the framer streams its CRC
// (frame-scanner.ts). The same walk, pushed instead of pulled: a frame counts only once its header, every
// block header and its checksum were read and passed framesOf's checks, and the first damage ends the watch
// with no answer, as the pulled walk's catch does (decoding reports the damage).
import type { ZstdWindowRefusal } from './zstd-frames.js'
import * as L from '../layout.js'

const ZSTD = 4
import {
  BLOCK_MAX,
  BLOCK_RLE,
  FRAME_MAGIC,
  KAFKA_MAX_WINDOW,
  SKIPPABLE_MAGIC,
  SKIPPABLE_MAGIC_MASK,
  declaredSizes,
  headBytes,
} from './zstd-frames.js'

// the walk's steps: what the bytes being gathered are
const MAGIC = 0
const SKIP_SIZE = 1
const SKIP = 2
const DESCRIPTOR = 3
const HEAD = 4
const BLOCK_HEADER = 5
const BLOCK_CONTENT = 6
const CHECKSUM = 7
const DONE = 8

/**
 * A watch for the batch whose 61-byte header is `header` (at file position `position`) when it is
 * zstd-compressed: its payload starts right after the header.
 */
export function zstdWatchFor(header: Buffer, position: number): ZstdWindowWatch | undefined {
  const codec = header.readInt16BE(L.ATTRIBUTES_OFFSET) & L.COMPRESSION_CODEC_MASK
  return codec === ZSTD ? new ZstdWindowWatch(position + L.RECORD_BATCH_OVERHEAD) : undefined
}

export class ZstdWindowWatch {
  private step = MAGIC
  /** the bytes the current step needs, gathered across pushes (at most 13: a frame header after its descriptor) */
  private readonly held = Buffer.alloc(16)
  private have = 0
  private want = 4
  /** payload bytes seen so far, and where the current frame started */
  private at = 0
  private frameAt = 0
  private fhd = 0
  private windowSize = 0
  private blockMax = 0
  private lastBlock = false
  private refused: ZstdWindowRefusal | undefined

  /** `payloadAt`: where the payload starts, for pass() */
  constructor(private readonly payloadAt = 0) {}

  /** bytes at position `at` of the batch's file, in order: those before the payload are not its */
  pass(at: number, bytes: Uint8Array): void {
    if (at + bytes.length > this.payloadAt)
      this.push(at >= this.payloadAt ? bytes : bytes.subarray(this.payloadAt - at))
  }

  /** the next bytes of the payload, in order */
  push(bytes: Uint8Array): void {
    let i = 0
    while (i < bytes.length && this.step !== DONE) {
      const n = Math.min(this.want - this.have, bytes.length - i)
      // skipped frames and block contents are passed over, not kept
      if (this.step !== SKIP && this.step !== BLOCK_CONTENT) this.held.set(bytes.subarray(i, i + n), this.have)
      this.have += n
      i += n
      this.at += n
      if (this.have === this.want) this.stepDone()
    }
  }

  /** the payload ended: the first frame Kafka refuses, or undefined (none, or damaged framing first) */
  end(): ZstdWindowRefusal | undefined {
    // an empty payload, or one that ends inside a frame, fails framesOf before that frame is yielded
    const atFrameEnd = this.step === MAGIC && this.have === 0 && this.at > 0
    return atFrameEnd || this.step === DONE ? this.refused : undefined
  }

  /** the next step, which completes at once when it needs no bytes */
  private next(step: number, want: number): void {
    this.step = step
    this.want = want
    this.have = 0
    if (want === 0) this.stepDone()
  }

  private stop(refused?: ZstdWindowRefusal): void {
    this.refused = refused
    this.step = DONE
  }

  private stepDone(): void {
    const h = this.held
    const step = this.step
    if (step === MAGIC) {
      const magic = h.readUInt32LE(0)
      this.frameAt = this.at - 4
      if ((magic & SKIPPABLE_MAGIC_MASK) >>> 0 === SKIPPABLE_MAGIC) this.next(SKIP_SIZE, 4)
      else if (magic === FRAME_MAGIC) this.next(DESCRIPTOR, 1)
      else this.stop()
    } else if (step === SKIP_SIZE) {
      this.next(SKIP, h.readUInt32LE(0))
    } else if (step === SKIP) {
      this.next(MAGIC, 4)
    } else if (step === DESCRIPTOR) {
      this.fhd = h[0]!
      if ((this.fhd & 0x08) !== 0) this.stop()
      else this.next(HEAD, headBytes(this.fhd))
    } else if (step === HEAD) {
      this.headDone()
    } else if (step === BLOCK_HEADER) {
      const v = h[0]! | (h[1]! << 8) | (h[2]! << 16)
      const type = (v >>> 1) & 3
      const size = v >>> 3
      // framesOf's block checks: no reserved type, no block above Block_Maximum_Size (blocksOf)
      this.lastBlock = (v & 1) !== 0
      if (type === 3 || size > this.blockMax) this.stop()
      else this.next(BLOCK_CONTENT, type === BLOCK_RLE ? 1 : size)
    } else if (step === BLOCK_CONTENT) {
      if (!this.lastBlock) this.next(BLOCK_HEADER, 3)
      else if ((this.fhd & 0x04) !== 0) this.next(CHECKSUM, 4)
      else this.frameDone()
    } else if (step === CHECKSUM) {
      this.frameDone()
    }
  }

  private headDone(): void {
    try {
      this.windowSize = declaredSizes(this.fhd, this.held.subarray(0, this.have)).windowSize
    } catch {
      this.stop() // a dictionary id: framesOf fails there
      return
    }
    this.blockMax = Math.min(this.windowSize, BLOCK_MAX)
    this.next(BLOCK_HEADER, 3)
  }

  private frameDone(): void {
    if (this.windowSize > KAFKA_MAX_WINDOW) this.stop({ frameAt: this.frameAt, windowSize: this.windowSize })
    else this.next(MAGIC, 4)
  }
}
