// Issue #12 item 15: the dump's --start-offset/--end-offset, --from-time/--to-time, --producer-id and
// --transactional-id, checked against kafka-dump-log's own full output of the broker fixtures (the batches of
// the range are picked from it by the rule in the README) and against the broker's describe-producers.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'
import { entryLines, oracleBatches } from './oracle.js'
import type { OracleBatch } from './oracle.js'

const INTERLEAVED = path.join(REPO_ROOT, 'fixtures/broker/interleaved')
const LOGS = path.join(INTERLEAVED, 'logs')
const ORACLE = oracleBatches(path.join(INTERLEAVED, 'dump/mixed-0'))

/** the dump of mixed-0 as kafka-dump-log 3.9.1 (the release that wrote dump/) prints it, run where the manifest ran it */
async function compatDump(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return runCli(['--compat', '--kafka-version', '3.9', ...args, 'mixed-0'], { cwd: LOGS })
}

function shallowLines(batches: OracleBatch[]): string[] {
  return batches.map((b) => b.line)
}

describe('--start-offset / --end-offset (inclusive) against kafka-dump-log', () => {
  // ranges inside one segment, across segments (23 | 46 | 66 ...), at an .index entry (offset 38 at position 1115 of 23)
  const ranges: Array<[bigint, bigint]> = [
    [38n, 50n],
    [39n, 40n],
    [0n, 0n],
    [60n, 130n],
    [217n, 225n],
    [100n, 100n],
  ]
  for (const [s, e] of ranges) {
    it(`shallow ${s}..${e}: the batches that overlap the range, whole`, async () => {
      const r = await compatDump('--start-offset', String(s), '--end-offset', String(e))
      expect(r.code).toBe(0)
      const want = ORACLE.filter((b) => b.lastOffset >= s && b.baseOffset <= e)
      expect(want.length).toBeGreaterThan(0)
      expect(entryLines(r.stdout)).toEqual(shallowLines(want))
      expect(r.stderr).toBe('')
    })
    it(`deep ${s}..${e}: the batch lines and only the records inside the range`, async () => {
      const r = await compatDump('--deep-iteration', '--start-offset', String(s), '--end-offset', String(e))
      expect(r.code).toBe(0)
      const want = ORACLE.filter((b) => b.lastOffset >= s && b.baseOffset <= e).flatMap((b) => [
        b.line,
        ...b.records.filter((x) => x.offset >= s && x.offset <= e).map((x) => x.line),
      ])
      expect(entryLines(r.stdout)).toEqual(want)
    })
  }

  it('reads no segment wholly below the range and none above it (their names say so)', async () => {
    const r = await compatDump('--start-offset', '50', '--end-offset', '60')
    expect(r.stdout).not.toContain('00000000000000000000.log')
    expect(r.stdout).not.toContain('00000000000000000023.log')
    expect(r.stdout).toContain('Dumping mixed-0/00000000000000000046.log')
    expect(r.stdout).not.toContain('00000000000000000066.log')
  })

  it('--end-offset alone, --start-offset alone', async () => {
    expect(entryLines((await compatDump('--end-offset', '30')).stdout)).toEqual(
      shallowLines(ORACLE.filter((b) => b.baseOffset <= 30n)),
    )
    expect(entryLines((await compatDump('--start-offset', '200')).stdout)).toEqual(
      shallowLines(ORACLE.filter((b) => b.lastOffset >= 200n)),
    )
  })

  it('a start after the end is a usage error (exit 2)', async () => {
    const r = await compatDump('--start-offset', '9', '--end-offset', '3')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/tsdump: error: --start-offset 9 is after --end-offset 3/)
    expect(r.stdout).toBe('')
  })
})

/** the batches the time rule keeps, from kafka-dump-log's lines: start at maxTimestamp >= from, end at the first later maxTimestamp > to */
function timeRange(from: bigint, to: bigint): { batches: OracleBatch[]; records: string[] } {
  const start = ORACLE.findIndex((b) => b.maxTimestamp >= from)
  let stop = ORACLE.findIndex((b, i) => i >= start && b.maxTimestamp > to)
  if (stop === -1) stop = ORACLE.length
  // the first later batch past `to` is kept when its first record (baseTimestamp) is not past it
  const keepStop = stop < ORACLE.length && ORACLE[stop]!.records[0]!.timestamp <= to
  const batches = ORACLE.slice(start, keepStop ? stop + 1 : stop)
  const records: string[] = []
  batches.forEach((b, i) => {
    records.push(b.line)
    let started = i !== 0
    for (const x of b.records) {
      if (!started && x.timestamp < from) continue
      started = true
      if (keepStop && i === batches.length - 1 && x.timestamp > to) break
      records.push(x.line)
    }
  })
  return { batches, records }
}

