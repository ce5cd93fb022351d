import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { ByteReader } from '../../src/bytes/byte-reader.js'
import { DecodeError } from '../../src/decode/errors.js'

// Reference encoders written independently of the reader: zigzag then base-128, least significant group first.
function encodeVarlong(v: bigint): Buffer {
  let z = (v << 1n) ^ (v >> 63n)
  z &= (1n << 64n) - 1n
  const out: number[] = []
  while (z >= 0x80n) {
    out.push(Number(z & 0x7fn) | 0x80)
    z >>= 7n
  }
  out.push(Number(z))
  return Buffer.from(out)
}

describe('ByteReader varints against a BigInt oracle', () => {
  it('varint round-trips every int32', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), (n) => {
        const r = new ByteReader(encodeVarlong(BigInt(n)))
        expect(r.readVarint()).toBe(n)
        expect(r.remaining).toBe(0)
      }),
      { numRuns: 2000 },
    )
  })
  it('varlong round-trips every int64 (timestampDelta is a varlong)', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), (n) => {
        const r = new ByteReader(encodeVarlong(n))
        expect(r.readVarlong()).toBe(n)
        expect(r.remaining).toBe(0)
      }),
      { numRuns: 2000 },
    )
  })
  it('a varint longer than 5 bytes is VARINT_TOO_LONG with its position', () => {
    const r = new ByteReader(Buffer.from([0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]), 1000, 1)
    try {
      r.readVarint()
      expect.fail('no error')
    } catch (e) {
      expect(e).toBeInstanceOf(DecodeError)
      expect((e as DecodeError).code).toBe('VARINT_TOO_LONG')
      expect((e as DecodeError).position).toBe(1001)
    }
  })
  it('a varlong longer than 10 bytes is VARINT_TOO_LONG', () => {
    const r = new ByteReader(Buffer.alloc(11, 0xff))
    expect(() => r.readVarlong()).toThrow(DecodeError)
  })
  it('reads past the end are TRUNCATED at the absolute position, never out of bounds', () => {
    const r = new ByteReader(Buffer.from([1, 2, 3, 4, 5, 6]), 500, 2, 5)
    expect(r.readInt16()).toBe(0x0304)
    try {
      r.readInt32()
      expect.fail('no error')
    } catch (e) {
      expect((e as DecodeError).code).toBe('TRUNCATED')
      expect((e as DecodeError).position).toBe(504)
    }
  })
  it('varint bytes: -1 is null, other negatives are BAD_LENGTH', () => {
    expect(new ByteReader(Buffer.from([0x01])).readVarintBytes()).toBeNull()
    expect(() => new ByteReader(Buffer.from([0x03])).readVarintBytes()).toThrow(/length -2/)
  })
  it('child readers are bounded to their region', () => {
    const r = new ByteReader(Buffer.from([1, 2, 3, 4, 5]))
    const c = r.child(2)
    expect(c.readUint8()).toBe(1)
    expect(c.readUint8()).toBe(2)
    expect(() => c.readUint8()).toThrow(DecodeError)
    expect(r.readUint8()).toBe(3)
  })
})
