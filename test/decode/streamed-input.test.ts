// StreamedInput (codecs/streamed-input.ts): any sequence of positions, forward or back, reads the input's bytes.
// A position before its buffer was once served from the buffer's end (a negative subarray): the zstd walker
// goes back to each frame's first block, as lz4's length pass goes back to its first block.
import { describe, it, expect } from 'vitest'
import * as fc from 'fast-check'
import { StreamedInput } from '../../src/decode/codecs/streamed-input.js'
import { MemoryBytes } from '../../src/decode/payload-stream.js'

describe('StreamedInput', () => {
  const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 2654435761) >>> 24))
  it('peeks at any positions, forward and back, return the input bytes', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.nat(data.length - 1), fc.integer({ min: 0, max: 140_000 })), { minLength: 1, maxLength: 30 }), (steps) => {
      const r = new StreamedInput(new MemoryBytes(data))
      for (const [pos, len] of steps) {
        const n = Math.min(len, data.length - pos)
        r.pos = pos
        expect(r.peek(n).equals(data.subarray(pos, pos + n))).toBe(true)
      }
    }), { numRuns: 200 })
  })
})
