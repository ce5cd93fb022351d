// The cleaner's offset map against a plain Map of the same puts: newest offset per key, counts, the largest counts,
// the capacity (a full map refuses even a known key), a table sized for fewer keys than it is given, deltas past 32 bits.
import { describe, expect, it } from 'vitest'
import { OffsetMap } from '../../../src/analysis/cleanup/offset-map.js'

const key = (i: number): Uint8Array => Buffer.from(`key-${i}`)

function reference(puts: Array<[number, bigint]>): Map<number, { offset: bigint; count: number }> {
  const m = new Map<number, { offset: bigint; count: number }>()
  for (const [k, o] of puts) m.set(k, { offset: o, count: (m.get(k)?.count ?? 0) + 1 })
  return m
}

describe('OffsetMap', () => {
  it('keeps the newest offset and the count of every key, as a Map does', () => {
    let x = 12345
    const rnd = (n: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0
      return x % n
    }
    const base = 1000n
    const puts: Array<[number, bigint]> = []
    for (let i = 0; i < 60_000; i++) puts.push([rnd(20_000), base + BigInt(i)])
    const map = new OffsetMap(1_000_000, base, true, puts.length)
    for (const [k, o] of puts) expect(map.put(key(k), o)).toBe(true)
    const ref = reference(puts)
    expect(map.size).toBe(ref.size)
    for (const [k, { offset, count }] of ref) {
      const s = map.find(key(k))
      expect(s).toBeGreaterThanOrEqual(0)
      expect(map.isNewest(s, offset)).toBe(true)
      expect(map.isNewest(s, offset - 1n)).toBe(false)
      expect(map.countAt(s)).toBe(count)
    }
    expect(map.find(key(20_001))).toBe(-1)
    const counts = [...ref.values()].map((v) => v.count).sort((a, b) => b - a)
    expect(map.topCounts(100)).toEqual(counts.slice(0, 100))
    expect(map.topCounts(100_000)).toEqual(counts)
  })

  it('counts distinct keys without a counts table, and every key put before the first repeat at 1 after it', () => {
    const map = new OffsetMap(1_000_000, 0n, true, 3000)
    for (let k = 0; k < 2000; k++) map.put(key(k), BigInt(k))
    expect(map.bytes).toBe(new OffsetMap(1_000_000, 0n, false, 3000).bytes)
    expect(map.topCounts(3)).toEqual([1, 1, 1])
    expect(map.countAt(map.find(key(7)))).toBe(1)
    map.put(key(7), 2000n)
    map.put(key(2500), 2001n)
    expect(map.topCounts(3)).toEqual([2, 1, 1])
    for (const k of [0, 7, 1999, 2500]) expect(map.countAt(map.find(key(k))), `key ${k}`).toBe(k === 7 ? 2 : 1)
    expect(map.countAt(map.find(key(3000)))).toBe(0)
  })

  it('refuses every key, known or not, once maxEntries keys are mapped', () => {
    const map = new OffsetMap(3, 0n, false, 10)
    for (let i = 0; i < 3; i++) expect(map.put(key(i), BigInt(i))).toBe(true)
    expect(map.put(key(0), 5n)).toBe(false)
    expect(map.put(key(9), 6n)).toBe(false)
    expect(map.undersized).toBe(false)
    expect(map.isNewest(map.find(key(0)), 0n)).toBe(true)
  })

  it('says when it was sized for fewer keys than it is given, and never at full capacity', () => {
    const small = new OffsetMap(100_000, 0n, false, 10)
    let refused = -1
    for (let i = 0; i < 5000 && refused < 0; i++) if (!small.put(key(i), BigInt(i))) refused = i
    expect(refused).toBeGreaterThan(0)
    expect(small.undersized).toBe(true)
    const full = new OffsetMap(5000, 0n, false)
    for (let i = 0; i < 5000; i++) expect(full.put(key(i), BigInt(i))).toBe(true)
    expect(full.undersized).toBe(false)
  })

  it('counts past 255 records of one key (and past 65,535), and offsets more than 2^32 past the base', () => {
    const map = new OffsetMap(10, 7n, true, 2)
    for (let i = 0; i < 70_000; i++) map.put(key(1), 7n + BigInt(i))
    map.put(key(2), 8n)
    const far = 7n + (1n << 40n) + 3n
    map.put(key(2), far)
    expect(map.countAt(map.find(key(1)))).toBe(70_000)
    expect(map.topCounts(2)).toEqual([70_000, 2])
    expect(map.isNewest(map.find(key(2)), far)).toBe(true)
    expect(map.isNewest(map.find(key(2)), far - 1n)).toBe(false)
    expect(map.isNewest(map.find(key(1)), 7n + 69_999n)).toBe(true)
    expect(map.isNewest(map.find(key(1)), 7n + 69_998n)).toBe(false)
  })
})
