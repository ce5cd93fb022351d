// decodeJavaUtf8 against Java itself: test/support/java-utf8-oracle/Utf8Oracle.java, compiled here with
// javac, decodes the same byte strings with `new String(bytes, UTF_8)` (what Kafka's StringDecoder does).
// Skips, saying why, when no JDK is installed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { decodeJavaUtf8 } from '../../src/bytes/java-utf8.js'
import { putUtf8 } from '../../src/format/record-line-ascii.js'
import { decodeValue } from '../../src/format/value-decoders.js'
import { compileOracle, jdkMissing, removeOracle, runOracle } from '../support/java-oracle.js'
import type { Oracle } from '../support/java-oracle.js'

const ORACLE_SRC = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '../support/java-utf8-oracle/Utf8Oracle.java',
)
const SEED = Number(process.env.TSDUMP_FC_SEED ?? 20261201)

const noJdk = jdkMissing()
if (noJdk) console.log(`java-utf8 oracle tests skipped: ${noJdk}`)

let oracle: Oracle | undefined
beforeAll(() => {
  if (!noJdk) oracle = compileOracle([ORACLE_SRC])
})
afterAll(() => removeOracle(oracle))

/** Java's decoding of each input, as strings */
function javaDecode(inputs: Uint8Array[]): string[] {
  const stdin = inputs.map((b) => Buffer.from(b).toString('hex')).join('\n') + '\n'
  const out = runOracle(oracle!, 'Utf8Oracle', stdin)
  const lines = out.split('\n')
  return inputs.map((_, i) => {
    const hex = lines[i]!
    let s = ''
    for (let j = 0; j < hex.length; j += 4) s += String.fromCharCode(parseInt(hex.slice(j, j + 4), 16))
    return s
  })
}

const units = (s: string): string => Array.from(s, (c) => c.codePointAt(0)!.toString(16).padStart(4, '0')).join(' ')

function expectSameAsJava(inputs: Uint8Array[]): void {
  const java = javaDecode(inputs)
  const bad: string[] = []
  inputs.forEach((b, i) => {
    const ours = decodeJavaUtf8(b)
    if (ours !== java[i] && bad.length < 10)
      bad.push(`${Buffer.from(b).toString('hex')}: java [${units(java[i]!)}] ours [${units(ours)}]`)
  })
  expect(bad).toEqual([])
}

// bytes where the decoding rules change: every lead-byte class and the edges of each second-byte range
const EDGE = [
  0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef,
  0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xf7, 0xf8, 0xff,
]

// UTF-8-like encodings of any 21-bit value, including surrogates, overlongs and values above U+10FFFF
const encodedish = fc
  .tuple(fc.integer({ min: 0, max: 0x1fffff }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 4 }))
  .map(([cp, len, cut]) => {
    const b =
      len === 1
        ? [cp & 0x7f]
        : len === 2
          ? [0xc0 | ((cp >> 6) & 0x1f), 0x80 | (cp & 0x3f)]
          : len === 3
            ? [0xe0 | ((cp >> 12) & 0x0f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
            : [0xf0 | ((cp >> 18) & 0x07), 0x80 | ((cp >> 12) & 0x3f), 0x80 | ((cp >> 6) & 0x3f), 0x80 | (cp & 0x3f)]
    return b.slice(0, Math.max(1, b.length - cut))
  })
const piece = fc.oneof(
  fc.constantFrom(...EDGE).map((x) => [x]),
  encodedish,
  fc.string({ unit: 'grapheme', maxLength: 4 }).map((s) => [...Buffer.from(s, 'utf8')]),
  fc.uint8Array({ maxLength: 6 }).map((a) => [...a]),
)
const adversarial = fc.array(piece, { maxLength: 12 }).map((ps) => Uint8Array.from(ps.flat()))
const random = fc.uint8Array({ maxLength: 64 })

describe('decodeJavaUtf8 (no JDK needed)', () => {
  it('replaces ED A6 00 as Java does (one U+FFFD for ED A6), unlike Buffer#toString', () => {
    const b = Buffer.from([0xed, 0xa6, 0x00])
    expect(decodeJavaUtf8(b)).toBe('\uFFFD\u0000')
    expect(b.toString('utf8')).toBe('\uFFFD\uFFFD\u0000')
  })
  it('gives Buffer#toString text for valid UTF-8, on any subrange', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), fc.nat(5), (s, cut) => {
        const b = Buffer.concat([Buffer.from('xyz'), Buffer.from(s, 'utf8')])
        expect(decodeJavaUtf8(b, cut % 4)).toBe(b.subarray(cut % 4).toString('utf8'))
      }),
      { seed: SEED, numRuns: 300 },
    )
  })
  it('is what --print-data-log prints for keys and payloads (byte path and string path)', () => {
    const b = Buffer.from([0x41, 0xed, 0xa6, 0x00, 0xed, 0xa0, 0x80, 0xf0, 0x9f, 0x98])
    const java = 'A\uFFFD\u0000\uFFFD\uFFFD'
    const out = Buffer.alloc(b.length * 3)
    expect(out.subarray(0, putUtf8(out, 0, b)).toString('utf8')).toBe(java)
    expect(decodeValue(b, 'string')).toBe(java)
    expect(decodeValue(b, 'json')).toBe(java)
  })
  it('decodes long malformed input (more than one output chunk)', () => {
    const b = Buffer.alloc(50_000, 0x80)
    b.write('ok', 20_000)
    const s = decodeJavaUtf8(b)
    expect(s.length).toBe(50_000)
    expect(s.slice(19_999, 20_003)).toBe('\uFFFDok\uFFFD')
  })
})

describe.skipIf(noJdk !== null)('decodeJavaUtf8 equals Java new String(bytes, UTF_8)', () => {
  it('on every 1- and 2-byte string', () => {
    const inputs: Uint8Array[] = []
    for (let a = 0; a < 256; a++) {
      inputs.push(Uint8Array.of(a))
      for (let b = 0; b < 256; b++) inputs.push(Uint8Array.of(a, b))
    }
    expectSameAsJava(inputs)
  })
  it('on every 3- and 4-byte string over the edge bytes', () => {
    const inputs: Uint8Array[] = []
    for (const a of EDGE)
      for (const b of EDGE)
        for (const c of EDGE) {
          inputs.push(Uint8Array.of(a, b, c))
          if (a >= 0xe0) for (const d of EDGE) inputs.push(Uint8Array.of(a, b, c, d))
        }
    expectSameAsJava(inputs)
  })
  it(`on random and adversarial byte strings (fast-check seed ${SEED}; TSDUMP_FC_SEED=N to change)`, () => {
    console.log(`java-utf8: fast-check seed ${SEED}`)
    const inputs = [
      ...fc.sample(random, { seed: SEED, numRuns: 5000 }),
      ...fc.sample(adversarial, { seed: SEED + 1, numRuns: 20000 }),
    ]
    expectSameAsJava(inputs)
  })
})
