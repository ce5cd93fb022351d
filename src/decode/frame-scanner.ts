// Finds entry boundaries in a log file with windowed positional reads (FileLogInputStream's rules),
// without decoding bodies. Memory is one window plus whatever the consumer keeps, whatever the batch size
// (a batch larger than the window is streamed: streamLarge). It is the only framer: dump, index
// verification and the partition scan all frame here. What it yields (the Frame view, tails, damage) is
// frame.ts; the one header rule frame-rule.ts; the resync search resync.ts. Each entry starts with
// offset int64, size int32, magic int8 (17 bytes, HEADER_SIZE_UP_TO_MAGIC).
import type { SegmentSource } from './segment-source.js'
import { crc32cUpdate } from '../bytes/crc32c.js'
import { i64At } from '../bytes/int64.js'
import type { ZstdWindowWatch } from './codecs/zstd-window-watch.js'
import { zstdWatchFor } from './codecs/zstd-window-watch.js'
import type { CorruptEvent, KafkaEntry, ScannedEvent, TailEvent } from './frame.js'
import { Frame } from './frame.js'
import * as L from './layout.js'
import { frameProblem } from './frame-rule.js'
import type { FrameOptions } from './frame-window.js'
import { FrameWindow, UNFRAMED_STREAM_LIMIT } from './frame-window.js'
import { overlappedBatch, overlappedStreamedBatch, searchNextBatch } from './resync.js'

export { findNextBatch } from './resync.js'
export { frameProblem } from './frame-rule.js'
export { UNFRAMED_STREAM_LIMIT } from './frame-window.js'
export type { FrameOptions } from './frame-window.js'

export const DEFAULT_WINDOW = 8 * 1024 * 1024
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
export class FrameScanner extends FrameWindow {
  // Resynchronising searches ahead and resumes behind: only on a source that can seek.
  private readonly resync: boolean
  private readonly maxBatch: number
  private readonly headersOnly: boolean
  private readonly frame = new Frame()
  /** the header of a batch streamed past the window (streamLarge) */
  private readonly header = Buffer.alloc(L.RECORD_BATCH_OVERHEAD)
  private readonly headerDv = new DataView(this.header.buffer, this.header.byteOffset, L.RECORD_BATCH_OVERHEAD)
  private pos: number
  private done = false
  /** a chance magic 0/1 entry after a batch whose length shrank (resync.ts overlappedBatch): its position, -1 none */
  private chanceAt = -1
  /** the valid batch inside that entry, where the scan resumes */
  private chanceNext = -1

