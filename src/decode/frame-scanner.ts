// Finds entry boundaries in a log file with windowed positional reads (FileLogInputStream's rules),
// without decoding bodies. Memory is one window plus whatever the consumer keeps.
//
// Each entry starts with offset int64, size int32, magic int8 (17 bytes, HEADER_SIZE_UP_TO_MAGIC).
import { crc32c } from '../bytes/crc32c.js'
import type { SegmentSource } from './segment-source.js'
import * as L from './layout.js'

export interface FrameEvent {
  kind: 'frame'
  position: number
  /** whole entry size (12 + size field) */
  sizeInBytes: number
  magic: number
  /** the whole entry, or only its first bytes when `complete` is false (header-only scans) */
  bytes: Buffer
  complete: boolean
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
}

export type ScanEvent = FrameEvent | TailEvent | CorruptEvent

export interface ScanOptions {
  /** window size in bytes (default 16 MiB) */
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
  /** after framing damage, look for the next plausible v2 batch and continue (default false) */
  resync?: boolean
  /** called after each window read, for progress reporting */
  onProgress?: (position: number) => void
  /** start framing at this file position instead of 0 (an index entry's position) */
  from?: number
}

export const DEFAULT_WINDOW = 8 * 1024 * 1024
export const HEADER_ONLY_WINDOW = 64 * 1024
const DEFAULT_MAX_BATCH = 1024 * 1024 * 1024

/** Walk the entries of `source`. Every loop iteration advances or returns. */
export function * scanFrames (source: SegmentSource, opts: ScanOptions = {}): Generator<ScanEvent> {
  // A stream's size is known only at its end: `end` is refreshed when a read comes up short.
  const maxBytes = opts.maxBytes ?? Number.MAX_SAFE_INTEGER
  let end = Math.min(source.size, maxBytes)
  const known = (): number => { end = Math.min(source.size, maxBytes); return end }
  const toEnd = (): number => Math.min(source.finalSize?.() ?? source.size, maxBytes)
  // Resynchronising searches ahead and resumes behind: only on a source that can seek.
  const resync = opts.resync === true && source.seekable !== false
  const windowSize = Math.max(L.RECORD_BATCH_OVERHEAD, opts.window ?? (opts.headersOnly === true ? HEADER_ONLY_WINDOW : DEFAULT_WINDOW))
  const maxBatch = opts.maxBatchBytes ?? DEFAULT_MAX_BATCH
  let win: Buffer = Buffer.alloc(0)
  let winStart = 0
  // One window buffer, reused: a yielded frame is a view that is valid until the consumer asks for the
  // next event (consumers extract what they keep). Fresh buffers per window made RSS follow the GC, not
  // the window size. A batch larger than the window gets a buffer of its own.
  let owned: Buffer | undefined

  // Make [a, b) addressable in `win`; returns false if the file ends first.
  // In header-only scans of large batches only the 61 header bytes of each batch are read: after a batch
  // that did not fit the window the next probe asks for just that much.
  let probe = windowSize
  const ensure = (a: number, b: number): boolean => {
    if (a >= winStart && b <= winStart + win.length) return true
    const len = Math.min(Math.max(probe, b - a), end - a)
    let target: Buffer
    if (len <= windowSize) {
      owned ??= Buffer.allocUnsafeSlow(Math.min(windowSize, Math.max(end, L.RECORD_BATCH_OVERHEAD)))
      target = owned
    } else {
      target = Buffer.allocUnsafeSlow(len)
    }
    const n = source.readInto(target, a, len)
    win = target.subarray(0, n)
    winStart = a
    opts.onProgress?.(a)
    return b <= winStart + win.length
  }

  let pos = opts.from ?? 0
  while (pos < end) {
    const left = end - pos
    // FileLogInputStream stops when fewer than 18 bytes are left.
    if (left <= L.HEADER_SIZE_UP_TO_MAGIC) {
      const zeros = isZeros(pos, end, ensure, () => win, () => winStart)
      yield { kind: 'tail', position: pos, length: left, reason: zeros ? 'zeros' : 'short' }
      return
    }
    if (!ensure(pos, pos + L.HEADER_SIZE_UP_TO_MAGIC)) {
      if (known() !== pos + left) { if (pos >= end) return; continue } // a stream ended: decide with its size
      yield { kind: 'tail', position: pos, length: left, reason: 'truncated' } // file shrank
      return
    }
    const o = pos - winStart
    const size = win.readInt32BE(o + L.SIZE_OFFSET)
    const magic = win.readInt8(o + L.MAGIC_OFFSET)
    const total = L.LOG_OVERHEAD + size
    const bad = frameProblem(size, magic, total, maxBatch)
    if (bad !== undefined) {
      if (bad.code === 'BAD_LENGTH' && size === 0 && isZeros(pos, end, ensure, () => win, () => winStart)) {
        yield { kind: 'tail', position: pos, length: known() - pos, reason: 'zeros' }
        return
      }
      const next = resync ? findNextBatch(source, pos + 1, end, maxBatch) : undefined
      if (next === undefined) end = toEnd()
      yield {
        kind: 'corrupt', position: pos, code: bad.code, message: bad.message,
        length: (next ?? end) - pos, ...(next !== undefined ? { resyncPosition: next } : {}),
      }
      if (next === undefined) return
      pos = next
      continue
    }
    if (total > left) {
      if (isZeros(pos, end, ensure, () => win, () => winStart)) {
        yield { kind: 'tail', position: pos, length: left, reason: 'zeros' }
        return
      }
      // Past the end: a cut-off last batch (unclean shutdown), unless a CRC-valid batch follows. Then the
      // length field itself is damaged, and what follows it can still be read (Kafka hides it as "invalid bytes").
      const next = resync ? findNextBatch(source, pos + 1, end, maxBatch) : undefined
      if (next === undefined) {
        yield { kind: 'tail', position: pos, length: left, reason: 'truncated', declaredSize: total }
        return
      }
      yield {
        kind: 'corrupt', position: pos, code: 'BAD_LENGTH', length: next - pos, resyncPosition: next,
        message: `entry size ${total} runs past the end of the file (${left} bytes left), yet a valid batch follows`,
      }
      pos = next
      continue
    }
    const headerOnly = opts.headersOnly === true && magic >= 2 && total > L.RECORD_BATCH_OVERHEAD &&
      !(pos + total <= winStart + win.length) && !isControlAt(source, pos, ensure, () => win, () => winStart)
    probe = headerOnly ? L.RECORD_BATCH_OVERHEAD : windowSize
    if (headerOnly) {
      ensure(pos, pos + L.RECORD_BATCH_OVERHEAD)
      const h = win.subarray(pos - winStart, pos - winStart + L.RECORD_BATCH_OVERHEAD)
      yield { kind: 'frame', position: pos, sizeInBytes: total, magic, bytes: h, complete: false }
    } else {
      if (!ensure(pos, pos + total)) {
        known()
        yield { kind: 'tail', position: pos, length: end - pos, reason: 'truncated', declaredSize: total }
        return
      }
      const bytes = win.subarray(pos - winStart, pos - winStart + total)
      yield { kind: 'frame', position: pos, sizeInBytes: total, magic, bytes, complete: true }
    }
    pos += total
  }
}

