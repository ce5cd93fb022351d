// isoTime keeps the text of the last second (a timeline prints one time per transaction): the result must
// be what Date#toISOString gives, whatever the order of the values (the cache must never leak a second).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { isoTime } from '../../src/format/timestamp.js'

const oracle = (n: number): string =>
  !Number.isFinite(n) || Math.abs(n) > 8.64e15 ? 'out of range' : new Date(n).toISOString()

describe('isoTime', () => {
  it('equals Date#toISOString on any sequence of times, near and far apart', () => {
    const near = fc.integer({ min: 1_700_000_000_000, max: 1_700_000_005_000 })
    const any = fc.oneof(
      near,
      fc.integer({ min: -8.64e15, max: 8.64e15 }),
      fc.double({ noNaN: false }),
      fc.constantFrom(0, 999, 1000, 253402300799999, 253402300800000, -1),
    )
    fc.assert(
      fc.property(fc.array(any, { maxLength: 50 }), (xs) => {
        for (const x of xs) expect(isoTime(x)).toBe(oracle(x))
      }),
      { numRuns: 500 },
    )
  })
  it('takes bigints (header timestamps)', () => {
    expect(isoTime(1795966973792n)).toBe(new Date(1795966973792).toISOString())
    expect(isoTime(-1n)).toBe(new Date(-1).toISOString())
  })
})
