// A batch larger than the read window is decoded as a stream in deep modes (decode/streamed-batch.ts):
// the output, every finding and its position must be what the whole-batch path prints. The whole path is
// the oracle here (its output is held to kafka-dump-log by the --compat goldens); a small --window makes
// every batch of a real segment take the streamed path: raw records read from the file, records larger
// than the window read head / tail / value in pieces, gzip payloads inflated piece by piece.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as os from 'node:os'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { StringWriter } from '../../src/format/writer.js'
import type { CommandContext } from '../../src/commands/context.js'
import { runDump } from '../../src/commands/dump.js'
import { DEFAULT_DUMP_OPTIONS } from '../../src/commands/dump/dump-options.js'
import { CORPUS, FIXTURES } from '../support/paths.js'
// the fuzz harness's own encoders (independent of src/: they write bytes by the spec)
import { gzipBatch, hugeBatch, legacyWrapper, manyRecordsBatch } from '../../scripts/fuzz/builders.mjs'
import { batch, record } from '../../scripts/fuzz/encode.mjs'

type Opts = Partial<typeof DEFAULT_DUMP_OPTIONS>

async function dump(file: string, extra: Opts): Promise<[number, string, string]> {
  const stdout = new StringWriter()
  const stderr = new StringWriter()
  const ctx: CommandContext = { stdout, stderr, colorLevel: 0, stderrIsTTY: false, env: {}, now: () => 0 }
  const code = await runDump(
    { ...DEFAULT_DUMP_OPTIONS, paths: [file], deep: true, printData: true, progress: false, ...extra },
    ctx,
  )
  return [code, stdout.text, stderr.text]
}

const MODES: Opts[] = [{}, { printData: false }, { json: true }, { json: true, printData: false }]

async function sameStreamed(file: string, windows: number[], extra: Opts = {}): Promise<void> {
  for (const m of MODES) {
    const whole = await dump(file, { ...m, ...extra })
    for (const window of windows)
      expect(await dump(file, { ...m, ...extra, window }), `window ${window} ${JSON.stringify(m)}`).toEqual(whole)
  }
}

