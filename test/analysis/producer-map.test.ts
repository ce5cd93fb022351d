// ProducerInts (analysis/producer-map.ts) against a Map: any sequence of sets and gets, across its growth, and
// across toParts/fromParts (how the partition workers post it).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ProducerInts } from '../../src/analysis/producer-map.js'

describe('ProducerInts', () => {
  // buckets of 8 slots: thousands of splits and directory doublings in a few thousand sets
  it('answers as a Map does, across bucket splits (property)', () => {
    const id = fc.oneof(fc.bigInt({ min: -5n, max: 5000n }), fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })), { maxLength: 3000 }),
        fc.constantFrom(8, 64, 4096),
        (ops, slots) => {
          const t = new ProducerInts(slots)
          const m = new Map<bigint, number>()
          for (const [k, v] of ops) {
            t.set(k, v)
            m.set(k, v)
          }
          const copy = ProducerInts.fromParts(structuredClone(t.toParts()))
          for (const u of [t, copy]) {
            expect(u.size).toBe(m.size)
            for (const [k, v] of m) expect(u.get(k)).toBe(v)
            for (const [k] of ops) if (!m.has(k + 1n)) expect(u.get(k + 1n)).toBeUndefined()
          }
        },
      ),
      { numRuns: 60 },
    )
  })

  it('a bucket that cannot split further sends the rest to its overflow map', () => {
    // at most 4 buckets of 8 slots (depth 2): 24 entries in buckets, the rest overflow; all found
    const t = new ProducerInts(8, 2)
    for (let i = 0; i < 2000; i++) t.set(BigInt(i), i)
    for (let i = 0; i < 2000; i++) t.set(BigInt(i), i + 1) // updates, in buckets and in the overflow
    for (let i = 0; i < 2000; i++) expect(t.get(BigInt(i))).toBe(i + 1)
    expect(t.size).toBe(2000)
    const copy = ProducerInts.fromParts(structuredClone(t.toParts()))
    expect(copy.get(1999n)).toBe(2000)
  })

  it('a million producers: every one found', () => {
    const t = new ProducerInts()
    for (let i = 0; i < 1_000_000; i++) t.set(BigInt(i * 7 + 1000), i % 65536)
    expect(t.size).toBe(1_000_000)
    for (let i = 0; i < 1_000_000; i += 997) expect(t.get(BigInt(i * 7 + 1000))).toBe(i % 65536)
    expect(t.get(999n)).toBeUndefined()
  })
})

describe('ProducerInts with few producers stays small (lso over 3,000 partitions held 295 MB of first buckets)', () => {
  it('3,000 maps of one producer each: under 4 MB of typed arrays; the same values as with full buckets from the start', () => {
    const before = process.memoryUsage().arrayBuffers
    const maps: ProducerInts[] = []
    for (let i = 0; i < 3000; i++) {
      const m = new ProducerInts()
      m.set(BigInt(i), i)
      maps.push(m)
    }
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4 * 1024 * 1024)
    for (let i = 0; i < 3000; i++) expect(maps[i]!.get(BigInt(i))).toBe(i)
  })

  it('growing the first bucket, then splitting: every value kept (100k producers)', () => {
    const m = new ProducerInts()
    for (let i = 0; i < 100_000; i++) m.set(BigInt(i * 7919), i)
    expect(m.size).toBe(100_000)
    for (let i = 0; i < 100_000; i += 97) expect(m.get(BigInt(i * 7919))).toBe(i)
    const back = ProducerInts.fromParts(m.toParts())
    for (let i = 0; i < 100_000; i += 101) expect(back.get(BigInt(i * 7919))).toBe(i)
  })
})
