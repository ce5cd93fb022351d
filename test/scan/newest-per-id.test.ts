// NewestPerKey against a plain Map of every key's newest record (the later offset wins, ties too), over enough
// records that its arena is compacted many times.
import { describe, expect, it } from 'vitest'
import { NewestPerKey } from '../../src/scan/newest-per-id.js'

describe('NewestPerKey', () => {
  it("keeps each key's newest record, its value bytes intact across compactions", () => {
    const seed = Number(process.env.FUZZ_SEED ?? 12345)
    console.log(`NewestPerKey seed ${seed}`)
    let x = seed >>> 0
    const rnd = (n: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0
      return x % n
    }
    const n = new NewestPerKey()
    const plain = new Map<string, { offset: bigint; value: Buffer | null; position: number }>()
    for (let i = 0; i < 50_000; i++) {
      const key = `id-${rnd(700)}`
      // mostly ascending offsets, some repeated or older (a replayed record): the later one wins ties only
      const offset = BigInt(i - (rnd(10) === 0 ? rnd(50) : 0))
      const value = rnd(20) === 0 ? null : Buffer.alloc(1 + rnd(300), i % 251)
      n.add(key, offset, 'f.log', i, BigInt(i), value)
      const prev = plain.get(key)
      if (prev === undefined || offset >= prev.offset) plain.set(key, { offset, value, position: i })
    }
    const got = [...n.entries()]
    expect(got.length).toBe(plain.size)
    for (const e of got) {
      const want = plain.get(e.key)!
      expect({
        offset: e.offset,
        position: e.position,
        value: e.value === null ? null : e.value.toString('hex'),
      }).toEqual({
        offset: want.offset,
        position: want.position,
        value: want.value === null ? null : want.value.toString('hex'),
      })
    }
  })
})
