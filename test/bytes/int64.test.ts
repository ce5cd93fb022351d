// The cut-off of bytes/int64.ts: sums of a canonical number and a delta that round at -2^53 must take the
// exact path (fast-check found -9007199254740973 + -20, which rounds to -2^53: the fast record line printed
// -9007199254740992 where Kafka prints -9007199254740993).
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { bigInt64At, exactSum, i64, i64Add } from '../../src/bytes/int64.js'

describe('I64 sums at the edges of [-2^53, 2^53)', () => {
  it('-2^53 - 1, rounded to -2^53 as a double, is not taken as exact', () => {
    expect(-9007199254740973 + -20).toBe(-9007199254740992)
    expect(exactSum(-9007199254740973 + -20)).toBe(false)
    expect(i64Add(-9007199254740973, -20)).toBe(-9007199254740993n)
    expect(i64Add(-9007199254740972, -20)).toBe(-9007199254740992) // canonical: a number
  })

  it('i64Add equals the bigint sum, canonical, for values near ±2^53', () => {
    const near = fc.bigInt({ min: -(2n ** 53n) - 100n, max: 2n ** 53n + 100n })
    fc.assert(
      fc.property(near, fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (a, d) => {
        expect(i64Add(i64(a), d)).toBe(i64(a + BigInt(d)))
      }),
      { numRuns: 5000 },
    )
  })
})

describe('bigInt64At reads what Buffer.readBigInt64BE reads', () => {
  it('at the edges of the number path and of int64, and on any 8 bytes at any place', () => {
    const edges = [
      0n,
      1n,
      -1n,
      2n ** 53n - 1n,
      2n ** 53n,
      -(2n ** 53n),
      -(2n ** 53n) - 1n,
      2n ** 63n - 1n,
      -(2n ** 63n),
    ]
    for (const v of edges) {
      const b = Buffer.alloc(11, 0xee)
      b.writeBigInt64BE(v, 3)
      expect(bigInt64At(b, 3)).toBe(v)
    }
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 8, maxLength: 20 }), fc.nat(), (bytes, k) => {
        const b = Buffer.from(bytes)
        const at = k % (b.length - 7)
        expect(bigInt64At(b, at)).toBe(b.readBigInt64BE(at))
      }),
      { numRuns: 2000 },
    )
  })
})
