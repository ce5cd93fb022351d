// Exit codes, summary lines and findings must tell the same story: 0 clean (info findings at most),
// 1 problems found in the data, 2 usage error or unusable input. Never a stack trace.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { segment, simpleSegment } from '../support/segment-builder.js'
import type { RunResult } from './support.js'
import { expectNoCrash, findings, realLogs, rmrf, run, summaryOf, tmp, writeLog } from './support.js'

const dir = tmp()
afterAll(() => rmrf(dir))

/** The exit code the findings on stderr imply. */
function impliedCode(r: RunResult): number {
  const f = findings(r.stderr)
  if (f.some((x) => x.code === 'UNREADABLE')) return 2
  return f.some((x) => x.severity !== 'info') ? 1 : 0
}

function checkAgreement(r: RunResult): void {
  expectNoCrash(r)
  expect(r.code, r.stderr).toBe(impliedCode(r))
  const f = findings(r.stderr)
  // every data finding names a position
  for (const x of f)
    if (x.code !== 'UNREADABLE' && x.code !== 'NAME_NOT_OFFSET' && x.code !== 'NO_SEGMENT')
      expect(x.position, `${x.code}: ${x.message}`).toBeTypeOf('number')
  // per file: the summary line's counts equal the findings about that file
  const blocks = r.stdout.split(/^Dumping /m).slice(1)
  for (const b of blocks) {
    const file = b.slice(0, b.indexOf('\n'))
    const s = summaryOf(b)
    if (s === undefined) continue
    const mine = f.filter((x) => x.file === file)
    expect(s.crc, file).toBe(mine.filter((x) => x.code === 'CRC_MISMATCH').length)
    // trailing bytes are what follows the last batch: a damaged region reading resumed after is not among them
    const tails = mine.filter(
      (x) =>
        ['TRUNCATED_TAIL', 'SHORT_TAIL', 'ZERO_TAIL'].includes(x.code) ||
        (['BAD_LENGTH', 'BAD_MAGIC'].includes(x.code) && !x.message.includes('resumed at the next valid batch')),
    )
    if (s.trailing === 0) expect(tails, file).toEqual([])
    else expect(tails.length, file).toBeGreaterThan(0)
    const regions = /damaged regions: (\d+)/.exec(b)
    expect(Number(regions?.[1] ?? 0), file).toBe(
      mine.filter((x) => x.code === 'BAD_LENGTH' || x.code === 'BAD_MAGIC').length,
    )
  }
}

describe('exit codes agree with the findings', () => {
  it('real files are clean: exit 0, no error or warning findings, summary counts match', async (ctx) => {
    const logs = realLogs()
    if (logs.length === 0) {
      console.log('skipping: no real segments found')
      ctx.skip('no real segments found')
    }
    for (const p of logs) {
      const r = await run(['--deep-iteration', p])
      checkAgreement(r)
      expect(r.code, `${p}\n${r.stderr}`).toBe(0)
    }
  })

  it('damaged files: exit 1, and the summary counts the same damage the findings report', async () => {
    const ok = simpleSegment(4)
    const cases: Buffer[] = [
      segment({}, { crc: 'bad' }, {}, { crc: 'bad' }),
      Buffer.concat([ok, ok.subarray(0, 30)]),
      Buffer.concat([ok, Buffer.from([1, 2, 3])]),
      segment({}, { batchLength: -1 }, {}, { magic: 9 }, {}),
      Buffer.concat([ok.subarray(0, 105), Buffer.alloc(300, 0xab), ok.subarray(105)]),
    ]
    for (const [i, c] of cases.entries()) {
      for (const flags of [[], ['--deep-iteration'], ['--no-crc']]) {
        const r = await run([...flags, writeLog(path.join(dir, `d${i}`), c)])
        checkAgreement(r)
        if (!(flags.includes('--no-crc') && i === 0))
          expect(r.code, `case ${i} ${flags.join(' ')}: ${r.stderr}`).toBe(1)
      }
    }
  })

  it('--json: the summary object and the finding objects agree with the exit code', async () => {
    const r = await run(['--json', writeLog(path.join(dir, 'json'), segment({}, { crc: 'bad' }, {}))])
    expect(r.code).toBe(1)
    const objs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    const summary = objs.find((o) => o.type === 'summary')!
    const fs_ = objs.filter((o) => o.type === 'finding')
    expect(summary.crcFailures).toBe(1)
    expect(fs_).toMatchObject([{ code: 'CRC_MISMATCH', position: 69, severity: 'error' }])
  })

  it('only info findings (zero tail, file name not an offset): exit 0', async () => {
    const d = path.join(dir, 'info-0')
    fs.mkdirSync(d, { recursive: true })
    const f = path.join(d, 'segment.log')
    fs.writeFileSync(f, Buffer.concat([simpleSegment(2), Buffer.alloc(1000)]))
    const r = await run([f])
    checkAgreement(r)
    expect(r.code).toBe(0)
    expect(
      findings(r.stderr)
        .map((x) => x.code)
        .sort(),
    ).toEqual(['NAME_NOT_OFFSET', 'ZERO_TAIL'])
  })

  it('unusable input and usage errors: exit 2, one clear line, no stack trace', async () => {
    const good = writeLog(path.join(dir, 'good'), simpleSegment(2))
    const cases: string[][] = [
      [],
      ['--no-such-option', good],
      [path.join(dir, 'missing.log')],
      ['--window', 'lots', good],
      ['--window', '0', good],
      ['--max-bytes', '-5', good],
      ['--key-decoder', 'nope', good],
      ['reconcile'],
      ['reconcile', path.join(dir, 'missing')],
      ['txns', '--width', '3', good],
      ['lso', '--max-transaction-timeout', 'soon', good],
      ['no-such-command-or-file'],
      ['lso', path.join(dir, 'missing')],
      ['txns', path.join(dir, 'missing')],
    ]
    for (const argv of cases) {
      const r = await run(argv)
      expectNoCrash(r)
      expect(r.code, `${argv.join(' ')}: ${r.stderr}`).toBe(2)
      expect(r.stderr.trim().length, argv.join(' ')).toBeGreaterThan(0)
    }
  })

  it('--help and --version: exit 0', async () => {
    for (const argv of [['--help'], ['--version'], ['reconcile', '--help'], ['lso', '--help'], ['txns', '--help']]) {
      const r = await run(argv)
      expect(r.code, argv.join(' ')).toBe(0)
    }
  })

  it('a mix of clean, damaged and missing inputs: the worst wins (2)', async () => {
    const good = writeLog(path.join(dir, 'mix-good'), simpleSegment(2))
    const bad = writeLog(path.join(dir, 'mix-bad'), segment({}, { crc: 'bad' }))
    const r = await run([good, bad, path.join(dir, 'nope.log')])
    expect(r.code).toBe(2)
    expect(
      findings(r.stderr)
        .map((x) => x.code)
        .sort(),
    ).toEqual(['CRC_MISMATCH', 'UNREADABLE'])
  })
})