describe('--from-time / --to-time against the timestamps kafka-dump-log prints', () => {
  // timestamps taken from kafka-dump-log's lines: a batch in segment 105 to one in segment 172, and single points
  const b105 = ORACLE.find((b) => b.baseOffset === 110n) ?? ORACLE.find((b) => b.baseOffset > 105n)!
  const b172 = ORACLE.find((b) => b.baseOffset > 175n)!
  const cases: Array<[string, bigint, bigint]> = [
    ['across segments', b105.maxTimestamp, b172.maxTimestamp],
    ['one instant', b105.maxTimestamp, b105.maxTimestamp],
    ['an instant between two batches: nothing', b105.maxTimestamp - 1n, b105.maxTimestamp - 1n],
    ['from the first batch', ORACLE[0]!.maxTimestamp, ORACLE[3]!.maxTimestamp],
    ['to past the end', b172.maxTimestamp, b172.maxTimestamp + 10_000_000n],
  ]
  for (const [name, from, to] of cases) {
    it(`${name}: shallow and deep`, async () => {
      const want = timeRange(from, to)
      if (!name.endsWith('nothing')) expect(want.batches.length).toBeGreaterThan(0)
      const args = ['--from-time', String(from), '--to-time', new Date(Number(to)).toISOString()]
      const s = await compatDump(...args)
      expect(s.code).toBe(0)
      expect(entryLines(s.stdout)).toEqual(shallowLines(want.batches))
      const d = await compatDump('--deep-iteration', ...args)
      expect(entryLines(d.stdout)).toEqual(want.records)
    })
  }

  it('segments whose .timeindex ends before --from-time are not opened (as ListOffsets skips them)', async () => {
    const from = ORACLE.find((b) => b.baseOffset >= 130n)!.maxTimestamp
    const r = await compatDump('--from-time', String(from))
    expect(r.stdout).not.toContain('00000000000000000105.log')
    expect(r.stdout).toContain('Dumping mixed-0/00000000000000000127.log')
    expect(entryLines(r.stdout)).toEqual(shallowLines(timeRange(from, BigInt(Number.MAX_SAFE_INTEGER)).batches))
  })

  it('a time before every batch with an offset range is the offset range; crossed times are a usage error', async () => {
    const r = await compatDump('--from-time', '2000-01-01', '--start-offset', '40', '--end-offset', '45')
    expect(entryLines(r.stdout)).toEqual(shallowLines(ORACLE.filter((b) => b.lastOffset >= 40n && b.baseOffset <= 45n)))
    expect((await compatDump('--from-time', '2026-01-02T00:00:00Z', '--to-time', '2026-01-01T00:00:00Z')).code).toBe(2)
    expect((await compatDump('--from-time', 'yesterday')).code).toBe(2)
  })
})

describe('--producer-id', () => {
  it('keeps the batches of that producer, its COMMIT/ABORT markers included', async () => {
    const r = await compatDump('--producer-id', '4')
    expect(r.code).toBe(0)
    const want = ORACLE.filter((b) => b.producerId === 4n)
    expect(want.some((b) => b.line.includes('isControl: true'))).toBe(true)
    expect(entryLines(r.stdout)).toEqual(shallowLines(want))
  })

  it('with --threads the same output (workers are not used with a filter)', async () => {
    const one = await compatDump('--producer-id', '5', '--start-offset', '100')
    const two = await compatDump('--producer-id', '5', '--start-offset', '100', '--threads', '2')
    expect(two).toEqual(one)
  })
})

