import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { createRequire } from 'node:module'
import { crc32c, NATIVE_CRC_THRESHOLD } from '../../src/bytes/crc32c.js'

const require = createRequire(import.meta.url)
const reference = require('crc-32/crc32c') as { buf(d: Uint8Array, s?: number): number }

describe('crc32c', () => {
  it('matches the published check value (CRC-32C of "123456789" = 0xE3069283)', () => {
    expect(crc32c(Buffer.from('123456789'))).toBe(0xE3069283)
  })
  it('gives the same value on both sides of the native threshold', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 3 * NATIVE_CRC_THRESHOLD }), fc.integer(), (n, seed) => {
      const b = Buffer.alloc(n)
      for (let i = 0; i < n; i++) b[i] = (seed + i * 2654435761) >>> 24
      expect(crc32c(b)).toBe(reference.buf(b, 0) >>> 0)
    }), { numRuns: 200 })
  })
})
