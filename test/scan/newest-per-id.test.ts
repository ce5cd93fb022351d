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

  it('values left in a window (putInPlace) are the same once the window is flushed before it is overwritten', () => {
    let x = 777
    const rnd = (n: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0
      return x % n
    }
    const n = new NewestPerKey()
    const plain = new Map<string, { offset: bigint; value: string | null }>()
    // one window buffer, overwritten after each flush, as the frame scanner reads again into the same bytes
    const window = Buffer.alloc(4096)
    let view = window.subarray(0)
    let used = 0
    for (let i = 0; i < 40_000; i++) {
      const key = `id-${rnd(300)}`
      const offset = BigInt(i - (rnd(10) === 0 ? rnd(50) : 0))
      const length = rnd(25) === 0 ? -1 : rnd(200)
      if (used + Math.max(0, length) > window.length) {
        n.flush()
        window.fill(0xaa)
        view = window.subarray(0) // a new view of the same bytes, as each read of the scanner's window gives
        used = 0
      }
      for (let j = 0; j < length; j++) view[used + j] = (i + j) % 251
      const value = length < 0 ? null : Buffer.from(view.subarray(used, used + length)).toString('hex')
      const slot = n.keys.ofString(key)
      // some records through put (a general path's value), most in place
      if (rnd(7) === 0)
        n.put(
          slot,
          offset,
          'f.log',
          i,
          i,
          length < 0 ? Buffer.alloc(0) : Buffer.from(view.subarray(used, used + length)),
          0,
          length,
        )
      else n.putInPlace(slot, offset, 'f.log', i, i, view, used, length)
      used += Math.max(0, length)
      const prev = plain.get(key)
      if (prev === undefined || offset >= prev.offset) plain.set(key, { offset, value })
    }
    const got = [...n.entries()]
    expect(got.length).toBe(plain.size)
    for (const e of got)
      expect({ offset: e.offset, value: e.value === null ? null : e.value.toString('hex') }).toEqual(plain.get(e.key))
  })
})
