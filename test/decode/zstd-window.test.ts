// A zstd frame whose window Kafka refuses (issue #25): zstd-jni keeps libzstd's ZSTD_WINDOWLOG_LIMIT_DEFAULT (27),
// so a consumer fails on a frame declaring more than 2^27 bytes, while tsdump decodes it. The frames here are
// written by hand from RFC 8878 (3.1.1.1.2: Window_Descriptor = Exponent << 3 | Mantissa, window =
// 2^(10 + Exponent) + Mantissa * 2^(10 + Exponent) / 8), with one raw block holding the records as they are.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { windowKafkaRefuses } from '../../src/decode/codecs/zstd-frames.js'
import { ZstdWindowWatch } from '../../src/decode/codecs/zstd-window-watch.js'
import { runCli } from '../support/run-cli.js'
import { segment } from '../support/segment-builder.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-zstd-window-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** one zstd frame: no content size, no checksum, the given Window_Descriptor, `data` as one raw last block */
function rawFrame(windowDescriptor: number, data: Buffer): Buffer {
  const block = Buffer.alloc(3)
  block.writeUIntLE((data.length << 3) | (0 << 1) | 1, 0, 3) // Block_Size, Block_Type raw, Last_Block
  return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, windowDescriptor]), block, data])
}

function write(name: string, windowDescriptor: number): string {
  const p = path.join(dir, `${name}-0`)
  fs.mkdirSync(p, { recursive: true })
  const records = Array.from({ length: 3 }, (_v, i) => ({ key: `k${i}`, value: `value ${i}` }))
  fs.writeFileSync(
    path.join(p, '00000000000000000000.log'),
    segment({ codec: 4, records, compress: (b) => rawFrame(windowDescriptor, b) }),
  )
  return p
}

describe('zstd windows Kafka refuses', () => {
  it('a frame declaring 2 GiB (Exponent 21): ZSTD_WINDOW_TOO_LARGE names the batch, the records are still shown, exit 1', async () => {
    const p = write('wide', 21 << 3)
    const r = await runCli(['--deep-iteration', '--print-data-log', p])
    expect(r.stdout.match(/payload: value \d/g)).toEqual(['payload: value 0', 'payload: value 1', 'payload: value 2'])
    expect(r.stderr).toMatch(
      /position 0: batch at position 0 \(baseOffset 0\): its zstd frame at payload byte 0 declares a window of 2147483648 bytes; Kafka's consumers .*\[ZSTD_WINDOW_TOO_LARGE\]/,
    )
    expect(r.code).toBe(1)
    const j = await runCli(['--json', '--deep-iteration', p])
    expect(j.stdout).toMatch(/"code":"ZSTD_WINDOW_TOO_LARGE"/)
  })

  it("exactly 2^27 (Exponent 17) is accepted by Kafka, and so is a producer's 2 MiB (Exponent 11): no finding, exit 0", async () => {
    for (const [name, wd] of [
      ['at-limit', 17 << 3],
      ['level3', 11 << 3],
    ] as const) {
      const r = await runCli(['--deep-iteration', write(name, wd)])
      expect(r.stderr, name).not.toMatch(/ZSTD_WINDOW_TOO_LARGE/)
      expect(r.code, name).toBe(0)
    }
  })
})

/**
 * A payload of frames written from RFC 8878 with every header shape the walk reads: window descriptor or single
 * segment, dictionary id 0 in 0-4 bytes, content size in 0-8 bytes, raw and RLE blocks, checksums, skippable frames.
 */
const frameArb = fc.oneof(
  fc.record({
    skippable: fc.constant(true as const),
    data: fc.uint8Array({ maxLength: 20 }),
  }),
  fc.record({
    skippable: fc.constant(false as const),
    single: fc.boolean(),
    exponent: fc.integer({ min: 0, max: 31 }),
    mantissa: fc.nat(7),
    dict: fc.constantFrom(0, 1, 2, 3),
    fcs: fc.constantFrom(0, 1, 2, 3),
    checksum: fc.boolean(),
    blocks: fc.array(fc.tuple(fc.boolean(), fc.uint8Array({ maxLength: 40 })), { minLength: 1, maxLength: 4 }),
  }),
)

type FrameSpec = typeof frameArb extends fc.Arbitrary<infer T> ? T : never

