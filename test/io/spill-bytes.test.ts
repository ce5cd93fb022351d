// io/spill-bytes.ts' 64-bit integers read back as they were written, in any order and mix: below the varint's 2^50
// (read back as numbers and made BigInts through ByteIn's slots, where values sharing their low bits take turns in
// one slot), past it (the escape and 8 bytes) and null. The oracle is the values themselves.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ByteIn, ByteOut } from '../../src/io/spill-bytes.js'

const SLOTS = 64
const LIMIT = 2n ** 50n

/** values crowded into few slots: a base and multiples of the slot count, either sign, past 2^50 and 2^53, null */
const value = fc.oneof(
  fc.bigInt({ min: -8n, max: 8n }).map((k) => 1_700_000_000_000n + k * BigInt(SLOTS)),
  fc.bigInt({ min: -(LIMIT - 1n), max: LIMIT - 1n }),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.constantFrom(0n, -1n, LIMIT - 1n, LIMIT, -LIMIT, 2n ** 53n, null),
)

function roundTrip(values: ReadonlyArray<bigint | null>, r: ByteIn): Array<bigint | null> {
  const o = new ByteOut(16)
  for (const v of values) o.i64(v)
  r.at(o.buf, 0)
  return values.map(() => r.ni64())
}

describe('ByteIn.ni64', () => {
  it('gives back every value written, through slots shared by values with the same low bits', () => {
    fc.assert(
      fc.property(fc.array(value, { maxLength: 200 }), (values) => {
        expect(roundTrip(values, new ByteIn())).toEqual(values)
      }),
      { numRuns: 300 },
    )
  })

  it('gives back the values of one buffer after another through the same reader', () => {
    const r = new ByteIn()
    fc.assert(
      fc.property(fc.array(value, { maxLength: 50 }), (values) => {
        expect(roundTrip(values, r)).toEqual(values)
      }),
      { numRuns: 300 },
    )
  })

  it('tells apart values of one slot, each sign, and 0 from null', () => {
    const vs = [5n, 5n + BigInt(SLOTS), 5n, -5n, -5n - BigInt(SLOTS), 0n, null, 0n, -(LIMIT - 1n), LIMIT - 1n]
    expect(roundTrip(vs, new ByteIn())).toEqual(vs)
  })
})
