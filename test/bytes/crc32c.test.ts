import { afterEach, describe, expect, it, vi } from 'vitest'
import fc from 'fast-check'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import { crc32c, crc32cUpdate, NATIVE_CRC_THRESHOLD, WASM_CRC_THRESHOLD } from '../../src/bytes/crc32c.js'
import { loadWasmCrc32c, type Crc32cUpdate } from '../../src/bytes/crc32c-wasm.js'

const require = createRequire(import.meta.url)
const crc32Lib = require('crc-32/crc32c') as { buf(d: Uint8Array, s?: number): number }

/** bit-at-a-time CRC-32C straight from the definition (reflected 0x82F63B78): the oracle for small inputs */
function bitwise(data: Uint8Array): number {
  let c = 0xffffffff
  for (const byte of data) {
    c ^= byte
    for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? (c >>> 1) ^ 0x82f63b78 : c >>> 1
  }
  return (c ^ 0xffffffff) >>> 0
}
/** the oracle: bitwise where it is quick enough, crc-32 (checked against bitwise below) for large inputs */
const reference = (d: Uint8Array): number => (d.length <= 8192 ? bitwise(d) : crc32Lib.buf(d, 0) >>> 0)

let nativeLib: { crc32c(d: Uint8Array, initial?: number): number } | undefined
try {
  nativeLib = require('@node-rs/crc32')
} catch {
  nativeLib = undefined
}
if (nativeLib === undefined) console.log('crc32c.test: @node-rs/crc32 is not installed here; its cases are skipped')
const wasm = loadWasmCrc32c()

const impls: Array<[string, Crc32cUpdate | undefined]> = [
  ['crc32cUpdate (the dispatcher)', crc32cUpdate],
  ['crc-32 (JS)', (p, d) => crc32Lib.buf(d, p) >>> 0],
  ['WebAssembly', wasm],
  ['@node-rs/crc32', nativeLib && ((p, d) => nativeLib!.crc32c(d, p) >>> 0)],
]

const bytes = (a: number[]): Buffer => Buffer.from(a)
const range = (n: number, f: (i: number) => number): number[] => Array.from({ length: n }, (_, i) => f(i))
// RFC 3720 (iSCSI) appendix B.4 CRC examples, the published check value, and Kafka's own Crc32CTest value
const VECTORS: Array<[string, Buffer, number]> = [
  ['32 bytes of zeros (RFC 3720 B.4)', Buffer.alloc(32), 0x8a9136aa],
  ['32 bytes of 0xFF (RFC 3720 B.4)', Buffer.alloc(32, 0xff), 0x62a8ab43],
  ['32 incrementing bytes (RFC 3720 B.4)', bytes(range(32, (i) => i)), 0x46dd794e],
  ['32 decrementing bytes (RFC 3720 B.4)', bytes(range(32, (i) => 31 - i)), 0x113fdb5c],
  [
    'iSCSI read command PDU (RFC 3720 B.4)',
    bytes([
      0x01, 0xc0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x14, 0, 0, 0, 0, 0, 0x04, 0, 0, 0, 0, 0x14, 0, 0, 0, 0x18,
      0x28, 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0,
    ]),
    0xd9963a56,
  ],
  ['"123456789" (check value)', Buffer.from('123456789'), 0xe3069283],
  ['"Some String" (Kafka Crc32CTest)', Buffer.from('Some String'), 608512271],
  ['empty', Buffer.alloc(0), 0],
]

function filled(n: number, seed: number): Buffer {
  const b = Buffer.allocUnsafe(n)
  let x = seed | 1
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    b[i] = x & 0xff
  }
  return b
}

