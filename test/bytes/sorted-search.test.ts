import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { insertAt, lowerBound, upperBound } from '../../src/bytes/sorted-search.js'

// each search against the linear scan it stands for
describe('sorted-search', () => {
  const sorted = fc.array(fc.integer({ min: -50, max: 50 })).map((xs) => xs.sort((a, b) => a - b))
  it('lowerBound and upperBound find the first index not below / above x, as a linear scan does', () => {
    fc.assert(
      fc.property(sorted, fc.integer({ min: -60, max: 60 }), (xs, x) => {
        const first = (p: (v: number) => boolean): number => {
          const i = xs.findIndex(p)
          return i < 0 ? xs.length : i
        }
        expect(lowerBound(xs, x)).toBe(first((v) => v >= x))
        expect(upperBound(xs, x)).toBe(first((v) => v > x))
        expect(lowerBound(xs.map(BigInt), BigInt(x))).toBe(first((v) => v >= x))
        expect(lowerBound(Float64Array.from(xs), x)).toBe(first((v) => v >= x))
      }),
    )
  })
  it('insertAt places an item after its equals and keeps the list sorted (a stable insertion)', () => {
    fc.assert(
      fc.property(sorted, fc.integer({ min: -60, max: 60 }), (xs, x) => {
        const list = xs.map((v, i) => ({ v, i }))
        insertAt(list, { v: x, i: -1 }, (y) => y.v <= x)
        const at = list.findIndex((y) => y.i === -1)
        expect(list.map((y) => y.v)).toEqual([...xs, x].sort((a, b) => a - b))
        expect(list.slice(at + 1).every((y) => y.v > x)).toBe(true)
      }),
    )
  })
})
