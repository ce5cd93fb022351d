// Finds entry boundaries in a log file with windowed positional reads (FileLogInputStream's rules),
// without decoding bodies. Memory is one window plus whatever the consumer keeps, whatever the batch size
// (a batch larger than the window is streamed: streamLarge). It is the only framer: dump, index
// verification and the partition scan all frame here. What it yields (the Frame view, tails, damage) is
// frame.ts; the one header rule frame-rule.ts; the resync search resync.ts. Each entry starts with
// offset int64, size int32, magic int8 (17 bytes, HEADER_SIZE_UP_TO_MAGIC).
import type { SegmentSource } from './segment-source.js'
import { crc32cUpdate } from '../bytes/crc32c.js'
import type { ZstdWindowWatch } from './codecs/zstd-window-watch.js'
import { zstdWatchFor } from './codecs/zstd-window-watch.js'
import type { CorruptEvent, ScannedEvent, TailEvent } from './frame.js'
import { Frame } from './frame.js'
import * as L from './layout.js'
import { frameProblem } from './frame-rule.js'
import { findNextBatch, overlappedBatch, overlappedStreamedBatch } from './resync.js'

export { findNextBatch } from './resync.js'
export { frameProblem } from './frame-rule.js'

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
  /** with streamLarge 'crc': the bytes [pos + 21, end) of the streamed batch at `batch` as they pass (io/batch-copy.ts) */
  onStreamed?: (batch: number, at: number, bytes: Uint8Array) => void
}

export const DEFAULT_WINDOW = 8 * 1024 * 1024
/**
 * How far a stream (stdin) is read past the last valid batch to find its end. A file's size is known; a pipe
 * can go on for ever (`tsdump - < /dev/zero`), and no batch can start in bytes already judged invalid.
 */
export const UNFRAMED_STREAM_LIMIT = 64 * 1024 * 1024
/**
 * The largest entry held from a stream: one that cannot be streamed past the window is read whole, and the
 * 128 MiB bound holds only if that is bounded (32 times Kafka's default message.max.bytes).
 */
export const MAX_STREAM_ENTRY = 32 * 1024 * 1024
export const HEADER_ONLY_WINDOW = 64 * 1024
export const DEFAULT_MAX_BATCH = 1024 * 1024 * 1024
/** header-only scans: from this size on, skipping a batch's body with a separate read of the next header beats reading through it */
const LARGE_BATCH = 16 * 1024

/**
 * Walk the entries of `source`. A generator over FrameScanner, for callers that like for-of; a loop that
 * runs once per batch (the partition scan) calls FrameScanner.next itself and saves the generator's
 * resumption and result object per batch.
 */
export function* scanFrames(source: SegmentSource, opts: FrameOptions = {}): Generator<ScannedEvent> {
  const s = new FrameScanner(source, opts)
  for (let ev = s.next(); ev !== undefined; ev = s.next()) yield ev
}

/** The framer: each next() returns the next event, or undefined at the end. Every call advances or ends. */
export class FrameScanner {
  // A stream's size is known only at its end: `end` is refreshed when a read comes up short.
  private readonly maxBytes: number
  private end: number
  // Resynchronising searches ahead and resumes behind: only on a source that can seek.
  private readonly resync: boolean
  private readonly windowSize: number
  private readonly maxBatch: number
  private readonly headersOnly: boolean
  private win: Buffer = Buffer.alloc(0)
  private winStart = 0
  /** winStart + win.length */
  private winEnd = 0
  // One window buffer, reused: a returned frame is a view that is valid until the consumer asks for the
  // next event (consumers extract what they keep). Fresh buffers per window made RSS follow the GC, not
  // the window size. A batch larger than the window gets a buffer of its own.
  private owned: Buffer | undefined
  private readonly frame = new Frame()
  /** a DataView over the window's buffer: the per-entry size and magic reads are plain loads */
  private dv: DataView = new DataView(new ArrayBuffer(0))
  private dvOf: Buffer | undefined
  /** the header of a batch streamed past the window (streamLarge) */
  private readonly header = Buffer.alloc(L.RECORD_BATCH_OVERHEAD)
  private readonly headerDv = new DataView(this.header.buffer, this.header.byteOffset, L.RECORD_BATCH_OVERHEAD)
  // In header-only scans of large batches only the 61 header bytes of each batch are read: after a batch
  // that did not fit the window the next probe asks for just that much.
  private probe: number
  private pos: number
  private done = false
  /** told before a read replaces the window's bytes: a reader keeping places in the window copies what it needs */
  beforeRefill: (() => void) | undefined = undefined