describe('crc32c', () => {
  it('the bitwise oracle gives the published values and agrees with crc-32 (the large-input oracle)', () => {
    for (const [, data, want] of VECTORS) expect(bitwise(data)).toBe(want)
    for (const n of [1, 15, 16, 17, 4095, 8192]) {
      const b = filled(n, n)
      expect(crc32Lib.buf(b, 0) >>> 0).toBe(bitwise(b))
    }
  })

  it('WebAssembly is available in this Node (otherwise the no-native fast path would silently be JS)', () => {
    expect(wasm).toBeDefined()
  })

  for (const [name, f] of impls) {
    describe(name, () => {
      it.skipIf(f === undefined)('gives the published values', () => {
        for (const [what, data, want] of VECTORS) expect(f!(0, data), what).toBe(want)
        // the same bytes at every alignment in a larger buffer (WASM/JS word loads)
        for (let off = 0; off < 8; off++) {
          const big = Buffer.alloc(64 + off)
          VECTORS[4]![1].copy(big, off)
          expect(f!(0, big.subarray(off, off + 48))).toBe(0xd9963a56)
        }
      })

      it.skipIf(f === undefined)('matches the oracle on random buffers, offsets and lengths', () => {
        fc.assert(
          fc.property(
            fc.integer({ min: 0, max: 3 * NATIVE_CRC_THRESHOLD + 40 }),
            fc.integer({ min: 0, max: 31 }),
            fc.integer(),
            (n, off, seed) => {
              const view = filled(n + off + 7, seed).subarray(off, off + n)
              expect(f!(0, view)).toBe(reference(view))
            },
          ),
          { numRuns: 300 },
        )
      })

      it.skipIf(f === undefined)('continues over windows: update(update(0, a), b) is the CRC of a then b', () => {
        fc.assert(
          fc.property(
            fc.integer({ min: 0, max: 20_000 }),
            fc.array(fc.integer({ min: 0, max: 20_000 }), { maxLength: 6 }),
            fc.integer(),
            (n, cuts, seed) => {
              const whole = filled(n, seed)
              const points = [...new Set([0, ...cuts.map((c) => c % (n + 1)), n])].sort((a, b) => a - b)
              let c = 0
              for (let i = 1; i < points.length; i++) c = f!(c, whole.subarray(points[i - 1], points[i]))
              expect(c).toBe(reference(whole))
            },
          ),
          { numRuns: 100 },
        )
      })

      it.skipIf(f === undefined)('large inputs: 0.9 MB and 1 MiB + 1 (more than the WASM input window)', () => {
        for (const n of [900_017, 1024 * 1024 + 1]) {
          const b = filled(n, 7)
          expect(f!(0, b)).toBe(crc32Lib.buf(b, 0) >>> 0)
        }
      })
    })
  }

  it('crc32c(data) is crc32cUpdate(0, data), on both sides of each threshold', () => {
    for (const n of [
      0,
      1,
      WASM_CRC_THRESHOLD - 1,
      WASM_CRC_THRESHOLD,
      NATIVE_CRC_THRESHOLD - 1,
      NATIVE_CRC_THRESHOLD,
      4096,
      70_000,
    ]) {
      const b = filled(n, n + 1)
      expect(crc32c(b)).toBe(reference(b))
      expect(crc32cUpdate(0, b)).toBe(crc32c(b))
    }
  })

  describe('the choice when the module loads (TSDUMP_CRC32C, as on a machine without the native package)', () => {
    afterEach(() => {
      vi.unstubAllEnvs()
      vi.resetModules()
    })
    const load = async (v: string): Promise<typeof import('../../src/bytes/crc32c.js')> => {
      vi.resetModules()
      vi.stubEnv('TSDUMP_CRC32C', v)
      return await import('../../src/bytes/crc32c.js')
    }
    it('no-native: JS below WASM_CRC_THRESHOLD, WebAssembly from it, same values', async () => {
      const m = await load('no-native')
      expect(m.crc32cImplementations()).toBe(`crc-32 (JS, < ${m.WASM_CRC_THRESHOLD} B) + WebAssembly slicing-by-16`)
      for (const n of [0, 61, m.WASM_CRC_THRESHOLD - 1, m.WASM_CRC_THRESHOLD, 3549, 900_000]) {
        const b = filled(n, 3)
        expect(m.crc32c(b)).toBe(reference(b))
        expect(m.crc32cUpdate(m.crc32cUpdate(0, b.subarray(0, n >> 1)), b.subarray(n >> 1))).toBe(reference(b))
      }
    })
    it('js and wasm force one implementation for every size', async () => {
      expect((await load('js')).crc32cImplementations()).toBe('crc-32 (JS)')
      const w = await load('wasm')
      expect(w.crc32cImplementations()).toBe('WebAssembly slicing-by-16')
      const b = filled(17, 5)
      expect(w.crc32c(b)).toBe(reference(b))
    })
    it('auto: JS until CHOOSE_AFTER_BYTES were checked (a small input never loads the native binding), then the choice', async () => {
      const m = await load('')
      const b = filled(64 * 1024, 9)
      let checked = 0
      while (checked + b.length < m.CHOOSE_AFTER_BYTES) {
        expect(m.crc32c(b)).toBe(reference(b))
        checked += b.length
      }
      expect(m.crc32cChosen()).toBe(false)
      expect(m.crc32cUpdate(0, b)).toBe(reference(b))
      expect(m.crc32cChosen()).toBe(true)
      expect(m.crc32c(b)).toBe(reference(b))
    })
    it('a forced implementation is chosen at the first call', async () => {
      const m = await load('js')
      m.crc32c(filled(10, 1))
      expect(m.crc32cChosen()).toBe(true)
    })
    it.skipIf(nativeLib === undefined)(
      'auto with the native package: JS below NATIVE_CRC_THRESHOLD, native from it',
      async () => {
        const m = await load('')
        expect(m.crc32cImplementations()).toBe(`crc-32 (JS, < ${m.NATIVE_CRC_THRESHOLD} B) + @node-rs/crc32 (native)`)
      },
    )
  })

  it('verifies a batch a real broker wrote (stored CRC at byte 17 covers bytes 21..end)', () => {
    const seg = fs.readFileSync(
      new URL('../../fixtures/broker/orders/logs/orders-11-0/00000000000000000000.log', import.meta.url),
    )
    let p = 0
    let n = 0
    while (p + 61 <= seg.length) {
      const size = seg.readInt32BE(p + 8) + 12
      const batch = seg.subarray(p, p + size)
      expect(crc32c(batch.subarray(21))).toBe(batch.readUInt32BE(17))
      if (wasm) expect(wasm(0, batch.subarray(21))).toBe(batch.readUInt32BE(17))
      p += size
      n++
    }
    expect(n).toBeGreaterThan(0)
  })
})

describe('crc32cOfRange', () => {
  it('gives the CRC of any range from two prefix CRCs', async () => {
    const { crc32cOfRange } = await import('../../src/bytes/crc32c.js')
    const d = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7919) & 0xff))
    for (const [a, b] of [
      [0, 0],
      [0, 10],
      [3, 2999],
      [100, 100],
      [17, 3000],
      [1000, 1001],
    ] as const) {
      expect(crc32cOfRange(crc32c(d.subarray(0, a)), crc32c(d.subarray(0, b)), b - a)).toBe(crc32c(d.subarray(a, b)))
    }
  })
})
