// bytes/int64.ts' conversions without Number(bigint) and BigInt(number), against those two as the oracle: every
// int64 (rounded to the nearest double, ties to even, as Number rounds), values past int64 (which would wrap in the
// BigInt64Array cell), and every safe integer's halves (negative ones borrow from the high word).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromSafeNumber, toNumber } from '../../src/bytes/int64.js'

describe('toNumber', () => {
  it('is Number(v) for every int64 and past it', () => {
    const any = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.bigInt({ min: -(2n ** 54n), max: 2n ** 54n }),
      fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }),
    )
    fc.assert(
      fc.property(any, (v) => {
        expect(toNumber(v)).toBe(Number(v))
      }),
      { numRuns: 20000 },
    )
  })

  it('rounds at the edges as Number does', () => {
    const edges = [0n, -1n, 2n ** 32n - 1n, 2n ** 32n, -(2n ** 32n), -(2n ** 32n) - 1n, 2n ** 53n + 1n, 2n ** 53n + 3n]
    for (const v of [...edges, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 63n, 2n ** 64n + 5n, -(2n ** 64n) - 5n])
      expect(toNumber(v)).toBe(Number(v))
  })
})

describe('fromSafeNumber', () => {
  it('is BigInt(n) for every safe integer', () => {
    fc.assert(
      fc.property(fc.maxSafeInteger(), fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (n, small) => {
        expect(fromSafeNumber(n)).toBe(BigInt(n))
        expect(fromSafeNumber(small)).toBe(BigInt(small))
      }),
      { numRuns: 20000 },
    )
    for (const n of [0, -0, -1, 2 ** 32 - 1, 2 ** 32, -(2 ** 32), -(2 ** 32) - 1, 2 ** 53 - 1, -(2 ** 53) + 1])
      expect(fromSafeNumber(n)).toBe(BigInt(n))
  })
})