describe('--transactional-id, resolved through __transaction_state', () => {
  const orders = path.join(REPO_ROOT, 'fixtures/broker/orders')
  const expected = JSON.parse(fs.readFileSync(path.join(orders, 'expected.json'), 'utf8')) as {
    producers: Array<{ topic: string; partition: number; rows: Array<{ ProducerId: string }> }>
  }

  it('tx-rw-1 is the producer describe-producers lists on orders-11-0 (its __transaction_state-2 is in the same log directory)', async () => {
    const pid = BigInt(
      expected.producers.find((p) => p.topic === 'orders-11' && p.partition === 0)!.rows[0]!.ProducerId,
    )
    const r = await runCli(['--compat', '--kafka-version', '3.9', '--transactional-id', 'tx-rw-1', 'orders-11-0'], {
      cwd: path.join(orders, 'logs'),
    })
    expect(r.code).toBe(0)
    const want = oracleBatches(path.join(orders, 'dump/orders-11-0'), 'shallow').filter((b) => b.producerId === pid)
    expect(want.length).toBe(4)
    expect(entryLines(r.stdout)).toEqual(shallowLines(want))
  })

  it('an id with no record is a usage error naming what was looked for and where (exit 2), not an empty dump', async () => {
    const r = await runCli(['--transactional-id', 'no-such-id', path.join(orders, 'logs/orders-11-0')])
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toMatch(
      /tsdump: error: --transactional-id no-such-id: no __transaction_state record of this id \(looked for its producer id in .*__transaction_state-2\)/,
    )
  })

  it('no __transaction_state partition among the paths or beside them: exit 2, saying so', async () => {
    const r = await runCli(['--transactional-id', 'tx-rw-1', path.join(LOGS, 'mixed-0')])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /no __transaction_state partition among the paths or in their log directory \(.*interleaved\/logs\)/,
    )
    expect(r.stderr).toContain('__transaction_state-') // the partition that would coordinate it
  })

  it('--transactional-id and --producer-id together are a usage error', async () => {
    expect(
      (await runCli(['--transactional-id', 'tx-rw-1', '--producer-id', '1', path.join(orders, 'logs/orders-11-0')]))
        .code,
    ).toBe(2)
  })
})

describe('seeking with the indexes', () => {
  function copySegment(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-seek-'))
    const part = path.join(dir, 'mixed-0')
    fs.mkdirSync(part)
    for (const ext of ['.log', '.index', '.timeindex'])
      fs.copyFileSync(
        path.join(LOGS, 'mixed-0', `00000000000000000023${ext}`),
        path.join(part, `00000000000000000023${ext}`),
      )
    return part
  }
  const seg23 = ORACLE.filter((b) => b.baseOffset >= 23n && b.baseOffset < 46n)

  it('a segment whose early region is damaged dumps cleanly from the .index entry at or below --start-offset', async () => {
    const part = copySegment()
    const log = path.join(part, '00000000000000000023.log')
    const bytes = fs.readFileSync(log)
    bytes.fill(0x5a, 0, 700) // the batches at 0, 215, 293 (offsets 23..29); the .index entry for 38 points at 1115
    fs.writeFileSync(log, bytes)
    const whole = await runCli(['--compat', '--kafka-version', '3.9', part])
    expect(whole.code).toBe(1) // the damage is there to be seen when reading from 0
    const r = await runCli(['--compat', '--kafka-version', '3.9', '--start-offset', '38', part])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    expect(entryLines(r.stdout)).toEqual(shallowLines(seg23.filter((b) => b.lastOffset >= 38n)))
    // the time index leads to the same place: its entry below the batch at 35..38's time is offset 30
    const t = await runCli([
      '--compat',
      '--kafka-version',
      '3.9',
      '--from-time',
      String(seg23.find((b) => b.baseOffset === 35n)!.maxTimestamp),
      part,
    ])
    expect(t.code).toBe(0)
    expect(t.stderr).toBe('')
  })

  it('an index entry that does not point at its batch is not followed: read from 0, same output, a warning', async () => {
    const part = copySegment()
    const idx = path.join(part, '00000000000000000023.index')
    const b = fs.readFileSync(idx)
    b.writeInt32BE(1120, 2 * 8 + 4) // entry 2 (offset 38) now points 5 bytes into its batch
    fs.writeFileSync(idx, b)
    const r = await runCli(['--compat', '--kafka-version', '3.9', '--start-offset', '38', '--end-offset', '42', part])
    expect(entryLines(r.stdout)).toEqual(shallowLines(seg23.filter((x) => x.lastOffset >= 38n && x.baseOffset <= 42n)))
    expect(r.stderr).toMatch(
      /00000000000000000023\.index: position 16: entry 2 \(offset 38, position 1120\).*read from its start instead \[SEEK_INDEX_UNUSABLE\]/,
    )
    expect(r.code).toBe(1)
  })
})