function frameProblem (size: number, magic: number, total: number, maxBatch: number):
{ code: 'BAD_LENGTH' | 'BAD_MAGIC', message: string } | undefined {
  if (size < L.MIN_RECORD_OVERHEAD) {
    return { code: 'BAD_LENGTH', message: `record size ${size} is smaller than the minimum record overhead (${L.MIN_RECORD_OVERHEAD})` }
  }
  if (magic < 0 || magic > 2) {
    return { code: 'BAD_MAGIC', message: `magic ${magic} is not 0, 1 or 2` }
  }
  if (magic === 2 && size < L.MIN_V2_BATCH_LENGTH) {
    return { code: 'BAD_LENGTH', message: `batchLength ${size} is smaller than the v2 batch header (${L.MIN_V2_BATCH_LENGTH})` }
  }
  if (total > maxBatch) {
    return { code: 'BAD_LENGTH', message: `entry size ${total} exceeds the limit of ${maxBatch} bytes (--max-batch-bytes)` }
  }
  return undefined
}

function isControlAt (_s: SegmentSource, pos: number, ensure: (a: number, b: number) => boolean,
  win: () => Buffer, winStart: () => number): boolean {
  if (!ensure(pos, pos + L.RECORD_BATCH_OVERHEAD)) return false
  return (win().readInt16BE(pos - winStart() + L.ATTRIBUTES_OFFSET) & L.CONTROL_FLAG_MASK) !== 0
}

// Is [pos, end) all zero bytes? (preallocated segment tails, files zero-filled after a crash)
function isZeros (pos: number, end: number, ensure: (a: number, b: number) => boolean,
  win: () => Buffer, winStart: () => number): boolean {
  const step = 1024 * 1024
  for (let a = pos; a < end; a += step) {
    const whole = ensure(a, Math.min(end, a + step))
    const w = win()
    const s = winStart()
    // a short read: the input ends (a stream) or shrank; what there is decides
    const b = Math.min(end, a + step, s + w.length)
    for (let i = a - s; i < b - s; i++) if (w[i] !== 0) return false
    if (!whole) return true
  }
  return true
}

/**
 * After framing damage: the first position > from where a v2 batch header is plausible and its CRC-32C
 * matches. Reads in 1 MiB steps; cost is paid only on damaged files.
 */
export function findNextBatch (source: SegmentSource, from: number, end: number, maxBatch: number): number | undefined {
  const step = 1024 * 1024
  for (let a = from; a + L.RECORD_BATCH_OVERHEAD <= end; a += step) {
    const buf = source.readAt(a, Math.min(step + L.RECORD_BATCH_OVERHEAD, end - a))
    const limit = Math.min(step, buf.length - L.RECORD_BATCH_OVERHEAD + 1)
    for (let i = 0; i < limit; i++) {
      if (buf[i + L.MAGIC_OFFSET] !== 2) continue
      const size = buf.readInt32BE(i + L.SIZE_OFFSET)
      if (size < L.MIN_V2_BATCH_LENGTH || size + L.LOG_OVERHEAD > maxBatch || a + i + L.LOG_OVERHEAD + size > end) continue
      const count = buf.readInt32BE(i + L.RECORDS_COUNT_OFFSET)
      if (count < 0) continue
      const whole = source.readAt(a + i, L.LOG_OVERHEAD + size)
      if (whole.readUInt32BE(L.CRC_OFFSET) === crcOf(whole)) return a + i
    }
  }
  return undefined
}

function crcOf (b: Buffer): number { return crc32c(b.subarray(L.ATTRIBUTES_OFFSET)) }
