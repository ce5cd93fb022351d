// zstd payloads larger than the read window (issue #14): the streamed decoder (block by block into fzstd's
// streaming decoder, through tsdump's own frame walker) against the whole-payload one, on Kafka's own batches
// (a Java producer: zstd-jni, no content size, windowLog 21) and libzstd frames (@bokuweb/zstd-wasm), and the
// window cap. The mutation properties of both paths are in codecs.test.ts ("read in pieces of any size").
import { describe, it, expect } from 'vitest'
import * as fc from 'fast-check'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as zstdWasm from '@bokuweb/zstd-wasm'
import { CodecError, getCodec } from '../../src/decode/codecs/index.js'
import { WINDOW_CAP } from '../../src/decode/codecs/zstd.js'
import { InflatedBytes, MemoryBytes, decompressedLength } from '../../src/decode/payload-stream.js'

await zstdWasm.init()
const zstd = getCodec(4)!
const ctx = { magic: 2 }
const MiB = 1024 * 1024
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

function outcome(f: () => Buffer): string {
  try {
    return f().toString('base64')
  } catch (e) {
    if (e instanceof CodecError) return `${e.code}: ${e.message}`
    throw e
  }
}
const whole = (b: Buffer, max: number): string => outcome(() => zstd.decompress(b, max, ctx))
/** the streamed outcome, its output read in pieces of `piece` bytes */
function streamed(b: Buffer, max: number, piece: number): string {
  return outcome(() => {
    const len = decompressedLength(zstd, new MemoryBytes(b), max, ctx)
    const s = new InflatedBytes(zstd, new MemoryBytes(b), max, ctx)
    const out = Buffer.alloc(len)
    for (let n = 0; n < len; ) {
      const k = s.readInto(out, n, Math.min(piece, len - n))
      if (k === 0) throw new Error(`stream ended at ${n} of ${len}`)
      n += k
    }
    expect(s.readInto(Buffer.alloc(8), 0, 8)).toBe(0)
    return out
  })
}

/** the zstd payloads of the v2 batches of a log file */
function zstdPayloads(file: string): Buffer[] {
  const b = fs.readFileSync(file)
  const out: Buffer[] = []
  for (let pos = 0; pos + 61 <= b.length; pos += 12 + b.readInt32BE(pos + 8)) {
    if ((b.readInt16BE(pos + 21) & 7) === 4) out.push(b.subarray(pos + 61, pos + 12 + b.readInt32BE(pos + 8)))
  }
  return out
}

/** a libzstd frame without its content size (zstd-jni's streaming writer omits it): not single-segment, window kept */
function withoutContentSize(f: Buffer): Buffer {
  const fhd = f[4]!
  expect(fhd & 0x20).toBe(0) // large input: libzstd declares a window, not a single segment
  const fcsBytes = [0, 2, 4, 8][fhd >> 6]!
  return Buffer.concat([f.subarray(0, 4), Buffer.from([fhd & 0x3f, f[5]!]), f.subarray(6 + fcsBytes)])
}

/** pseudo-random record-like text: compresses about 3:1 */
function text(bytes: number, seed = 1): Buffer {
  const words = ['kafka', 'topic', 'partition', 'offset', '{"id":', '"ts":', 'producer', 'zstd', '\n', ' ']
  const parts: string[] = []
  let x = seed
  for (let n = 0; n < bytes; ) {
    x = (x * 1103515245 + 12345) & 0x7fffffff
    const w = `${words[x % words.length]!}${(x >>> 8).toString(36)} `
    parts.push(w)
    n += w.length
  }
  return Buffer.from(parts.join('')).subarray(0, bytes)
}

