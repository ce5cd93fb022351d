// After framing damage: find the first position > from where a v2 batch header is plausible and its
// CRC-32C matches (the batch the dump resumes at).
//
// Work is bounded per skipped byte. The obvious search (at every plausible header, read the candidate
// and CRC it) is quadratic: 17 bytes with magic 7 followed by 4 MiB of `10 02 00` offer a 1 MiB candidate
// at every third byte, > 30 s. Here one forward sweep keeps the CRC of the prefix [from, x) and checks
// every candidate from two prefix CRCs (crc32cOfRange: crc([a, b)) from P(a), P(b)), so each byte is read
// and CRC-checked once, whatever the candidates, plus a constant per candidate. Memory: one window and
// at most MAX_PENDING open candidates (a candidate is open until the sweep reaches its end).
//
// The sweep reads through a SearchWindow that only moves forward: the framer's own window (frame-scanner.ts),
// whose bytes are searched where they are and which the framer resumes in, so that the bytes after damage are
// read once, by the search, and not again by the framer. When the window moves on it keeps the header bytes not
// searched yet and the candidates that start in its second half (one of them may be the batch found).
import { crc32cOfRange, crc32cUpdate } from '../bytes/crc32c.js'
import type { SegmentSource } from './segment-source.js'
import { frameProblem } from './frame-rule.js'
import * as L from './layout.js'
import { MAX_PENDING, Pending } from './resync-pending.js'

export { MAX_PENDING } from './resync-pending.js'

const STEP = 1024 * 1024

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

/** The bytes the search reads: a window over the input that only moves forward. */
export interface SearchWindow {
  /** the bytes [winStart, winEnd) */
  readonly win: Buffer
  readonly winStart: number
  readonly winEnd: number
  /** the most bytes the window holds */
  readonly capacity: number
  /**
   * the bytes from `keep` (winStart <= keep <= winEnd) kept at the front and the window read on from winEnd, as
   * far as its capacity goes; false when nothing more could be read
   */
  slide(keep: number): boolean
}

/** A SearchWindow of its own over `source`, for a search outside the framer (a batch streamed past the window). */
class SourceWindow implements SearchWindow {
  win: Buffer
  winStart: number
  winEnd: number
  readonly capacity: number
  private readonly buf: Buffer

  constructor(
    private readonly source: SegmentSource,
    from: number,
    private readonly end: number,
    private readonly stats: ResyncStats | undefined,
  ) {
    this.buf = Buffer.allocUnsafeSlow(Math.max(0, Math.min(STEP, end - from)))
    this.capacity = this.buf.length
    this.win = this.buf.subarray(0, 0)
    this.winStart = from
    this.winEnd = from
  }

  slide(keep: number): boolean {
    const kept = this.winEnd - keep
    const room = Math.min(this.capacity - kept, this.end - this.winEnd)
    if (room <= 0) return false
    this.win.copy(this.buf, 0, keep - this.winStart) // copy: the bytes still wanted, to the front (regions may overlap)
    const n = this.source.readInto(this.buf.subarray(kept, kept + room), this.winEnd, room)
    if (this.stats !== undefined) this.stats.bytesRead += n
    this.win = this.buf.subarray(0, kept + n)
    this.winStart = keep
    this.winEnd = keep + kept + n
    return n > 0
  }
}

/** what a search is told besides its range */
export interface SearchOptions {
  stats?: ResyncStats
  /** only batches starting before this are candidates (they may end after it, up to `end`) */
  before?: number
  /** a position whose bytes the caller wants kept in the window if they are near enough (a batch it may frame) */
  hold?: number
}

/**
 * The search described above, over its own reads of `source`; undefined when no valid batch starts in
 * [from, end). Only batches starting before `before` are candidates (they may end after it, up to `end`).
 */
export function findNextBatch(
  source: SegmentSource,
  from: number,
  end: number,
  maxBatch: number,
  stats?: ResyncStats,
  before = end,
): number | undefined {
  const w = new SourceWindow(source, from, end, stats)
  return searchNextBatch(w, from, end, maxBatch, { before, ...(stats !== undefined ? { stats } : {}) })
}

/**
 * The search described above through `w`, which holds `from` (winStart <= from <= winEnd) and is moved on as the
 * sweep needs; undefined when no valid batch starts in [from, end).
 */
