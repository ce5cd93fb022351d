// The byte-level record path (format/record-lines-fast.ts) must print what the general decoder prints,
// on real segments and on damaged copies of them.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as os from 'node:os'
import { afterAll, describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { StringWriter } from '../../src/format/writer.js'
import type { CommandContext } from '../../src/commands/context.js'
import { runDump } from '../../src/commands/dump.js'
import { DEFAULT_DUMP_OPTIONS } from '../../src/commands/dump/dump-options.js'
import { CORPUS, FIXTURES } from '../support/paths.js'
import { segment } from '../support/segment-builder.js'

function logs(dir: string): string[] {
  if (!fs.existsSync(dir)) return []
  const out: string[] = []
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && e.name.endsWith('.log')) out.push(path.join(e.parentPath, e.name))
  }
  return out.sort()
}

async function dump(
  file: string,
  fastPaths: boolean,
  extra: Partial<typeof DEFAULT_DUMP_OPTIONS> = {},
): Promise<[number, string, string]> {
  const stdout = new StringWriter()
  const stderr = new StringWriter()
  const ctx: CommandContext = { stdout, stderr, colorLevel: 0, stderrIsTTY: false, env: {}, now: () => 0 }
  const code = await runDump(
    { ...DEFAULT_DUMP_OPTIONS, paths: [file], deep: true, printData: true, progress: false, ...extra },
    ctx,
    { fastPaths },
  )
  return [code, stdout.text, stderr.text]
}

const files = [...logs(FIXTURES), ...logs(CORPUS)]
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-fast-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('fast record lines = general decoder', () => {
  it('has inputs', () => {
    expect(files.length).toBeGreaterThan(10)
  })
  for (const f of files) {
    it(path.relative(path.dirname(FIXTURES), f), async () => {
      expect(await dump(f, true)).toEqual(await dump(f, false))
      expect(await dump(f, true, { printData: false, skipRecordMetadata: true })).toEqual(
        await dump(f, false, { printData: false, skipRecordMetadata: true }),
      )
    })
  }
  it('on damaged copies (bit flips, overwritten bytes)', async () => {
    const sources = files.filter((f) => fs.statSync(f).size < 200_000)
    await fc.assert(
      fc.asyncProperty(
        fc.nat(sources.length - 1),
        fc.array(fc.tuple(fc.nat(), fc.nat(255)), { minLength: 1, maxLength: 6 }),
        async (i, edits) => {
          const buf = fs.readFileSync(sources[i]!)
          for (const [at, v] of edits) buf[at % buf.length] = v
          const p = path.join(tmp, '00000000000000000000.log')
          fs.writeFileSync(p, buf)
          expect(await dump(p, true)).toEqual(await dump(p, false))
        },
      ),
      { numRuns: 300 },
    )
  })
  it('on offsets and timestamps around ±2^53, where a 64-bit value stops being a number (bytes/int64.ts)', async () => {
    const near = fc.oneof(
      fc.bigInt({ min: 2n ** 53n - 40n, max: 2n ** 53n + 40n }),
      fc.bigInt({ min: -(2n ** 53n) - 40n, max: -(2n ** 53n) + 40n }),
      fc.bigInt({ min: 2n ** 52n - 40n, max: 2n ** 52n + 40n }),
      fc.bigInt({ min: 0n, max: 1000n }),
    )
    await fc.assert(
      fc.asyncProperty(
        near,
        near,
        fc.integer({ min: -40, max: 40 }),
        fc.integer({ min: 1, max: 6 }),
        fc.boolean(),
        async (baseOffset, baseTimestamp, tsDelta, n, logAppendTime) => {
          const records = Array.from({ length: n }, (_, i) => ({
            key: `k${i}`,
            value: `v${i}`,
            timestampDelta: BigInt(tsDelta * i),
          }))
          const p = path.join(tmp, '00000000000000000000.log')
          fs.writeFileSync(
            p,
            segment({ baseOffset, baseTimestamp, maxTimestamp: baseTimestamp + 5n, logAppendTime, records }),
          )
          expect(await dump(p, true)).toEqual(await dump(p, false))
        },
      ),
      { numRuns: 200 },
    )
  })
})
