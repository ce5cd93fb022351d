// AsciiIntern gives the string Buffer.toString('utf8') gives, for any bytes (ASCII or not, short or longer than it
// keeps), wherever they are in a buffer, and never a string kept for other bytes whose hash shares its slot.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AsciiIntern, asciiHash } from '../../src/bytes/ascii-intern.js'
import { KeySlots } from '../../src/bytes/key-slots.js'

describe('AsciiIntern', () => {
  it('reads what toString reads, at any place in a buffer', () => {
    const intern = new AsciiIntern()
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(7), (bytes, pad) => {
        const buf = Buffer.concat([Buffer.alloc(pad, 0x41), Buffer.from(bytes), Buffer.alloc(3, 0x42)])
        expect(intern.get(buf, pad, bytes.length)).toBe(Buffer.from(bytes).toString('utf8'))
      }),
      { numRuns: 3000 },
    )
  })

  it('never gives another id of the same length whose hash shares its slot (20,000 ids through 4,096 slots, twice)', () => {
    const intern = new AsciiIntern()
    const ids = Array.from({ length: 20_000 }, (_, i) => `scale-app-${String(i).padStart(6, '0')}`)
    for (let round = 0; round < 2; round++) {
      for (const id of ids) expect(intern.get(Buffer.from(`..${id}..`), 2, id.length)).toBe(id)
    }
  })
})

// The tables index by a hash's low bits (KeySlots' probe start, AsciiIntern's slot). Word-wise FNV leaves each word's
// high bytes out of those bits, so ids that differ only in their last digits shared a few buckets: 1,000 ids of
// bench/make-scale.mjs's shape fell into 80 of 2,048, and every lookup walked a probe chain. A hash that spreads
// them fills about as many buckets as random numbers would (2,048 * (1 - e^(-1000/2048)), about 797).
describe('asciiHash', () => {
  const buckets = (ids: string[], bits: number): number => {
    const seen = new Set<number>()
    for (const id of ids) seen.add(asciiHash(Buffer.from(id, 'latin1'), 0, id.length) & ((1 << bits) - 1))
    return seen.size
  }
  const numbered = (stem: string, n: number, width: number): string[] =>
    Array.from({ length: n }, (_, i) => `${stem}${String(i).padStart(width, '0')}`)

  it('spreads ids that differ in their last digits over the low bits, as random numbers would', () => {
    // each shape: ids whose words differ in a few low bits only (digits are 0x30-0x39), of lengths 0-3 mod 4
    for (const ids of [
      numbered('scale-app-', 1000, 6),
      numbered('flink-sink-0-', 1000, 4),
      numbered('app-1_', 1000, 3),
      numbered('t', 1000, 3),
    ])
      expect(buckets(ids, 11)).toBeGreaterThan(700)
  })

  it('hashes a string as KeySlots.ofString does, so that bytes and strings find the same slot', () => {
    const slots = new KeySlots()
    const ids = numbered('scale-app-', 3000, 6)
    for (const [i, id] of ids.entries()) expect(slots.ofString(id)).toBe(i)
    for (const [i, id] of ids.entries()) expect(slots.of(Buffer.from(`#${id}`, 'latin1'), 1, id.length)).toBe(i)
  })
})