function frameBytes(f: FrameSpec): Buffer {
  if (f.skippable) {
    const head = Buffer.alloc(8)
    head.writeUInt32LE(0x184d2a53, 0)
    head.writeUInt32LE(f.data.length, 4)
    return Buffer.concat([head, f.data])
  }
  const fcsBytes = f.fcs === 0 ? (f.single ? 1 : 0) : 1 << f.fcs
  const content = f.blocks.reduce((n, [rle, d]) => n + (rle ? Math.min(d.length, 1) * 3 : d.length), 0)
  const parts = [
    Buffer.from([0x28, 0xb5, 0x2f, 0xfd, (f.fcs << 6) | (f.single ? 0x20 : 0) | (f.checksum ? 4 : 0) | f.dict]),
  ]
  if (!f.single) parts.push(Buffer.from([(f.exponent << 3) | f.mantissa]))
  parts.push(Buffer.alloc([0, 1, 2, 4][f.dict]!))
  const size = Buffer.alloc(fcsBytes)
  // a single-segment frame's window is its content size: large ones (8 bytes) are the ones Kafka refuses
  if (fcsBytes === 8) size.writeBigUInt64LE(BigInt(content) + (f.exponent > 20 ? 1n << 28n : 0n))
  else if (fcsBytes > 0)
    size.writeUIntLE(Math.min(Math.max(content - (fcsBytes === 2 ? 256 : 0), 0), 2 ** (8 * fcsBytes) - 1), 0, fcsBytes)
  parts.push(size)
  f.blocks.forEach(([rle, d], i) => {
    const last = i === f.blocks.length - 1 ? 1 : 0
    const h = Buffer.alloc(3)
    if (rle && d.length > 0) {
      h.writeUIntLE((3 << 3) | (1 << 1) | last, 0, 3)
      parts.push(h, Buffer.from([d[0]!]))
    } else {
      h.writeUIntLE((d.length << 3) | last, 0, 3)
      parts.push(h, d)
    }
  })
  if (f.checksum) parts.push(Buffer.alloc(4, 7))
  return Buffer.concat(parts)
}

describe('the streamed window check (zstd-window-watch.ts) = the whole one (windowKafkaRefuses)', () => {
  it('on generated payloads, damaged or not, pushed in pieces of any size', () => {
    let refusals = 0
    fc.assert(
      fc.property(
        fc.array(frameArb, { minLength: 0, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { maxLength: 3 }),
        fc.nat(30),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 8 }),
        (frames, edits, cut, pieces) => {
          let payload = Buffer.concat(frames.map(frameBytes))
          for (const [at, v] of edits) if (payload.length > 0) payload[at % payload.length] = v
          if (cut > 20) payload = payload.subarray(0, Math.max(0, payload.length - (cut - 20)))
          const watch = new ZstdWindowWatch()
          for (let at = 0, i = 0; at < payload.length; i++) {
            const n = pieces[i % pieces.length]!
            watch.push(payload.subarray(at, at + n))
            at += n
          }
          const whole = windowKafkaRefuses(payload)
          if (whole !== undefined) refusals++
          expect(watch.end()).toEqual(whole)
        },
      ),
      { numRuns: 3000 },
    )
    // the walk's every outcome was met: refusals, and payloads it accepts or finds damaged
    expect(refusals).toBeGreaterThan(300)
  })

  it('a batch larger than the read window gets the finding the whole path gives (dump, deep or not; reconcile)', async () => {
    const p = path.join(dir, 'streamed-0')
    fs.mkdirSync(p, { recursive: true })
    const records = Array.from({ length: 40 }, (_v, i) => ({ key: `k${i}`, value: `value ${i} ${'x'.repeat(200)}` }))
    fs.writeFileSync(
      path.join(p, '00000000000000000000.log'),
      segment({ codec: 4, records, compress: (b) => rawFrame(21 << 3, b) }),
    )
    const finding = /its zstd frame at payload byte 0 declares a window of 2147483648 bytes.*\[ZSTD_WINDOW_TOO_LARGE\]/
    for (const args of [[], ['--deep-iteration'], ['--deep-iteration', '--print-data-log']]) {
      const whole = await runCli([...args, p])
      const streamed = await runCli([...args, '--window', '4096', p])
      expect(whole.stderr, args.join(' ')).toMatch(finding)
      expect(streamed, args.join(' ')).toEqual(whole)
    }
  })
})
