// sortSmall and sortStrings give the order Array.prototype.sort gives (stable, by the same comparison), in place,
// below and above the length where they hand over to it.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortSmall, sortStrings } from '../../src/analysis/small-sort.js'

describe('small-sort', () => {
  it('sortSmall: the order of Array.prototype.sort, stable, in place', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.nat()), { maxLength: 40 }), (xs) => {
        const cmp = (a: [number, number], b: [number, number]): number => a[0] - b[0]
        const want = xs.slice().sort(cmp)
        const got = xs.slice()
        expect(sortSmall(got, cmp)).toBe(got)
        // stable: elements equal by cmp keep their order (the second field tells them apart)
        expect(got).toEqual(want)
      }),
    )
  })

  it('sortStrings: the order of a.sort() (UTF-16 code units), in place', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 40 }), (xs) => {
        const want = xs.slice().sort()
        const got = xs.slice()
        expect(sortStrings(got)).toBe(got)
        expect(got).toEqual(want)
      }),
    )
    expect(sortStrings(['scale-10', 'scale-9', 'scale-1', '__consumer_offsets-0'])).toEqual([
      '__consumer_offsets-0',
      'scale-1',
      'scale-10',
      'scale-9',
    ])
  })
})
