// The resync search (decode/resync.ts): the same answer as the obvious search (read and CRC every
// plausible candidate), with each byte CRC-checked at most once: work is asserted, not time.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { crc32c } from '../../src/bytes/crc32c.js'
import { findNextBatch, type ResyncStats, type SearchWindow, searchNextBatch } from '../../src/decode/resync.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { encodeBatch, segment } from '../support/segment-builder.js'

const MAX = 1024 * 1024 * 1024

// the obvious search, as the scanner did it before: quadratic on hostile input, fine on small ones
function naive(b: Buffer, from: number, end: number): number | undefined {
  for (let i = from; i + 61 <= end; i++) {
    if (b[i + 16] !== 2) continue
    const size = b.readInt32BE(i + 8)
    if (size < 49 || i + 12 + size > end) continue
    const count = b.readInt32BE(i + 57)
    const delta = b.readInt32BE(i + 23)
    if (count < 0 || delta < 0 || count > delta + 1) continue
    if (crc32c(b.subarray(i + 21, i + 12 + size)) === b.readUInt32BE(i + 17)) return i
  }
  return undefined
}

/** a window of `capacity` bytes over `b` that moves forward only, counting the bytes it reads */
class CountingWindow implements SearchWindow {
  win: Buffer
  winStart: number
  winEnd: number
  read = 0
  private readonly buf: Buffer
  constructor(
    private readonly b: Buffer,
    from: number,
    readonly capacity: number,
  ) {
    this.buf = Buffer.alloc(capacity)
    this.win = this.buf.subarray(0, 0)
    this.winStart = from
    this.winEnd = from
  }
  slide(keep: number): boolean {
    const kept = this.winEnd - keep
    const n = Math.max(0, Math.min(this.capacity - kept, this.b.length - this.winEnd))
    if (n === 0) return false
    this.win.copy(this.buf, 0, keep - this.winStart)
    this.b.copy(this.buf, kept, this.winEnd, this.winEnd + n)
    this.read += n
    this.win = this.buf.subarray(0, kept + n)
    this.winStart = keep
    this.winEnd += n
    return true
  }
}

const stats = (): ResyncStats => ({ bytesRead: 0, crcBytes: 0, candidates: 0, dropped: 0 })

/** a fake v2 header at `at`: plausible (magic 2, count 0 <= delta + 1), declaring `size`, with a wrong CRC */
function fakeHeader(b: Buffer, at: number, size: number): void {
  b.writeInt32BE(size, at + 8)
  b[at + 16] = 2
  b.writeUInt32BE(0xdeadbeef, at + 17)
  b.writeInt32BE(0, at + 23)
  b.writeInt32BE(0, at + 57)
}

describe('findNextBatch', () => {
  it('finds what the obvious search finds, on garbage with real and fake batches in it', () => {
    const batch = fc
      .record({ n: fc.integer({ min: 0, max: 3 }), v: fc.string({ maxLength: 40 }) })
      .map(({ n, v }) => encodeBatch({ records: Array.from({ length: n }, () => ({ key: null, value: v })) }))
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 120 }).map((u) => Buffer.from(u)),
      batch,
      batch.map((b) => b.subarray(0, Math.max(17, b.length - 5))),
    )
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.nat(400),
        fc.array(fc.nat(1000), { maxLength: 4 }),
        (pieces, fromSeed, fakes) => {
          const b = Buffer.concat(pieces)
          for (const f of fakes) if (f + 61 <= b.length) fakeHeader(b, f, Math.min(b.length - f - 12, 49 + (f % 300)))
          const from = b.length === 0 ? 0 : fromSeed % b.length
          expect(findNextBatch(new BufferSource(b), from, b.length, MAX)).toBe(naive(b, from, b.length))
        },
      ),
      { numRuns: 400 },
    )
  })

  it('issue #14: 17 bytes with magic 7, then 4 MiB of 10 02 00: one read, no CRC work', () => {
    const b = Buffer.alloc(17 + 4 * 1024 * 1024)
    b[16] = 7
    for (let i = 17; i < b.length; i++) b[i] = [0x10, 0x02, 0x00][(i - 17) % 3]!
    const s = stats()
    expect(findNextBatch(new BufferSource(b), 1, b.length, MAX, s)).toBeUndefined()
    expect(s.bytesRead).toBeLessThanOrEqual(b.length + 61 * 8)
    expect(s.crcBytes).toBe(0)
  })

  it('plausible 1 MiB candidates every 64 bytes: each byte is CRC-checked at most once, and the real batch is found', () => {
    const real = segment({ records: [{ key: null, value: 'after the damage' }] })
    const garbage = 4 * 1024 * 1024
    const b = Buffer.concat([Buffer.alloc(garbage), real, Buffer.alloc(1024 * 1024)])
    for (let at = 64; at + 61 <= garbage; at += 64) fakeHeader(b, at, 1024 * 1024)
    const s = stats()
    expect(findNextBatch(new BufferSource(b), 1, b.length, MAX, s)).toBe(garbage)
    expect(s.candidates).toBeGreaterThan(60000)
    expect(s.dropped).toBe(0)
    expect(s.crcBytes).toBeLessThanOrEqual(b.length)
    expect(s.bytesRead).toBeLessThanOrEqual(b.length + 61 * 8)
  })

  it('a valid candidate that ends after a later valid one still wins (the first position is the answer)', () => {
    const second = encodeBatch({ records: [{ key: null, value: 'x' }] })
    // a batch whose records section holds another whole batch: both CRCs match, the outer starts first
    const outer = encodeBatch({
      recordsCount: 0,
      lastOffsetDelta: 0,
      recordBytes: Buffer.concat([Buffer.alloc(3), second]),
    })
    const b = Buffer.concat([Buffer.from([1, 2, 3]), outer])
    expect(naive(b, 1, b.length)).toBe(3)
    expect(findNextBatch(new BufferSource(b), 1, b.length, MAX)).toBe(3)
  })

  it('through a moving window of any capacity: the same answer, each byte read once', () => {
    const batch = fc
      .record({ n: fc.integer({ min: 0, max: 3 }), v: fc.string({ maxLength: 200 }) })
      .map(({ n, v }) => encodeBatch({ records: Array.from({ length: n }, () => ({ key: null, value: v })) }))
    const piece = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((u) => Buffer.from(u)),
      batch,
    )
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 8 }),
        fc.nat(400),
        fc.integer({ min: 61, max: 2000 }),
        (pieces, f, cap) => {
          const b = Buffer.concat(pieces)
          const from = b.length === 0 ? 0 : f % b.length
          const w = new CountingWindow(b, from, cap)
          const found = searchNextBatch(w, from, b.length, MAX)
          expect(found).toBe(naive(b, from, b.length))
          expect(w.read).toBeLessThanOrEqual(b.length - from)
        },
      ),
      { numRuns: 400 },
    )
  })
})
