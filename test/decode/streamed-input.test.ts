// StreamedInput (codecs/streamed-input.ts): any sequence of positions, forward or back, reads the input's bytes.
// A position before its buffer was once served from the buffer's end (a negative subarray): the zstd walker
// goes back to each frame's first block, as lz4's length pass goes back to its first block.
import { describe, it, expect } from 'vitest'
import * as fc from 'fast-check'
import { createRequire } from 'node:module'
import { getCodec } from '../../src/decode/codecs/index.js'
import { StreamedInput } from '../../src/decode/codecs/streamed-input.js'
import { MemoryBytes, decompressedLength } from '../../src/decode/payload-stream.js'

const lz4js = createRequire(import.meta.url)('lz4js') as {
  compressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, hashTable: Uint32Array): number
  compressBound(n: number): number
}

describe('StreamedInput', () => {
  const data = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 2654435761) >>> 24))
  it('peeks at any positions, forward and back, return the input bytes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(data.length - 1), fc.integer({ min: 0, max: 140_000 })), {
          minLength: 1,
          maxLength: 30,
        }),
        (steps) => {
          const r = new StreamedInput(new MemoryBytes(data))
          for (const [pos, len] of steps) {
            const n = Math.min(len, data.length - pos)
            r.pos = pos
            expect(r.peek(n).equals(data.subarray(pos, pos + n))).toBe(true)
          }
        },
      ),
      { numRuns: 200 },
    )
  })

  it("an lz4 payload of many 64 KiB blocks (Kafka's block size), streamed: its length pass goes back to the first block", () => {
    const text = Buffer.from(
      Array.from({ length: 40_000 }, (_, i) => `{"id":${i},"v":"${((i * 2654435761) >>> 7).toString(36)}"}\n`).join(''),
    )
    // magic 0: Kafka ignores the frame header checksum there (KAFKA-3160), so the descriptor needs none
    const parts = [Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40, 0])]
    for (let p = 0; p < text.length; p += 65536) {
      const src = text.subarray(p, p + 65536)
      const dst = Buffer.alloc(lz4js.compressBound(src.length))
      const n = lz4js.compressBlock(src, dst, 0, src.length, new Uint32Array(1 << 16))
      const size = Buffer.alloc(4)
      size.writeUInt32LE(n)
      parts.push(size, dst.subarray(0, n))
    }
    const frame = Buffer.concat([...parts, Buffer.alloc(4)])
    expect(frame.length).toBeGreaterThan(3 * 65536)
    expect(decompressedLength(getCodec(3)!, new MemoryBytes(frame), 64 << 20, { magic: 0 })).toBe(text.length)
  })
})
