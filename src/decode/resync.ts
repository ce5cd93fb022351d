// After framing damage: find the first position > from where a v2 batch header is plausible and its
// CRC-32C matches (the batch the dump resumes at).
//
// Work is bounded per skipped byte. The obvious search (at every plausible header, read the candidate
// and CRC it) is quadratic: 17 bytes with magic 7 followed by 4 MiB of `10 02 00` offer a 1 MiB candidate
// at every third byte, > 30 s. Here one forward sweep keeps the CRC of the prefix [from, x) and checks
// every candidate from two prefix CRCs (crc32cOfRange: crc([a, b)) from P(a), P(b)), so each byte is read
// and CRC-checked once, whatever the candidates, plus a constant per candidate. Memory: one read step and
// at most MAX_PENDING open candidates (a candidate is open until the sweep reaches its end).
import { crc32cOfRange, crc32cUpdate } from '../bytes/crc32c.js'
import type { SegmentSource } from './segment-source.js'
import { frameProblem } from './frame-rule.js'
import * as L from './layout.js'

const STEP = 1024 * 1024
/**
 * candidates whose end the sweep has not reached yet; a header found while this many are open is not
 * considered (only inputs built to defeat the cheap checks below get there; 4 arrays of 8 bytes each)
 */
export const MAX_PENDING = 1 << 18

/** what one search did, for tests (work done instead of time) */
export interface ResyncStats {
  bytesRead: number
  crcBytes: number
  candidates: number
  dropped: number
}

// Cheap checks before a candidate costs anything: the header readLog would accept without a problem
// (recordsCount >= 0, lastOffsetDelta >= 0) and records that fit their offsets (a batch's record count is at
// most lastOffsetDelta + 1: offset deltas are distinct, from 0; compaction keeps lastOffsetDelta).
function plausible(buf: Buffer, i: number, at: number, end: number, maxBatch: number): number {
  if (buf[i + L.MAGIC_OFFSET] !== 2) return -1
  const size = buf.readInt32BE(i + L.SIZE_OFFSET)
  if (size < L.MIN_V2_BATCH_LENGTH || size + L.LOG_OVERHEAD > maxBatch || at + L.LOG_OVERHEAD + size > end) return -1
  const count = buf.readInt32BE(i + L.RECORDS_COUNT_OFFSET)
  const delta = buf.readInt32BE(i + L.LAST_OFFSET_DELTA_OFFSET)
  if (count < 0 || delta < 0 || count > delta + 1) return -1
  return L.LOG_OVERHEAD + size
}

/** open candidates, a binary min-heap on their end position */
class Pending {
  readonly pos = new Float64Array(MAX_PENDING)
  readonly end = new Float64Array(MAX_PENDING)
  readonly prefix = new Float64Array(MAX_PENDING)
  readonly stored = new Float64Array(MAX_PENDING)
  size = 0

  push(pos: number, end: number, prefix: number, stored: number): void {
    let i = this.size++
    while (i > 0) {
      const parent = (i - 1) >> 1
      if (this.end[parent]! <= end) break
      this.move(parent, i)
      i = parent
    }
    this.set(i, pos, end, prefix, stored)
  }

  /** remove the root (the caller read it) */
  pop(): void {
    const last = --this.size
    if (last === 0) return
    const e = this.end[last]!
    let i = 0
    for (;;) {
      let c = 2 * i + 1
      if (c >= last) break
      if (c + 1 < last && this.end[c + 1]! < this.end[c]!) c++
      if (this.end[c]! >= e) break
      this.move(c, i)
      i = c
    }
    this.move(last, i)
  }

  /** keep only candidates before `pos` (the first valid batch found so far); rebuilds the heap */
  keepBefore(pos: number): void {
    const kept: number[][] = []
    for (let i = 0; i < this.size; i++)
      if (this.pos[i]! < pos) kept.push([this.pos[i]!, this.end[i]!, this.prefix[i]!, this.stored[i]!])
    this.size = 0
    for (const k of kept) this.push(k[0]!, k[1]!, k[2]!, k[3]!)
  }

  private move(from: number, to: number): void {
    this.set(to, this.pos[from]!, this.end[from]!, this.prefix[from]!, this.stored[from]!)
  }

  private set(i: number, pos: number, end: number, prefix: number, stored: number): void {
    this.pos[i] = pos
    this.end[i] = end
    this.prefix[i] = prefix
    this.stored[i] = stored
  }
}

/**
 * The search described above; undefined when no valid batch starts in [from, end). Only batches starting
 * before `before` are candidates (they may end after it, up to `end`).
 */
