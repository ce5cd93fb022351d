// What the framer (frame-scanner.ts) yields: each entry as a Frame, a BatchView over the read window that is
// re-filled for every entry, and the bytes that do not form one (a tail) or cannot be right (damage).
import type { I64 } from '../bytes/int64.js'
import { BatchView } from './batch-view.js'
import type { ZstdWindowRefusal } from './codecs/zstd-frames.js'

/**
 * One framed entry. scanFrames re-fills one object for every frame (no allocation per batch): it is
 * valid until the next event is asked for.
 */
export interface FrameEvent {
  readonly kind: 'frame'
  readonly position: number
  /** whole entry size (12 + size field) */
  readonly sizeInBytes: number
  readonly magic: number
  /** the whole entry, or only its first bytes when `complete` is false (header-only scans) */
  readonly bytes: Buffer
  /** the read window holding the entry, which starts at window[offset] (what `bytes` is a view of) */
  readonly window: Buffer
  readonly offset: number
  readonly complete: boolean
  /** CRC-32C of attributes..end, computed while streaming a batch larger than the window (streamLarge 'crc') */
  readonly crc: number | undefined
  /** for such a zstd batch: the frame whose window Kafka refuses, found as its bytes streamed (zstd-window-watch.ts) */
  readonly zstdRefused: ZstdWindowRefusal | undefined
}

/** The frame scanFrames returns: a BatchView over the window (the fast paths read it as numbers). */
export class Frame extends BatchView implements FrameEvent {
  readonly kind = 'frame'
  length = 0
  complete = false
  crc: number | undefined = undefined
  zstdRefused: ZstdWindowRefusal | undefined = undefined
  // the framer has read the entry's size and magic already: kept as fields, not read again per getter
  private mag = 0
  private total = 0
  private view: Buffer | undefined

  get offset(): number {
    return this.o
  }
  override get magic(): number {
    return this.mag
  }
  override get sizeInBytes(): number {
    return this.total
  }
  // the subarray is made only when asked: the fast paths read through the view
  get bytes(): Buffer {
    return (this.view ??= this.window.subarray(this.o, this.o + this.length))
  }

  set(
    position: number,
    window: Buffer,
    dv: DataView,
    offset: number,
    length: number,
    complete: boolean,
    magic: number,
    total: number,
  ): this {
    this.atView(window, dv, offset, position)
    this.length = length
    this.complete = complete
    this.view = undefined
    this.crc = undefined
    this.zstdRefused = undefined
    this.mag = magic
    this.total = total
    return this
  }
}

export type TailReason = 'truncated' | 'short' | 'zeros'

/** bytes after the last complete entry that do not form one (kafka-dump-log's "invalid bytes") */
export interface TailEvent {
  kind: 'tail'
  position: number
  length: number
  reason: TailReason
  /** for 'truncated': the size the partial entry declared */
  declaredSize?: number
  /** a stream that went on without a valid batch past UNFRAMED_STREAM_LIMIT and was not read further */
  unended?: true
}

/** framing damage: an entry header that cannot be right; the scan stops or resynchronises */
export interface CorruptEvent {
  kind: 'corrupt'
  position: number
  code: 'BAD_LENGTH' | 'BAD_MAGIC'
  message: string
  /** bytes skipped: to the resync point, or to the end of the scanned range */
  length: number
  /** where scanning resumed, if it did */
  resyncPosition?: number
  /** the header breaks only the size limit (frameProblem's last rule): a larger limit may frame the entry */
  overLimit?: true
  /**
   * The entry at `position` as Kafka's reader (no resync, its own size limit) frames it, when it does and tsdump set
   * it aside: larger than --max-batch-bytes (Kafka's reader goes on at its end), or a grown length that runs into a
   * valid batch (`damageAfter`: Kafka's reader meets the damage at its declared end). What a check that follows
   * Kafka's reader needs of it (dump's leader-epoch check), without reading it again.
   */
  kafkaEntry?: KafkaEntry
}

/** the first fields of an entry whose framing is sound by Kafka's rules (CorruptEvent.kafkaEntry) */
export interface KafkaEntry {
  sizeInBytes: number
  magic: number
  baseOffset: I64
  partitionLeaderEpoch: number
  damageAfter: boolean
}

/** what the framer yields: frames as the Frame view */
export type ScannedEvent = Frame | TailEvent | CorruptEvent
