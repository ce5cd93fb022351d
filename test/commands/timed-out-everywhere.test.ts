// TXN_TIMED_OUT is said by every command that reads the coordinator's records (txns, lso, transactions) and
// ranked once by doctor. The truth is the generator's: the transactional ids it left to the coordinator's
// timeout (txn: the "coordinator-timeout-abort" event, after describeTransactions said CompleteAbort;
// transactions: the session of app "timeout"; streams-eos: sl-app's halted run, CompleteAbort only after
// start + transaction.timeout.ms).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { lso } from '../../src/commands/lso.js'
import { txns } from '../../src/commands/txns.js'
import { transactions } from '../../src/commands/transactions.js'
import { doctor } from '../../src/commands/doctor.js'
import type { Finding } from '../../src/analysis/findings.js'

const ROOT = path.resolve(__dirname, '..', '..', 'fixtures', 'broker-4.4')

interface Case {
  fixture: string
  timedOut: (e: Record<string, unknown>) => string[]
}
const CASES: Case[] = [
  {
    fixture: 'txn',
    timedOut: (e) =>
      (e.notes as string[])
        .filter((n) => n.startsWith('{'))
        .map((n) => JSON.parse(n) as { event: string; id: string })
        .filter((n) => n.event === 'coordinator-timeout-abort')
        .map((n) => n.id),
  },
  {
    fixture: 'transactions',
    timedOut: (e) =>
      (e.producerSessions as Array<{ app: string; transactionalId: string }>)
        .filter((s) => s.app === 'timeout')
        .map((s) => s.transactionalId),
  },
  {
    fixture: 'streams-eos',
    timedOut: (e) => [
      (e.streams as { applications: Record<string, { haltedRun?: string }> }).applications['sl-app']!.haltedRun!,
    ],
  },
]

const idOf = (f: Finding): string => f.message.split(' ')[0]!
const timedOutIds = (fs: readonly Finding[]): string[] =>
  [...new Set(fs.filter((f) => f.code === 'TXN_TIMED_OUT').map(idOf))].sort()

describe.each(CASES)('TXN_TIMED_OUT in $fixture', ({ fixture, timedOut }) => {
  const dir = path.join(ROOT, fixture)
  const logs = path.join(dir, 'logs')
  const exists = fs.existsSync(path.join(dir, 'expected.json'))
  const expected = exists
    ? timedOut(JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Record<string, unknown>).sort()
    : []

  it("the generator left at least one transaction to the coordinator's timeout", (ctx) => {
    if (!exists) ctx.skip('fixture not generated: node scripts/generate-fixtures.mjs --kafka-version 4.4.0 ' + fixture)
    expect(expected.length).toBeGreaterThan(0)
  })

  it('txns says it of the __transaction_state partitions', (ctx) => {
    if (!exists) ctx.skip('fixture not generated: node scripts/generate-fixtures.mjs --kafka-version 4.4.0 ' + fixture)
    const states = fs
      .readdirSync(logs)
      .filter((d) => d.startsWith('__transaction_state-'))
      .map((d) => path.join(logs, d))
    const r = txns(states)
    expect(timedOutIds(r.partitions.flatMap((p) => ('findings' in p ? p.findings : [])))).toEqual(expected)
  })

  it("lso says it when the coordinator's records are among the paths, and not without them", (ctx) => {
    if (!exists) ctx.skip('fixture not generated: node scripts/generate-fixtures.mjs --kafka-version 4.4.0 ' + fixture)
    const r = lso([logs], { now: Date.parse('2030-01-01T00:00:00Z') })
    expect(timedOutIds((r.coordinatorFindings ?? []).flatMap((c) => c.findings))).toEqual(expected)
    // without them: the data partitions copied into a log dir of their own (given alone in their own log dir, the
    // coordinator's partitions beside them are read: scan/internal-partitions.ts)
    const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-timed-out-'))
    const data = fs
      .readdirSync(logs)
      .filter((d) => /-\d+$/.test(d) && !d.startsWith('__transaction_state'))
      .map((d) => {
        fs.cpSync(path.join(logs, d), path.join(alone, d), { recursive: true })
        return path.join(alone, d)
      })
    const without = lso(data, { now: Date.parse('2030-01-01T00:00:00Z') })
    fs.rmSync(alone, { recursive: true, force: true })
    expect(timedOutIds((without.coordinatorFindings ?? []).flatMap((c) => c.findings))).toEqual([])
  })

  it('transactions says it, and doctor ranks it once per transaction, first rank', (ctx) => {
    if (!exists) ctx.skip('fixture not generated: node scripts/generate-fixtures.mjs --kafka-version 4.4.0 ' + fixture)
    const t = transactions([logs])
    if (t.unusable.length > 0) throw new Error('unusable')
    expect(timedOutIds(t.transactions.flatMap((x) => x.findings))).toEqual(expected)
    const d = doctor([logs])
    const listed = d.findings.filter((f) => f.code === 'TXN_TIMED_OUT')
    expect(listed.map((f) => f.message.split(' ')[0]).sort()).toEqual(expected)
    expect(listed.every((f) => f.rank === 1)).toBe(true)
  })
})