  constructor(source: SegmentSource, opts: FrameOptions = {}) {
    super(
      source,
      opts,
      Math.max(
        L.RECORD_BATCH_OVERHEAD,
        opts.window ?? (opts.headersOnly === true ? HEADER_ONLY_WINDOW : DEFAULT_WINDOW),
      ),
    )
    this.resync = opts.resync === true && source.seekable !== false
    this.headersOnly = opts.headersOnly === true
    this.maxBatch = opts.maxBatchBytes ?? DEFAULT_MAX_BATCH
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

  /**
   * The resync search (resync.ts) from `from`, in this window: the window holds `from` after the entry's checks
   * (and the zero check kept what it had not found zero), so nothing is read again.
   */
  private resyncFrom(from: number): number | undefined {
    if (from < this.winStart || from > this.winEnd) this.refill(from, from)
    return searchNextBatch(this, from, this.end, this.maxBatch)
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
    if (pos === this.chanceAt) return this.chance(pos, magic, total)
    const bad = frameProblem(size, magic, total, this.maxBatch)
    if (bad !== undefined)
      return this.damaged(pos, size, bad, total <= left ? this.kafkaEntryAt(pos, magic, total) : undefined)
    // a stream cannot be read twice or streamed past the window, so an entry is held whole: bound it
    if (total > MAX_STREAM_ENTRY && this.source.seekable === false) {
      return this.damaged(pos, size, {
        code: 'BAD_LENGTH',
        message: `entry size ${total} is more than tsdump holds of a stream (${MAX_STREAM_ENTRY} bytes): save the input to a file to read it`,
      })
    }
    if (total > left) return this.pastEnd(pos, total, left)
    if (pos + total <= this.winEnd && (!this.resync || this.nextFrames(pos + total, magic))) {
      // the reads grow back to the window over the entries that fit (see beyondWindow)
      if (this.headersOnly) this.probe = Math.min(this.windowSize, this.probe * 2)
      this.pos = pos + total
      return this.frame.set(pos, this.win, this.dv, o, total, true, magic, total)
    }
    return this.beyondWindow(pos, total, magic)
  }

  /**
   * Resynchronising, an entry whose end is in the window is taken as it is when the entry after it frames (or
   * the input ends there): only a next entry that does not frame, or a magic 0/1 one after a v2 batch (a broker
   * never writes one after the other), makes beyondWindow look for a batch inside this one and that one (resync.ts
   * overlappedBatch, which asks the same of the same bytes). Read in place: the partition scan resyncs, and this
   * runs for every batch (128 MiB of small transactions: 0.10 s of 0.57 s through beyondWindow).
   */
  private nextFrames(e: number, magic: number): boolean {
    if (e + L.HEADER_SIZE_UP_TO_MAGIC > this.end) return true
    if (e + L.HEADER_SIZE_UP_TO_MAGIC > this.winEnd) return false
    const o = e - this.winStart
    const size = this.dv.getInt32(o + L.SIZE_OFFSET)
    const next = this.dv.getInt8(o + L.MAGIC_OFFSET)
    return frameProblem(size, next, L.LOG_OVERHEAD + size, this.maxBatch) === undefined && (next === 2 || magic < 2)
  }

  /** an entry header the framing rule rejects (frameProblem): zeros to the end, or damage to resynchronise after */
  private damaged(
    pos: number,
    size: number,
    bad: { code: 'BAD_LENGTH' | 'BAD_MAGIC'; message: string; overLimit?: true },
    kafkaEntry?: KafkaEntry,
  ): ScannedEvent {
    // a header with its magic byte in the zeros found cannot start there: the search starts after them
    let from = pos + 1
    if (bad.code === 'BAD_LENGTH' && size === 0) {
      const nz = this.firstNonZero(pos)
      if (nz < 0) {
        const cut = this.unended(pos)
        return this.last(cut ?? { kind: 'tail', position: pos, length: this.known() - pos, reason: 'zeros' })
      }
      from = Math.max(from, nz - L.MAGIC_OFFSET)
    }
    const next = this.resync ? this.resyncFrom(from) : undefined
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
      ...(kafkaEntry !== undefined ? { kafkaEntry } : {}),
      ...(bad.overLimit === true ? { overLimit: true as const } : {}),
    }
    if (next === undefined) return this.last(ev)
    this.pos = next
    return ev
  }

  /** an entry that declares more bytes than are left */
  private pastEnd(pos: number, total: number, left: number): ScannedEvent {
    const nz = this.firstNonZero(pos)
    if (nz < 0) return this.last({ kind: 'tail', position: pos, length: left, reason: 'zeros' })
    // Past the end: a cut-off last batch (unclean shutdown), unless a CRC-valid batch follows. Then the
    // length field itself is damaged, and what follows it can still be read (Kafka hides it as "invalid bytes").
    const next = this.resync ? this.resyncFrom(Math.max(pos + 1, nz - L.MAGIC_OFFSET)) : undefined
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
      !fits &&
      (total >= LARGE_BATCH || total > this.windowSize) &&
      (this.opts.everyEntryHeaderOnly === true ? total > L.RECORD_BATCH_OVERHEAD : magic >= 2 && !this.isControlAt(pos))
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
      if (inside !== undefined && inside < pos + total)
        return this.overlapped(pos, total, inside, this.kafkaEntryIn(this.headerDv, 0, magic, total, true))
      if (inside !== undefined) this.chanceAfter(pos + total, inside)
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
    // the entry's first fields are taken before the search moves the window on
    const entry = this.resync && magic === 2 ? this.kafkaEntryAt(pos, magic, total, true) : undefined
    const inside =
      this.resync && magic === 2 ? overlappedBatch(this.source, this, pos, total, this.end, this.maxBatch) : undefined
    if (inside !== undefined && inside < pos + total) return this.overlapped(pos, total, inside, entry)
    if (inside !== undefined) this.chanceAfter(pos + total, inside)
    // the search may have moved the window on (keeping this entry when it could)
    if (!this.ensure(pos, pos + total))
      return this.last({
        kind: 'tail',
        position: pos,
        length: this.known() - pos,
        reason: 'truncated',
        declaredSize: total,
      })
    return this.frame.set(pos, this.win, this.dv, pos - this.winStart, total, true, magic, total)
  }

