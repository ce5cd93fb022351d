// The framer's read window (frame-scanner.ts FrameScanner extends it): positional reads into one reused buffer, the
// next read starting where the framer needs bytes (no carry-over copy on its path), and the two ways it moves on
// keeping bytes: the resync search's (resync.ts SearchWindow: the bytes after damage read once, the framer resuming
// in them) and a first window read by the caller (FrameOptions.held: the dump's seek check).
import * as L from './layout.js'
import type { SearchWindow } from './resync.js'
import type { SegmentSource } from './segment-source.js'

/**
 * How far a stream (stdin) is read past the last valid batch to find its end. A file's size is known; a pipe
 * can go on for ever (`tsdump - < /dev/zero`), and no batch can start in bytes already judged invalid.
 */
export const UNFRAMED_STREAM_LIMIT = 64 * 1024 * 1024

export interface FrameOptions {
  /** window size in bytes (default DEFAULT_WINDOW; HEADER_ONLY_WINDOW with headersOnly) */
  window?: number
  /** only the first maxBytes of the file are considered (kafka-dump-log --max-bytes) */
  maxBytes?: number
  /** an entry larger than this is treated as framing damage (default 1 GiB) */
  maxBatchBytes?: number
  /**
   * When true, entries of magic 2 that are not control batches and do not fit in the current window
   * are yielded with only their 61-byte header (complete=false): analyses that need headers only
   * then read a fraction of the data bytes.
   */
  headersOnly?: boolean
  /**
   * With headersOnly: control batches and legacy (magic 0/1) entries too are yielded with their first 61 bytes only
   * when they do not fit (dump-index.ts batchAt, which needs an entry's offsets and size, not its records)
   */
  everyEntryHeaderOnly?: boolean
  /**
   * 'crc': a data batch (magic 2, not control) larger than the window is never held whole: its CRC-32C is
   * computed window by window (crc32cUpdate) and it is yielded with its 61-byte header only (complete=false,
   * `crc` set). Memory stays one window whatever the batch size. 'header': the same without the CRC.
   */
  streamLarge?: 'crc' | 'header'
  /** after framing damage, look for the next plausible v2 batch and continue (default false) */
  resync?: boolean
  /** called after each window read, for progress reporting */
  onProgress?: (position: number) => void
  /** start framing at this file position instead of 0 (an index entry's position) */
  from?: number
  /** a window buffer to use instead of a new one (at least `window` bytes): a dump worker scans many ranges in turn */
  windowBuffer?: Buffer
  /**
   * bytes from `from` that the caller read already (the dump's seek check read the batch it starts at): the first
   * window, whose bytes are kept when the window moves on from it, so that none is read again
   */
  held?: Buffer
  /** with streamLarge 'crc': the bytes [pos + 21, end) of the streamed batch at `batch` as they pass (io/batch-copy.ts) */
  onStreamed?: (batch: number, at: number, bytes: Uint8Array) => void
}

export class FrameWindow implements SearchWindow {
  // A stream's size is known only at its end: `end` is refreshed when a read comes up short.
  protected readonly maxBytes: number
  protected end: number
  // The window [winStart, winEnd): public for the resync search (resync.ts SearchWindow), which reads through it
  // and moves it on (slide), so that the framer resumes in the bytes the search read.
  win: Buffer = Buffer.alloc(0)
  winStart = 0
  /** winStart + win.length */
  winEnd = 0
  // One window buffer, reused: a returned frame is a view that is valid until the consumer asks for the
  // next event (consumers extract what they keep). Fresh buffers per window made RSS follow the GC, not
  // the window size. A batch larger than the window gets a buffer of its own.
  private owned: Buffer | undefined
  /** a DataView over the window's buffer: the per-entry size and magic reads are plain loads */
  protected dv: DataView = new DataView(new ArrayBuffer(0))
  private dvOf: Buffer | undefined
  // In header-only scans of large batches only the 61 header bytes of each batch are read: after a batch
  // that did not fit the window the next probe asks for just that much.
  protected probe: number
  /** the window is FrameOptions.held: its bytes are kept when it moves on */
  private carry = false
  /** told before a read replaces the window's bytes: a reader keeping places in the window copies what it needs */
  beforeRefill: (() => void) | undefined = undefined