export function findNextBatch(
  source: SegmentSource,
  from: number,
  end: number,
  maxBatch: number,
  stats?: ResyncStats,
  before = end,
): number | undefined {
  const buf = Buffer.allocUnsafeSlow(Math.max(0, Math.min(STEP + L.RECORD_BATCH_OVERHEAD, end - from)))
  const pending = new Pending()
  let best = Infinity
  // the running prefix CRC: crc of [origin, chainPos), origin where the first open candidate's range starts
  let chainPos = from
  let chain = 0
  let bufStart = from
  let bufLen = 0
  const advance = (to: number): void => {
    if (to <= chainPos) return
    // with no candidate open no prefix is needed: restart the prefix at `to` (an empty prefix, CRC 0)
    if (pending.size === 0) {
      chainPos = to
      chain = 0
      return
    }
    chain = crc32cUpdate(chain, buf.subarray(chainPos - bufStart, to - bufStart))
    if (stats !== undefined) stats.crcBytes += to - chainPos
    chainPos = to
  }
  // settle every open candidate ending at or before `upTo` (within the buffer)
  const settle = (upTo: number): void => {
    while (pending.size > 0 && pending.end[0]! <= upTo) {
      const e = pending.end[0]!
      advance(e)
      const p = pending.pos[0]!
      const ok =
        p < best && crc32cOfRange(pending.prefix[0]!, chain, e - (p + L.ATTRIBUTES_OFFSET)) === pending.stored[0]
      pending.pop()
      if (ok) {
        best = p
        pending.keepBefore(p)
      }
    }
  }

  for (
    let a = from;
    a < end &&
    (best === Infinity ? (a < before && a + L.RECORD_BATCH_OVERHEAD <= end) || pending.size > 0 : pending.size > 0);
    a += STEP
  ) {
    bufStart = a
    const want = Math.min(buf.length, end - a)
    bufLen = source.readInto(buf, a, want)
    if (stats !== undefined) stats.bytesRead += bufLen
    const stepEnd = Math.min(a + STEP, a + bufLen)
    if (best === Infinity) {
      const limit = Math.min(stepEnd, a + bufLen - L.RECORD_BATCH_OVERHEAD + 1, before)
      for (let at = a; at < limit; at++) {
        const i = at - a
        if (buf[i + L.MAGIC_OFFSET] !== 2) continue
        const total = plausible(buf, i, at, end, maxBatch)
        if (total < 0) continue
        settle(at + L.ATTRIBUTES_OFFSET)
        if (best !== Infinity) break // a candidate before this one was valid
        if (stats !== undefined) stats.candidates++
        if (pending.size === MAX_PENDING) {
          if (stats !== undefined) stats.dropped++
          continue
        }
        advance(at + L.ATTRIBUTES_OFFSET)
        pending.push(at, at + total, chain, buf.readUInt32BE(i + L.CRC_OFFSET))
      }
    }
    settle(stepEnd)
    if (bufLen < want) break // the input shrank: candidates past its end stay unsettled
    advance(stepEnd) // the next step's buffer starts there
  }
  return best === Infinity ? undefined : best
}

/** the framing bytes of the entry after a batch, when they lie past the read window */
const PEEK = Buffer.alloc(L.HEADER_SIZE_UP_TO_MAGIC)

/**
 * A damaged batchLength that grew by a few bytes frames "fine" but swallows the start of the next batch,
 * whose framing then fails at the declared end. Only then (the entry at the declared end does not frame
 * and this batch's CRC fails: rare, so the CRC is paid only here) is a valid batch searched for inside the
 * declared span; resuming at the declared end would skip the whole next batch. A batch whose CRC holds
 * keeps its length, so a batch carried inside a record value is never read as a batch. `win` holds the
 * whole entry at `pos` (from `winStart`); returns the position of the batch inside it, if there is one.
 */
export function overlappedBatch(
  source: SegmentSource,
  pos: number,
  total: number,
  end: number,
  maxBatch: number,
  win: Buffer,
  winStart: number,
): number | undefined {
  const e = pos + total
  if (!entryFailsAt(source, e, end, maxBatch, win, winStart)) return undefined
  const o = pos - winStart
  if (crc32cUpdate(0, win.subarray(o + L.ATTRIBUTES_OFFSET, o + total)) === win.readUInt32BE(o + L.CRC_OFFSET))
    return undefined
  return batchInside(source, pos, e, end, maxBatch)
}

/**
 * The same for a batch larger than the window, whose CRC was computed while streaming it and failed: the
 * framing at its declared end is read aside.
 */
export function overlappedStreamedBatch(
  source: SegmentSource,
  pos: number,
  total: number,
  end: number,
  maxBatch: number,
): number | undefined {
  return entryFailsAt(source, pos + total, end, maxBatch, NO_WINDOW, 0)
    ? batchInside(source, pos, pos + total, end, maxBatch)
    : undefined
}

const NO_WINDOW = Buffer.alloc(0)

/**
 * Does the entry at `e` fail to frame (frameProblem)? Read in place from `win` (from `winStart`) when its 17
 * framing bytes are there: this runs for every batch a resyncing scan frames, so it allocates nothing; else
 * read aside into PEEK (once per window). False when fewer than 17 bytes are left (a tail, not this case).
 */
function entryFailsAt(
  source: SegmentSource,
  e: number,
  end: number,
  maxBatch: number,
  win: Buffer,
  winStart: number,
): boolean {
  if (e + L.HEADER_SIZE_UP_TO_MAGIC > end) return false
  let at = win
  let i = e - winStart
  if (i < 0 || winStart + win.length < e + L.HEADER_SIZE_UP_TO_MAGIC) {
    if (source.readInto(PEEK, e, PEEK.length) !== PEEK.length) return false
    at = PEEK
    i = 0
  }
  const size = at.readInt32BE(i + L.SIZE_OFFSET)
  return frameProblem(size, at.readInt8(i + L.MAGIC_OFFSET), L.LOG_OVERHEAD + size, maxBatch) !== undefined
}

/** a valid batch starting inside (pos, e), the declared span of a damaged batch */
function batchInside(source: SegmentSource, pos: number, e: number, end: number, maxBatch: number): number | undefined {
  const q = findNextBatch(source, pos + 1, end, maxBatch, undefined, e)
  return q !== undefined && q < e ? q : undefined
}