  /** what the window holds of [a, b), from `a`, as a view valid until the next event (scan/export-batch-bytes.ts) */
  windowed(a: number, b: number): Buffer {
    return a < this.winStart || a >= this.winEnd
      ? this.win.subarray(0, 0)
      : this.win.subarray(a - this.winStart, Math.min(b, this.winEnd) - this.winStart)
  }

  /** a batch at `pos` whose grown length ran into the valid batch at `inside` (resync.ts overlappedBatch) */
  private overlapped(pos: number, total: number, inside: number, kafkaEntry: KafkaEntry | undefined): CorruptEvent {
    const message = `entry size ${total} fails the batch's CRC and runs into a valid batch at position ${inside}`
    return this.resumeIn(pos, inside, message, kafkaEntry)
  }

  /** BAD_LENGTH from `pos` to the valid batch at `next`, where the scan resumes */
  private resumeIn(pos: number, next: number, message: string, kafkaEntry: KafkaEntry | undefined): CorruptEvent {
    this.pos = next
    return {
      ...(kafkaEntry !== undefined ? { kafkaEntry } : {}),
      kind: 'corrupt',
      position: pos,
      code: 'BAD_LENGTH',
      length: next - pos,
      resyncPosition: next,
      message,
    }
  }

  /** the entry at `at`, after a batch whose length shrank, frames by chance over the valid batch at `inside` */
  private chanceAfter(at: number, inside: number): void {
    this.chanceAt = at
    this.chanceNext = inside
  }

  /**
   * That chance entry (magic 0/1, `total` bytes, its 17 framing bytes in the window): damage up to the batch in it.
   * Kafka's reader frames it (kafkaEntry) and reads on at its end, where tsdump does not: not `damageAfter`.
   */
  private chance(pos: number, magic: number, total: number): CorruptEvent {
    const next = this.chanceNext
    this.chanceAt = -1
    const message = `entry of ${total} bytes with magic ${magic} after a batch whose CRC fails runs over a valid batch at position ${next}`
    return this.resumeIn(pos, next, message, this.kafkaEntryAt(pos, magic, total))
  }

  /** the entry at `pos` (its 17 framing bytes in the window) as Kafka's reader frames it, if it does (CorruptEvent.kafkaEntry) */
  private kafkaEntryAt(pos: number, magic: number, total: number, damageAfter = false): KafkaEntry | undefined {
    return this.kafkaEntryIn(this.dv, pos - this.winStart, magic, total, damageAfter)
  }

  private kafkaEntryIn(
    dv: DataView,
    o: number,
    magic: number,
    total: number,
    damageAfter: boolean,
  ): KafkaEntry | undefined {
    if (frameProblem(total - L.LOG_OVERHEAD, magic, total, DEFAULT_MAX_BATCH) !== undefined) return undefined
    return {
      sizeInBytes: total,
      magic,
      baseOffset: i64At(dv, o + L.OFFSET_OFFSET),
      partitionLeaderEpoch: dv.getInt32(o + L.PARTITION_LEADER_EPOCH_OFFSET),
      damageAfter,
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
}
