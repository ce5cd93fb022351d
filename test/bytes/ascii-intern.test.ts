// AsciiIntern gives the string Buffer.toString('utf8') gives, for any bytes (ASCII or not, short or longer than it
// keeps), wherever they are in a buffer, and never a string kept for other bytes whose hash shares its slot.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AsciiIntern } from '../../src/bytes/ascii-intern.js'

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