  constructor(
    private readonly source: SegmentSource,
    private readonly opts: FrameOptions = {},
  ) {
    this.maxBytes = opts.maxBytes ?? Number.MAX_SAFE_INTEGER
    this.end = Math.min(source.size, this.maxBytes)
    this.resync = opts.resync === true && source.seekable !== false
    this.headersOnly = opts.headersOnly === true
    this.windowSize = Math.max(
      L.RECORD_BATCH_OVERHEAD,
      opts.window ?? (this.headersOnly ? HEADER_ONLY_WINDOW : DEFAULT_WINDOW),
    )
    this.maxBatch = opts.maxBatchBytes ?? DEFAULT_MAX_BATCH
    this.probe = this.windowSize
    this.pos = opts.from ?? 0
  }

  private known(): number {
    this.end = Math.min(this.source.size, this.maxBytes)
    return this.end
  }
  private toEnd(): number {
    return Math.min(this.source.finalSize?.(UNFRAMED_STREAM_LIMIT) ?? this.source.size, this.maxBytes)
  }
  /** a stream that did not end within UNFRAMED_STREAM_LIMIT bytes of `pos` (never a file) */
  private unended(pos: number): TailEvent | undefined {
    if (this.source.ended !== false) return undefined
    return {
      kind: 'tail',
      position: pos,
      length: Math.min(this.source.size, this.maxBytes, pos + UNFRAMED_STREAM_LIMIT) - pos,
      reason: 'zeros',
      unended: true,
    }
  }

  /** Make [a, b) addressable in `win`; returns false if the file ends first. */
  private ensure(a: number, b: number): boolean {
    return (a >= this.winStart && b <= this.winEnd) || this.refill(a, b)
  }

