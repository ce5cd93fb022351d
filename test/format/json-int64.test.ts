import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { int64, toJson } from '../../src/format/json-int64.js'

// toJson replaces bigints before JSON.stringify; the oracle is JSON.stringify with a replacer that does the
// same per value (what it did before), on values with bigints at any depth, toJSON objects and NaN.
const oracle = (v: unknown): string => JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? int64(x) : x))

const leaf = fc.oneof(
  fc.bigInt({ min: -(2n ** 64n), max: 2n ** 64n }),
  fc.bigInt({ min: -10n, max: 10n }),
  fc.integer(),
  fc.double(),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
)
const value = fc.letrec((tie) => ({
  v: fc.oneof(
    { depthSize: 'small' },
    leaf,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.string({ maxLength: 5 }), tie('v'), { maxKeys: 4 }),
  ),
})).v

describe('toJson', () => {
  it('is JSON.stringify with int64() for every bigint', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(toJson(v)).toBe(oracle(v))
      }),
      { numRuns: 3000 },
    )
  })
  it('leaves the value it was given as it was', () => {
    const v = { a: 1n, b: [2n, { c: 3n }] }
    expect(toJson(v)).toBe('{"a":1,"b":[2,{"c":3}]}')
    expect(v).toEqual({ a: 1n, b: [2n, { c: 3n }] })
  })
  it('keeps a key named __proto__', () => {
    const v = JSON.parse('{"__proto__":{"x":1},"y":2}') as Record<string, unknown>
    v['y'] = 5n
    Object.defineProperty(v, '__proto__', { value: { x: 2n }, enumerable: true })
    expect(toJson(v)).toBe(oracle(v))
    expect(toJson(v)).toBe('{"__proto__":{"x":2},"y":5}')
  })
})