function logs(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.log'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-streamed-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))
const file = (name: string): string => path.join(tmp, name, '00000000000000000000.log')
function made(name: string, build: (f: string) => void): string {
  fs.mkdirSync(path.dirname(file(name)), { recursive: true })
  build(file(name))
  return file(name)
}

describe('deep dump of a batch larger than the window = the whole-batch path', () => {
  const real = [...logs(FIXTURES), ...logs(CORPUS)].filter((f) => fs.statSync(f).size < 2_000_000)
  it('real segments (every batch streamed at window 61; gzip ones inflated in pieces)', async () => {
    expect(real.length).toBeGreaterThan(10)
    for (const f of real) await sameStreamed(f, [61, 4096])
  }, 600_000)

  it('many records, one record larger than the window, a gzip batch, a legacy wrapper', async () => {
    await sameStreamed(
      made('many', (f) => manyRecordsBatch(f, 3000)),
      [61, 1000],
    )
    await sameStreamed(
      made('huge', (f) => hugeBatch(f, 50_000)),
      [61, 4096],
    )
    await sameStreamed(
      made('gzip', (f) => gzipBatch(f, 60_000, 700)),
      [61, 4096],
    )
    // a budget below the payload: DECOMPRESSED_TOO_LARGE before any record, from the stream too
    await sameStreamed(file('gzip'), [61], { maxDecompressed: 20_000 })
    // 300,000 inner messages inflate to 10 MB, past the 8 MiB a wrapper's value is held to
    const legacy = made('legacy', (f) => legacyWrapper(f, 300_000))
    const [code, out] = await dump(legacy, { printData: false })
    expect(code).toBe(0)
    expect(out.split('\n').filter((l) => l.startsWith('| offset:')).length).toBe(300_000)
  }, 600_000)

  it('UTF-8 and malformed values cut at piece ends print as Java decodes them whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.oneof(
            fc.string({ unit: 'binary' }).map((s) => Buffer.from(s)),
            fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
          ),
          { minLength: 1, maxLength: 5 },
        ),
        fc.integer({ min: 61, max: 200 }),
        async (values, window) => {
          const f = made('utf8', (p) =>
            fs.writeFileSync(
              p,
              batch(
                { count: values.length },
                Buffer.concat(
                  values.map((value, i) =>
                    record({
                      value,
                      key: value.subarray(0, 3),
                      offsetDelta: i,
                      headers: [[value.subarray(0, 2), value.subarray(1, 4)]],
                    }),
                  ),
                ),
              ),
            ),
          )
          // --json too: its payload string is written from the pieces
          for (const m of [{}, { json: true }]) expect(await dump(f, { ...m, window })).toEqual(await dump(f, m))
        },
      ),
      { numRuns: 150 },
    )
  }, 600_000)

  it('a payload decoder does not get a value larger than the window (VALUE_NOT_DECODED), the string decoder does', async () => {
    const f = made('not-decoded', (p) =>
      fs.writeFileSync(
        p,
        batch(
          { count: 2 },
          Buffer.concat([
            record({ value: Buffer.alloc(500, 0x41) }),
            record({ value: Buffer.from('small'), offsetDelta: 1 }),
          ]),
        ),
      ),
    )
    const [code, out, err] = await dump(f, { window: 200, valueDecoder: 'hex' })
    expect(code).toBe(0)
    expect(out).toContain(
      'valueSize: 500 sequence: -1 headerKeys: [] payload: <not decoded: 500 bytes, larger than the read window (VALUE_NOT_DECODED)>',
    )
    expect(out).toContain(`payload: ${Buffer.from('small').toString('hex')}`)
    expect(err).toMatch(
      /position 61: offset 0: the value of 500 bytes is larger than the read window \(200 bytes\).*\[VALUE_NOT_DECODED\]/,
    )
    const [, json] = await dump(f, { window: 200, valueDecoder: 'hex', json: true })
    expect(
      json
        .split('\n')
        .filter((l) => l.includes('"type":"record"'))
        .map((l) => (JSON.parse(l) as { payload: unknown }).payload),
    ).toEqual([null, '736d616c6c'])
    // a record larger than the window for its headers, its value small: the value is held and decoded
    const g = made('big-header', (p) =>
      fs.writeFileSync(
        p,
        batch(
          { count: 1 },
          record({ value: Buffer.from('v'), headers: [[Buffer.from('h'), Buffer.alloc(900, 0x42)]] }),
        ),
      ),
    )
    const [hcode, hout, herr] = await dump(g, { window: 200, valueDecoder: 'hex' })
    expect([hcode, herr]).toEqual([0, ''])
    expect(hout).toContain('headerKeys: [h] payload: 76\n')
    // within the window it is decoded, as before
    expect((await dump(f, { valueDecoder: 'hex' }))[1]).toContain(`payload: ${'41'.repeat(500)}`)
    expect((await dump(f, { window: 200 }))[1]).toContain(`payload: ${'A'.repeat(500)}`)
  })

  it('damaged copies: the same findings at the same positions', async () => {
    const g = gzipSync(
      Buffer.concat([0, 1, 2].map((i) => record({ value: Buffer.alloc(900, 97 + i), offsetDelta: i }))),
    )
    const sources = [
      made('d-many', (f) => manyRecordsBatch(f, 400)),
      made('d-huge', (f) => hugeBatch(f, 3000)),
      made('d-gzip', (f) => fs.writeFileSync(f, batch({ count: 3, codec: 1 }, g))),
      ...real.filter((f) => fs.statSync(f).size < 100_000).slice(0, 20),
      // real snappy (xerial chunks and one raw block), streamed chunk by chunk
      ...real.filter((f) => f.includes('snappy')),
    ].map((f) => fs.readFileSync(f))
    await fc.assert(
      fc.asyncProperty(
        fc.nat(sources.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 61, max: 3000 }),
        async (i, edits, window) => {
          const buf = Buffer.from(sources[i]!)
          // past the batch header: damage inside the records (a header edit changes the framing itself)
          for (const [at, v] of edits) buf[61 + (at % (buf.length - 61))] = v
          const p = made('damaged', (f) => fs.writeFileSync(f, buf))
          for (const m of [{}, { json: true }])
            expect(await dump(p, { ...m, window }), JSON.stringify({ i, edits, window })).toEqual(await dump(p, m))
        },
      ),
      { numRuns: 300 },
    )
  }, 600_000)
})