  /** ensure's read, out of line: the check above runs once or twice per entry, a read once per window */
  private refill(a: number, b: number): boolean {
    const len = Math.min(Math.max(this.probe, b - a), this.end - a)
    let target: Buffer
    if (len <= this.windowSize) {
      const given = this.opts.windowBuffer
      this.owned ??=
        given !== undefined && given.length >= this.windowSize
          ? given
          : Buffer.allocUnsafeSlow(Math.min(this.windowSize, Math.max(this.end, L.RECORD_BATCH_OVERHEAD)))
      target = this.owned
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

  private last(ev: ScannedEvent): ScannedEvent {
    this.done = true
    return ev
  }

  next(): ScannedEvent | undefined {
    // The common case (a whole entry in the window that the framing rule accepts) is handled here, the rest out of
    // line, to keep next() small: with reconcile's inlining budget (bin/tsdump.js) V8 inlines it into the partition
    // scan's loop. In-process scan of 1.54 M batches: 0.22 s before, 0.20 s with both, 0.19-0.20 s for the loop
    // before FrameScanner (bench/RESULTS.md, #10).
    const pos = this.pos
    const end = this.end
    if (this.done || pos >= end) return undefined
    const left = end - pos
    // FileLogInputStream stops when fewer than 18 bytes are left.
    if (left <= L.HEADER_SIZE_UP_TO_MAGIC) {
      return this.last({ kind: 'tail', position: pos, length: left, reason: this.isZeros(pos) ? 'zeros' : 'short' })
    }
    if (!this.ensure(pos, pos + L.HEADER_SIZE_UP_TO_MAGIC)) {
      if (this.known() !== pos + left) return this.next() // a stream ended: decide with its size
      return this.last({ kind: 'tail', position: pos, length: left, reason: 'truncated' }) // file shrank
    }
    const o = pos - this.winStart
    const size = this.dv.getInt32(o + L.SIZE_OFFSET)
    const magic = this.dv.getInt8(o + L.MAGIC_OFFSET)
    const total = L.LOG_OVERHEAD + size
    const bad = frameProblem(size, magic, total, this.maxBatch)
    if (bad !== undefined) return this.damaged(pos, size, bad)
    // a stream cannot be read twice or streamed past the window, so an entry is held whole: bound it
    if (total > MAX_STREAM_ENTRY && this.source.seekable === false) {
      return this.damaged(pos, size, {
        code: 'BAD_LENGTH',
        message: `entry size ${total} is more than tsdump holds of a stream (${MAX_STREAM_ENTRY} bytes): save the input to a file to read it`,
      })
    }
    if (total > left) return this.pastEnd(pos, total, left)
    if (pos + total <= this.winEnd && (!this.resync || this.nextFrames(pos + total))) {
      // the reads grow back to the window over the entries that fit (see beyondWindow)
      if (this.headersOnly) this.probe = Math.min(this.windowSize, this.probe * 2)
      this.pos = pos + total
      return this.frame.set(pos, this.win, this.dv, o, total, true, magic, total)
    }
    return this.beyondWindow(pos, total, magic)
  }

  /**
   * Resynchronising, an entry whose end is in the window is taken as it is when the entry after it frames (or
   * the input ends there): only a next entry that does not frame makes beyondWindow look for a batch inside this
   * one (resync.ts overlappedBatch, which asks the same of the same bytes). Read in place: the partition scan
   * resyncs, and this runs for every batch (128 MiB of small transactions: 0.10 s of 0.57 s through beyondWindow).
   */
  private nextFrames(e: number): boolean {
    if (e + L.HEADER_SIZE_UP_TO_MAGIC > this.end) return true
    if (e + L.HEADER_SIZE_UP_TO_MAGIC > this.winEnd) return false
    const o = e - this.winStart
    const size = this.dv.getInt32(o + L.SIZE_OFFSET)
    return frameProblem(size, this.dv.getInt8(o + L.MAGIC_OFFSET), L.LOG_OVERHEAD + size, this.maxBatch) === undefined
  }

  /** an entry header the framing rule rejects (frameProblem): zeros to the end, or damage to resynchronise after */
  private damaged(pos: number, size: number, bad: { code: 'BAD_LENGTH' | 'BAD_MAGIC'; message: string }): ScannedEvent {
    if (bad.code === 'BAD_LENGTH' && size === 0 && this.isZeros(pos)) {
      const cut = this.unended(pos)
      return this.last(cut ?? { kind: 'tail', position: pos, length: this.known() - pos, reason: 'zeros' })
    }
    const next = this.resync ? findNextBatch(this.source, pos + 1, this.end, this.maxBatch) : undefined
    if (next === undefined) {
      this.end = this.toEnd()
      const cut = this.unended(pos)
      if (cut !== undefined) return this.last({ ...cut, reason: 'short' })
    }
    const ev: CorruptEvent = {
      kind: 'corrupt',
      position: pos,
      code: bad.code,
      message: bad.message,
      length: (next ?? this.end) - pos,
      ...(next !== undefined ? { resyncPosition: next } : {}),
    }
    if (next === undefined) return this.last(ev)
    this.pos = next
    return ev
  }

  /** an entry that declares more bytes than are left */
  private pastEnd(pos: number, total: number, left: number): ScannedEvent {
    if (this.isZeros(pos)) return this.last({ kind: 'tail', position: pos, length: left, reason: 'zeros' })
    // Past the end: a cut-off last batch (unclean shutdown), unless a CRC-valid batch follows. Then the
    // length field itself is damaged, and what follows it can still be read (Kafka hides it as "invalid bytes").
    const next = this.resync ? findNextBatch(this.source, pos + 1, this.end, this.maxBatch) : undefined
    if (next === undefined)
      return this.last({ kind: 'tail', position: pos, length: left, reason: 'truncated', declaredSize: total })
    this.pos = next
    return {
      kind: 'corrupt',
      position: pos,
      code: 'BAD_LENGTH',
      length: next - pos,
      resyncPosition: next,
      message: `entry size ${total} runs past the end of the file (${left} bytes left), yet a valid batch follows`,
    }
  }

  /** an acceptable entry that is not whole in the window (or any entry when resynchronising: its CRC is checked) */
  private beyondWindow(pos: number, total: number, magic: number): ScannedEvent {
    // Header-only: a data batch that does not fit the window and is worth skipping (a small one is cheaper
    // to read through with the next window than to skip with a read of its own).
    const fits = pos + total <= this.winEnd
    const headerOnly =
      this.headersOnly &&
      magic >= 2 &&
      !fits &&
      (total >= LARGE_BATCH || total > this.windowSize) &&
      !this.isControlAt(pos)
    // After a skipped batch the next read asks for one header; the reads grow back to the window over the
    // entries that fit (markers between large batches stay small reads).
    if (this.headersOnly)
      this.probe = fits
        ? Math.min(this.windowSize, this.probe * 2)
        : headerOnly
          ? L.RECORD_BATCH_OVERHEAD
          : this.windowSize
    this.pos = pos + total
    if (headerOnly) {
      this.ensure(pos, pos + L.RECORD_BATCH_OVERHEAD)
      return this.frame.set(pos, this.win, this.dv, pos - this.winStart, L.RECORD_BATCH_OVERHEAD, false, magic, total)
    }
    if (
      this.opts.streamLarge !== undefined &&
      magic >= 2 &&
      total > this.windowSize &&
      this.ensure(pos, pos + L.RECORD_BATCH_OVERHEAD) &&
      !this.isControlAt(pos)
    ) {
      // the header is kept aside first: the input is then read only forwards (stdin cannot seek back)
      this.win.copy(this.header, 0, pos - this.winStart, pos - this.winStart + L.RECORD_BATCH_OVERHEAD)
      const watch = zstdWatchFor(this.header, pos)
      const crc = this.opts.streamLarge === 'crc' ? this.streamCrc(pos, total, watch) : 0
      // a CRC that fails may be a grown batchLength: the same overlap search as for a batch in the window
      const inside =
        crc !== undefined &&
        this.resync &&
        this.opts.streamLarge === 'crc' &&
        crc !== this.header.readUInt32BE(L.CRC_OFFSET)
          ? overlappedStreamedBatch(this.source, pos, total, this.end, this.maxBatch)
          : undefined
      if (inside !== undefined) return this.overlapped(pos, total, inside)
      if (crc !== undefined) {
        const f = this.frame.set(pos, this.header, this.headerDv, 0, L.RECORD_BATCH_OVERHEAD, false, magic, total)
        if (this.opts.streamLarge === 'crc') [f.crc, f.zstdRefused] = [crc, watch?.end()]
        return f
      }
    }
    if (!this.ensure(pos, pos + total)) {
      this.known()
      return this.last({
        kind: 'tail',
        position: pos,
        length: this.end - pos,
        reason: 'truncated',
        declaredSize: total,
      })
    }
    const inside =
      this.resync && magic === 2
        ? overlappedBatch(this.source, pos, total, this.end, this.maxBatch, this.win, this.winStart)
        : undefined
    if (inside !== undefined) return this.overlapped(pos, total, inside)
    return this.frame.set(pos, this.win, this.dv, pos - this.winStart, total, true, magic, total)
  }

  /** what the window holds of [a, b), from `a`, as a view valid until the next event (scan/export-batch-bytes.ts) */
  windowed(a: number, b: number): Buffer {
    return a < this.winStart || a >= this.winEnd
      ? this.win.subarray(0, 0)
      : this.win.subarray(a - this.winStart, Math.min(b, this.winEnd) - this.winStart)
  }

  /** a batch at `pos` whose grown length ran into the valid batch at `inside` (resync.ts overlappedBatch) */
  private overlapped(pos: number, total: number, inside: number): CorruptEvent {
    this.pos = inside
    return {
      kind: 'corrupt',
      position: pos,
      code: 'BAD_LENGTH',
      length: inside - pos,
      resyncPosition: inside,
      message: `entry size ${total} fails the batch's CRC and runs into a valid batch at position ${inside}`,
    }
  }

  /** CRC-32C of [pos + 21, pos + total) read window by window (past a zstd `watch`); undefined when the input ends first */
  private streamCrc(pos: number, total: number, watch: ZstdWindowWatch | undefined): number | undefined {
    let crc = 0
    const stop = pos + total
    this.probe = this.windowSize
    for (let a = pos + L.ATTRIBUTES_OFFSET; a < stop; ) {
      // what the window holds first (its start was read with the header), then a window at a time
      const b = Math.min(stop, a < this.winEnd && a >= this.winStart ? this.winEnd : a + this.windowSize)
      if (!this.ensure(a, b)) return undefined
      const bytes = this.win.subarray(a - this.winStart, b - this.winStart)
      crc = crc32cUpdate(crc, bytes)
      watch?.pass(a, bytes)
      this.opts.onStreamed?.(pos, a, bytes)
      a = b
    }
    return crc
  }

  private isControlAt(pos: number): boolean {
    if (!this.ensure(pos, pos + L.RECORD_BATCH_OVERHEAD)) return false
    return (this.win.readInt16BE(pos - this.winStart + L.ATTRIBUTES_OFFSET) & L.CONTROL_FLAG_MASK) !== 0
  }

  // Is [pos, end) all zero bytes? (preallocated segment tails, files zero-filled after a crash)
  private isZeros(pos: number): boolean {
    const step = 1024 * 1024
    const end = this.source.seekable === false ? Math.min(this.end, pos + UNFRAMED_STREAM_LIMIT) : this.end
    for (let a = pos; a < end; a += step) {
      const whole = this.ensure(a, Math.min(end, a + step))
      const w = this.win
      const s = this.winStart
      // a short read: the input ends (a stream) or shrank; what there is decides
      const b = Math.min(end, a + step, s + w.length)
      for (let i = a - s; i < b - s; i++) if (w[i] !== 0) return false
      if (!whole) return true
    }
    return true
  }
}