  constructor(
    protected readonly source: SegmentSource,
    protected readonly opts: FrameOptions,
    protected readonly windowSize: number,
  ) {
    this.maxBytes = opts.maxBytes ?? Number.MAX_SAFE_INTEGER
    this.end = Math.min(source.size, this.maxBytes)
    this.probe = windowSize
    const held = opts.held
    if (held !== undefined && held.length > 0) {
      this.win = held
      this.winStart = opts.from ?? 0
      this.winEnd = this.winStart + held.length
      this.dvOf = held
      this.dv = new DataView(held.buffer, held.byteOffset, held.byteLength)
      this.carry = true
    }
  }

  /** Make [a, b) addressable in `win`; returns false if the file ends first. */
  protected ensure(a: number, b: number): boolean {
    return (a >= this.winStart && b <= this.winEnd) || this.refill(a, b)
  }

  /** ensure's read, out of line: the check above runs once or twice per entry, a read once per window */
  protected refill(a: number, b: number): boolean {
    if (this.carry) {
      this.carry = false
      if (a >= this.winStart && a < this.winEnd && b - a <= this.capacity) return this.slide(a) && b <= this.winEnd
    }
    const len = Math.min(Math.max(this.probe, b - a), this.end - a)
    let target: Buffer
    if (len <= this.windowSize) {
      target = this.window()
    } else {
      target = Buffer.allocUnsafeSlow(len)
    }
    this.beforeRefill?.()
    const n = this.source.readInto(target, a, len)
    if (target !== this.dvOf) {
      this.dvOf = target
      this.dv = new DataView(target.buffer, target.byteOffset, target.byteLength)
    }
    this.win = target.subarray(0, n)
    this.winStart = a
    this.winEnd = a + n
    this.opts.onProgress?.(a)
    return b <= this.winEnd
  }

  /** the reused window buffer */
  private window(): Buffer {
    const given = this.opts.windowBuffer
    this.owned ??=
      given !== undefined && given.length >= this.windowSize ? given : Buffer.allocUnsafeSlow(this.capacity)
    return this.owned
  }

  /** the most bytes the reused window holds (SearchWindow) */
  get capacity(): number {
    return Math.min(this.windowSize, Math.max(this.end, L.RECORD_BATCH_OVERHEAD))
  }

  /**
   * SearchWindow: the bytes from `keep` moved to the front of the reused window and the window read on from winEnd.
   * Only the resync search and the zero check read this way, forwards, each byte once.
   */
  slide(keep: number): boolean {
    const buf = this.window()
    const kept = this.winEnd - keep
    const room = Math.min(buf.length - kept, this.end - this.winEnd)
    if (room <= 0 || kept < 0) return false
    this.beforeRefill?.()
    this.win.copy(buf, 0, keep - this.winStart, this.winEnd - this.winStart) // copy: the bytes still wanted, to the front (Buffer.copy allows overlap)
    const n = this.source.readInto(buf.subarray(kept, kept + room), this.winEnd, room)
    if (buf !== this.dvOf) {
      this.dvOf = buf
      this.dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength)
    }
    this.win = buf.subarray(0, kept + n)
    this.winStart = keep
    this.winEnd = keep + kept + n
    this.opts.onProgress?.(keep)
    return n > 0
  }

  // Is [pos, end) all zero bytes? (preallocated segment tails, files zero-filled after a crash)
  protected isZeros(pos: number): boolean {
    return this.firstNonZero(pos) < 0
  }

  /**
   * The first byte of [pos, end) that is not zero, or -1. The window's bytes are looked at where they are, and
   * the rest read on from its end (slide): a resync search after it finds the bytes from there in the window.
   */
  protected firstNonZero(pos: number): number {
    const end = this.source.seekable === false ? Math.min(this.end, pos + UNFRAMED_STREAM_LIMIT) : this.end
    if (pos >= end) return -1
    if ((pos < this.winStart || pos >= this.winEnd) && !this.ensure(pos, pos + 1) && this.winEnd <= pos) return -1
    for (let a = pos; ; ) {
      const w = this.win
      const s = this.winStart
      const b = Math.min(end, this.winEnd)
      for (let i = a - s; i < b - s; i++) if (w[i] !== 0) return s + i
      if (b >= end) return -1
      a = b
      // the 16 bytes before `a` stay: a header whose magic byte is the first non-zero one starts there
      // a short read: the input ends (a stream) or shrank; what there is decides
      if (!this.slide(Math.max(s, a - L.MAGIC_OFFSET))) return -1
    }
  }
}
