// KeySlots gives one slot per distinct key as Buffer.toString('utf8') reads it, for any bytes (ASCII or not, empty,
// wherever they are in a buffer), the same slot for a key given as a string, and keeps them apart through its
// table's growth: checked against a plain Map of the strings.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { KeySlots } from '../../src/bytes/key-slots.js'

describe('KeySlots', () => {
  it('one slot per string toString reads, at any place in a buffer, and keyOf that string', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.uint8Array({ maxLength: 12 }), fc.nat(5), fc.boolean()), { maxLength: 60 }),
        (keys) => {
          const slots = new KeySlots()
          const plain = new Map<string, number>()
          for (const [bytes, pad, asString] of keys) {
            // few distinct bytes so that keys repeat, some of them not ASCII
            const b = Buffer.from(bytes.map((x) => (x % 5 === 0 ? 0x80 + (x % 3) : 0x61 + (x % 3))))
            const str = b.toString('utf8')
            const buf = Buffer.concat([Buffer.alloc(pad, 0x61), b, Buffer.alloc(2, 0x62)])
            const s = asString ? slots.ofString(str) : slots.of(buf, pad, b.length)
            const want = plain.get(str) ?? plain.size
            plain.set(str, want)
            expect(s).toBe(want)
            expect(slots.keyOf(s)).toBe(str)
          }
          expect(slots.size).toBe(plain.size)
        },
      ),
      { numRuns: 500 },
    )
  })

  it('keeps 50,000 ids apart through its growth, by bytes and by string alike', () => {
    const slots = new KeySlots()
    const ids = Array.from({ length: 50_000 }, (_, i) => `scale-app-${String(i).padStart(6, '0')}`)
    for (let round = 0; round < 2; round++)
      for (const [i, id] of ids.entries()) {
        const s = round === 0 ? slots.of(Buffer.from(`..${id}.`), 2, id.length) : slots.ofString(id)
        expect(s).toBe(i)
      }
    expect(slots.size).toBe(ids.length)
    expect(slots.keyOf(49_999)).toBe(ids[49_999])
  })
})
