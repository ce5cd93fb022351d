import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'

// `dump --isolation-level` lists the records a consumer of that level receives: checked against the Java
// consumer's per-partition counts in the brokers' expected.json (kafka-console-consumer from the earliest
// offset, one run per isolation level), on every fixture that has them (3.9.1 and 4.4.0 brokers).
interface ExpectedPartition {
  topic: string
  partition: number
  readCommittedRecords?: number
  readUncommittedRecords?: number
}
const expectedOf = (dir: string): ExpectedPartition[] =>
  (JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as { partitions?: ExpectedPartition[] })
    .partitions ?? []

function scenarios(root: string): string[] {
  return fs
    .readdirSync(root)
    .filter(
      (s) =>
        fs.existsSync(path.join(root, s, 'logs')) &&
        fs.existsSync(path.join(root, s, 'expected.json')) &&
        expectedOf(path.join(root, s)).some((p) => p.readCommittedRecords !== undefined),
    )
}

/** records listed per topic-partition, and the control records among them */
async function listed(logs: string, level: string): Promise<{ records: Map<string, number>; control: number }> {
  const r = await runCli(['dump', '--isolation-level', level, '--deep-iteration', '--json', logs])
  expect(r.code, r.stderr).toBe(0)
  const records = new Map<string, number>()
  let control = 0
  for (const line of r.stdout.split('\n')) {
    if (!line.startsWith('{"type":"record"')) continue
    const rec = JSON.parse(line) as { topic: string; partition: number; controlType?: string }
    if (rec.controlType !== undefined) control++
    const k = `${rec.topic}-${rec.partition}`
    records.set(k, (records.get(k) ?? 0) + 1)
  }
  return { records, control }
}

describe('dump --isolation-level', () => {
  it('finds the fixtures', () => {
    expect(scenarios(FIXTURES).length + scenarios(FIXTURES_44).length).toBeGreaterThan(4)
  })
  for (const [root, label] of [
    [FIXTURES, '3.9.1'],
    [FIXTURES_44, '4.4.0'],
  ] as const) {
    for (const s of scenarios(root)) {
      it(`${label} ${s}: the records each level lists are the Java consumer's counts`, async () => {
        const expected = expectedOf(path.join(root, s)).filter((p) => p.readCommittedRecords !== undefined)
        const rc = await listed(path.join(root, s, 'logs'), 'read_committed')
        const ru = await listed(path.join(root, s, 'logs'), 'read_uncommitted')
        expect(rc.control + ru.control).toBe(0)
        for (const p of expected) {
          const k = `${p.topic}-${p.partition}`
          expect([rc.records.get(k) ?? 0, ru.records.get(k) ?? 0], k).toEqual([
            p.readCommittedRecords,
            p.readUncommittedRecords,
          ])
        }
      })
    }
  }

  it('orders-11-0 read_committed: the committed transaction only, no markers, no false offset gaps', async () => {
    const r = await runCli([
      'dump',
      '--isolation-level',
      'read_committed',
      '--deep-iteration',
      path.join(FIXTURES, 'orders/logs/orders-11-0'),
    ])
    expect(r.code, r.stderr).toBe(0)
    expect([...r.stdout.matchAll(/^\| offset: (\d+)/gm)].map((m) => Number(m[1]))).toEqual([0, 1, 2, 3, 4, 5])
    expect(r.stdout).not.toMatch(/isControl: true/)
    expect(r.stderr).not.toContain('Non-consecutive')
  })

  it('refuses standard input (the consumer view needs the partition directory)', async () => {
    const r = await runCli(['dump', '--isolation-level', 'read_committed', '-'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('--isolation-level needs the partition directory')
  })
})