describe('zstd streamed = zstd whole', () => {
  const javaLogs = [
    'fixtures/broker-4.4/codecs/logs/broker-zstd-0',
    'fixtures/broker-4.4/codecs/logs/codec-zstd-0',
    'fixtures/broker/codecs/logs/codec-zstd-0',
  ].map((d) => path.join(root, d, '00000000000000000000.log'))
  it.each(javaLogs.map((f) => [path.relative(root, f), f]))(
    'real batches of %s, read in pieces of any size',
    (_n, file) => {
      const payloads = zstdPayloads(file)
      expect(payloads.length).toBeGreaterThan(0)
      for (const p of payloads) {
        const ref = whole(p, MiB)
        expect(ref).not.toMatch(/^DECOMPRESS/)
        for (const piece of [1, 7, 100, 4096, MiB]) expect(streamed(p, MiB, piece)).toBe(ref)
      }
    },
  )

  const data = text(3 * MiB + 12345)
  const sized = Buffer.from(zstdWasm.compress(data, 3))
  const unsized = withoutContentSize(sized)
  it('a 3 MiB frame, with and without content size: many blocks, a 2 MiB window, pieces of any size', () => {
    expect(sized[5]! >> 3).toBe(21 - 10) // windowLog 21, as Kafka's producers at level 3
    for (const f of [sized, unsized]) {
      expect(whole(f, 8 * MiB)).toBe(data.toString('base64'))
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 300_000 }), (piece) => {
          expect(streamed(f, 8 * MiB, piece)).toBe(data.toString('base64'))
        }),
        { numRuns: 5 },
      )
      // the budget: the same answer both ways
      expect(streamed(f, MiB, 65536)).toBe(whole(f, MiB))
      expect(whole(f, MiB)).toMatch(/^DECOMPRESSED_TOO_LARGE: /)
    }
  })

  it('incompressible data: raw blocks of 128 KiB, larger than the input buffer, read in pieces', () => {
    let x = 7
    const random = Buffer.from(
      Array.from({ length: 3 * MiB + 777 }, () => (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24),
    )
    const f = withoutContentSize(Buffer.from(zstdWasm.compress(random, 3)))
    expect(f.length).toBeGreaterThan(3 * MiB) // stored, not compressed
    expect(whole(f, 8 * MiB)).toBe(random.toString('base64'))
    for (const piece of [4096, 100_000]) expect(streamed(f, 8 * MiB, piece)).toBe(random.toString('base64'))
  })

  it('a large frame damaged anywhere fails both ways the same way (without a content size, as Kafka writes it)', () => {
    fc.assert(
      fc.property(
        fc.nat(unsized.length - 1),
        fc.integer({ min: 1, max: 255 }),
        fc.boolean(),
        fc.boolean(),
        (at, v, truncate, withSize) => {
          const b = Buffer.from(withSize ? sized : unsized)
          const m = truncate
            ? b.subarray(0, Math.min(at, b.length - 1))
            : ((b[at % b.length] = b[at % b.length]! ^ v), b)
          const w = whole(m, 8 * MiB)
          const s = streamed(m, 8 * MiB, 50_000)
          if (!withSize) {
            expect(s).toBe(w)
            return
          } // one block decoder for both: the same message too
          // A frame with a content size is decoded by fzstd's one-shot decoder on the whole path, which writes into
          // the declared size: its blocks' output is not counted (a short frame comes back zero-padded) and near the
          // end its block buffer is cut to what is left. The streamed path counts every block. On corrupt data the
          // two can differ (bytes from one, DECOMPRESS_FAILED from the other); each is still a CodecError or bytes.
          for (const o of [w, s])
            expect(o).toMatch(/^(DECOMPRESS_FAILED|DECOMPRESSED_TOO_LARGE): zstd|^[A-Za-z0-9+/=]*$/)
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('zstd window cap', () => {
  const data = text(WINDOW_CAP + 3 * MiB, 7)
  const frame = withoutContentSize(Buffer.from(zstdWasm.compress(data, 3)))
  it(`a frame declaring a window over ${WINDOW_CAP} bytes decodes when it cannot use it`, () => {
    const small = withoutContentSize(Buffer.from(zstdWasm.compress(text(3 * MiB, 3), 3)))
    small[5] = (20 << 3) | 7 // 1.875 GiB
    expect(whole(small, 256 * MiB)).toBe(text(3 * MiB, 3).toString('base64'))
    expect(streamed(small, 256 * MiB, 65536)).toBe(whole(small, 256 * MiB))
  })
  it('a frame whose window must exceed the cap is DECOMPRESS_FAILED, saying so, on both paths; under a small budget it is too large', () => {
    expect(whole(frame, 256 * MiB)).toBe(data.toString('base64')) // its declared 2 MiB window is within the cap
    const big = Buffer.from(frame)
    big[5] = 17 << 3 // 128 MiB: level 22's windowLog 27
    const msg = whole(big, 256 * MiB)
    expect(msg).toMatch(
      /^DECOMPRESS_FAILED: zstd: frame at byte 0 needs a window of \d+ bytes \(declared 134217728\), more than tsdump's limit of 4194304/,
    )
    expect(streamed(big, 256 * MiB, 65536)).toBe(msg)
    // a budget under the cap bounds the window too: the budget is what is reported
    expect(whole(big, 3 * MiB)).toBe(`DECOMPRESSED_TOO_LARGE: zstd output exceeds ${3 * MiB} bytes`)
    expect(streamed(big, 3 * MiB, 65536)).toBe(whole(big, 3 * MiB))
  })
})

describe('zstd frames of tiny blocks', () => {
  /** a frame (no content size) of n compressed blocks of one raw literal each, then a last raw block */
  function tinyBlocks(n: number, windowDescriptor = 0): Buffer {
    const block = Buffer.from([(3 << 3) | (2 << 1), 0, 0, 0x08, 0x41, 0x00]) // literals: raw, 1 byte 'A'; 0 sequences
    return Buffer.concat([
      Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, windowDescriptor]),
      Buffer.alloc(n * block.length).fill(block),
      Buffer.from([1, 0, 0]),
    ])
  }
  it('with a 4 MiB window they would copy it 200,000 times (minutes): refused before decoding, both ways', () => {
    const f = tinyBlocks(200_000, 12 << 3)
    for (const max of [MiB, 256 * MiB]) {
      const w = whole(f, max)
      expect(w).toMatch(
        /^DECOMPRESSED_TOO_LARGE: zstd frame at byte 0: 200001 blocks over a window of \d+ bytes would copy more than 64 times/,
      )
      expect(streamed(f, max, 4096)).toBe(w)
    }
  })
  it('200,000 blocks decode both ways', () => {
    const f = tinyBlocks(200_000)
    const ref = Buffer.alloc(200_000, 0x41).toString('base64')
    expect(whole(f, MiB)).toBe(ref)
    expect(streamed(f, MiB, 4096)).toBe(ref)
  })
})
