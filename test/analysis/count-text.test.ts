// groupedCount stands in for Number.toLocaleString('en-US') (which loads ICU's locale data at its first call):
// the text must be the same for every count a message can hold.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { groupedCount } from '../../src/analysis/count-text.js'

describe('groupedCount', () => {
  it('equals toLocaleString("en-US") on non-negative integers up to 2^53', () => {
    fc.assert(
      fc.property(fc.oneof(fc.nat(), fc.maxSafeNat(), fc.integer({ min: 0, max: 10_000 })), (n) => {
        expect(groupedCount(n)).toBe(n.toLocaleString('en-US'))
      }),
      { numRuns: 2000 },
    )
    for (const n of [0, 999, 1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER])
      expect(groupedCount(n)).toBe(n.toLocaleString('en-US'))
  })
})