export function searchNextBatch(
  w: SearchWindow,
  from: number,
  end: number,
  maxBatch: number,
  o: SearchOptions = {},
): number | undefined {
  const before = o.before ?? end
  const stats = o.stats
  const pending = new Pending()
  let best = Infinity
  // the running prefix CRC: crc of [origin, chainPos), origin where the first open candidate's range starts
  let chainPos = from
  let chain = 0
  // the next position whose header is looked at
  let at = from
  const advance = (to: number): void => {
    if (to <= chainPos) return
    // with no candidate open no prefix is needed: restart the prefix at `to` (an empty prefix, CRC 0)
    if (pending.size === 0) {
      chainPos = to
      chain = 0
      return
    }
    chain = crc32cUpdate(chain, w.win.subarray(chainPos - w.winStart, to - w.winStart))
    if (stats !== undefined) stats.crcBytes += to - chainPos
    chainPos = to
  }
  // settle every open candidate ending at or before `upTo` (within the window)
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
  const scanning = (): boolean => best === Infinity && at < before && at + L.RECORD_BATCH_OVERHEAD <= end
  for (;;) {
    if (!scanning() && pending.size === 0) break
    if (scanning()) {
      // the positions whose whole header is in the window
      const limit = Math.min(w.winEnd - L.RECORD_BATCH_OVERHEAD + 1, before)
      const buf = w.win
      const base = w.winStart
      for (; at < limit; at++) {
        const i = at - base
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
    settle(w.winEnd)
    if (w.winEnd >= end || (!scanning() && pending.size === 0)) break
    // the prefix moves on with the window, but not past a header not looked at yet (its range starts at its CRC)
    advance(scanning() ? Math.min(w.winEnd, at + L.ATTRIBUTES_OFFSET) : w.winEnd)
    if (!w.slide(keepFrom(w, scanning() ? at : w.winEnd, best, pending, o.hold))) break // the input shrank
  }
  return best === Infinity ? undefined : best
}

/**
 * Where the window keeps its bytes from when it moves on: the header bytes not searched yet (`first`), and the
 * earliest of the batch found, the open candidates and the caller's `hold` that lies in the window's second half
 * (one of them may be framed next; an earlier one is read again if it is).
 */
function keepFrom(w: SearchWindow, first: number, best: number, pending: Pending, hold: number | undefined): number {
  const reach = w.winEnd - Math.floor(w.capacity / 2)
  let keep = first
  if (best >= reach && best < keep) keep = best
  if (hold !== undefined && hold >= reach && hold < keep) keep = hold
  return Math.max(w.winStart, Math.min(keep, pending.firstFrom(reach)))
}

/** the framing bytes of the entry after a batch, when they lie past the read window */
const PEEK = Buffer.alloc(L.HEADER_SIZE_UP_TO_MAGIC)

/**
 * A damaged batchLength that grew by a few bytes frames "fine" but swallows the start of the next batch,
 * whose framing then fails at the declared end. One that shrank by a few bytes leaves the batch's last bytes
 * and the next batch's first ones, which may frame by chance as a small magic 0/1 entry (a v2 batch's offset
 * field holds the size, its partitionLeaderEpoch's first byte the magic) whose end lies inside the next batch.
 * Only then (the entry at the declared end does not frame, or frames as a legacy entry after this v2 batch,
 * which a broker never writes, and this batch's CRC fails: rare, so the CRC is paid only here) is a valid batch
 * searched for inside the declared span and that entry; resuming at the declared end, or after the chance
 * entry, would skip the whole next batch. A batch whose CRC holds keeps its length, so a batch carried inside a
 * record value is never read as a batch. `w` holds the whole entry at `pos`; the search moves it on, keeping the
 * entry if it can; returns the position of the batch found: inside the entry (its length grew) or inside the
 * chance entry at its declared end (its length shrank), if there is one.
 */
export function overlappedBatch(
  source: SegmentSource,
  w: SearchWindow,
  pos: number,
  total: number,
  end: number,
  maxBatch: number,
): number | undefined {
  const before = suspectUntil(source, pos + total, end, maxBatch, w.win, w.winStart)
  if (before === undefined) return undefined
  const o = pos - w.winStart
  if (crc32cUpdate(0, w.win.subarray(o + L.ATTRIBUTES_OFFSET, o + total)) === w.win.readUInt32BE(o + L.CRC_OFFSET))
    return undefined
  return searchNextBatch(w, pos + 1, end, maxBatch, { before, hold: pos })
}

/**
 * The same for a batch larger than the window, whose CRC was computed while streaming it and failed: the
 * framing at its declared end is read aside, and the batch is searched by reads of its own (its bytes have left
 * the window).
 */
export function overlappedStreamedBatch(
  source: SegmentSource,
  pos: number,
  total: number,
  end: number,
  maxBatch: number,
): number | undefined {
  const before = suspectUntil(source, pos + total, end, maxBatch, NO_WINDOW, 0)
  return before === undefined ? undefined : findNextBatch(source, pos + 1, end, maxBatch, undefined, before)
}

const NO_WINDOW = Buffer.alloc(0)

/**
 * Where the search inside a v2 batch ending at `e` stops (batches starting before it): at `e` when the entry at
 * `e` does not frame (frameProblem) or frames as magic 0/1 past `end`, at the end of that entry when it frames as
 * magic 0/1 inside the input; undefined when it frames as a v2 batch (or fewer than 17 bytes are left: a tail,
 * not this case). Read in place from `win` (from `winStart`) when its 17 framing bytes are there, else read aside
 * into PEEK (once per window): it allocates nothing.
 */
function suspectUntil(
  source: SegmentSource,
  e: number,
  end: number,
  maxBatch: number,
  win: Buffer,
  winStart: number,
): number | undefined {
  if (e + L.HEADER_SIZE_UP_TO_MAGIC > end) return undefined
  let at = win
  let i = e - winStart
  if (i < 0 || winStart + win.length < e + L.HEADER_SIZE_UP_TO_MAGIC) {
    if (source.readInto(PEEK, e, PEEK.length) !== PEEK.length) return undefined
    at = PEEK
    i = 0
  }
  const size = at.readInt32BE(i + L.SIZE_OFFSET)
  const magic = at.readInt8(i + L.MAGIC_OFFSET)
  if (frameProblem(size, magic, L.LOG_OVERHEAD + size, maxBatch) !== undefined) return e
  if (magic === 2) return undefined
  // one that runs past the end is a tail the framer resyncs after (frame-scanner.ts pastEnd): the batch in it is found
  return e + L.LOG_OVERHEAD + size <= end ? e + L.LOG_OVERHEAD + size : e
}
