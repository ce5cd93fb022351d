// One hanging rule (analysis/hanging.ts) in lso, transactions, cleanup and report: the same verdict on the same
// input at the same --now, on both sides of each threshold. Truth from outside tsdump: the brokers' answers in
// expected.json (describeTransactions' transactionStartTimeMs and transactionTimeoutMs for the coordinator's abort
// deadline; describeProducers' lastTimestamp for find-hanging's candidate rule) and kafka-transactions.sh
// find-hanging's rule (TransactionsCommand: now − lastTimestamp > --max-transaction-timeout).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'

const MIN = 60_000
const VERDICT = /producer (\d+) epoch (\d+) in (\S+) from offset (\d+)/
type Verdict = string

/** `CODE producer/partition/offset` of every TXN_HANGING and TXN_COORDINATOR_OVERDUE finding, sorted */
function verdicts(findings: Array<{ code: string; message: string }>): Verdict[] {
  return findings
    .filter((f) => f.code === 'TXN_HANGING' || f.code === 'TXN_COORDINATOR_OVERDUE')
    .map((f) => {
      const m = VERDICT.exec(f.message)
      expect(m, f.message).not.toBeNull()
      return `${f.code} ${m![1]}/${m![2]} ${m![3]}@${m![4]}`
    })
    .sort()
}

interface Findings {
  code: string
  message: string
}
async function lso(paths: string[], now: number): Promise<{ v: Verdict[]; code: number; sources: string[] }> {
  const r = await runCli(['lso', '--json', '--now', String(now), ...paths])
  const j = JSON.parse(r.stdout) as {
    partitions: Array<{ findings: Findings[]; blocking: { ageSource: string; state: string } | null }>
  }
  return {
    v: verdicts(j.partitions.flatMap((p) => p.findings)),
    code: r.code,
    sources: j.partitions.flatMap((p) =>
      p.blocking === null || p.blocking.state !== 'open' ? [] : [p.blocking.ageSource],
    ),
  }
}
async function transactions(paths: string[], now: number): Promise<{ v: Verdict[]; code: number; sources: string[] }> {
  const r = await runCli(['transactions', '--json', '--now', String(now), ...paths])
  const j = JSON.parse(r.stdout) as {
    transactions: Array<{ findings: Findings[]; partitions: Array<{ ageSource?: string }> }>
  }
  return {
    v: verdicts(j.transactions.flatMap((t) => t.findings)),
    code: r.code,
    sources: j.transactions.flatMap((t) =>
      t.partitions.flatMap((p) => (p.ageSource === undefined ? [] : [p.ageSource])),
    ),
  }
}
async function cleanup(paths: string[], now: number): Promise<{ v: Verdict[]; code: number; sources: string[] }> {
  const r = await runCli(['cleanup', '--json', '--now', String(now), ...paths])
  const j = JSON.parse(r.stdout) as {
    partitions: Array<{ findings: Findings[]; openTransaction: { ageSource: string } | null }>
  }
  return {
    v: verdicts(j.partitions.flatMap((p) => p.findings)),
    code: r.code,
    sources: j.partitions.flatMap((p) => (p.openTransaction === null ? [] : [p.openTransaction.ageSource])),
  }
}
async function report(paths: string[], now: number): Promise<{ v: Verdict[]; code: number; html: string }> {
  const r = await runCli(['report', '-o', '-', '--now', String(now), ...paths])
  // the findings go to stderr in the one format every command uses: `tsdump: warning: <label>: <message> [CODE]`
  const found = r.stderr.split('\n').flatMap((l) => {
    const m = /^tsdump: \w+: [^:]+: (.*) \[(\w+)\]$/.exec(l)
    return m === null ? [] : [{ code: m[2]!, message: m[1]! }]
  })
  return { v: verdicts(found), code: r.code, html: r.stdout }
}

/** every command's verdicts at `now`; they must be one */
async function allFour(paths: string[], now: number): Promise<Verdict[]> {
  const [l, t, c, r] = [
    await lso(paths, now),
    await transactions(paths, now),
    await cleanup(paths, now),
    await report(paths, now),
  ]
  expect(t.v, 'transactions').toEqual(l.v)
  expect(c.v, 'cleanup').toEqual(l.v)
  expect(r.v, 'report').toEqual(l.v)
  // a verdict is a problem in the data: exit 1 from each
  if (l.v.length > 0) for (const x of [l, t, c, r]) expect(x.code).toBe(1)
  return l.v
}

describe('the same hanging verdict from lso, transactions, cleanup and report', () => {
  // open-txn: producer 1's transaction in stuck-0 never ended and no __transaction_state is among the paths
  const openTxn = path.join(FIXTURES, 'open-txn')
  const paths1 = [path.join(openTxn, 'logs')]

  it("open-txn (no coordinator records): not hanging at find-hanging's threshold, hanging 1 ms later, age from event time", async () => {
    // describe-producers' lastTimestamp is the newest batch of the open transaction: kafka-dump-log's text of stuck-0
    const dump = fs.readFileSync(path.join(openTxn, 'dump', 'stuck-0', '00000000000000000000.log.shallow.txt'), 'utf8')
    const stamps = [
      ...dump.matchAll(
        /baseOffset: (\d+) lastOffset: \d+ .*producerId: 1 .*isTransactional: true .*isControl: false .*CreateTime: (\d+)/g,
      ),
    ]
    expect(stamps.length, "the open transaction's batches in kafka-dump-log's text").toBeGreaterThan(0)
    const last = Math.max(...stamps.map((m) => Number(m[2])))
    expect(await allFour(paths1, last + 15 * MIN)).toEqual([])
    const v = await allFour(paths1, last + 15 * MIN + 1)
    expect(v).toEqual([`TXN_HANGING 1/0 stuck-0@${stamps[0]![1]}`])
    for (const x of [
      await lso(paths1, last + 20 * MIN),
      await transactions(paths1, last + 20 * MIN),
      await cleanup(paths1, last + 20 * MIN),
    ]) {
      expect(new Set(x.sources)).toEqual(new Set(['eventTime']))
    }
    const page = (await report(paths1, last + 20 * MIN)).html
    expect(page).toContain('from the records&#39; timestamps (event time')
    expect(page).not.toContain('before the newest batch')
  })

  // broker-4.4/transactions: open-0 and orders-sink-2-3 still Ongoing at the coordinator, three partitions blocked
  const tx44 = path.join(FIXTURES_44, 'transactions')
  const e2 = JSON.parse(fs.readFileSync(path.join(tx44, 'expected.json'), 'utf8')) as {
    describeTransactions: Array<{
      transactionalId: string
      state: string
      producerId: number
      transactionStartTimeMs: number
      transactionTimeoutMs: number
    }>
  }
  const ongoing = e2.describeTransactions
    .filter((d) => d.state === 'Ongoing')
    .sort(
      (a, b) => a.transactionStartTimeMs + a.transactionTimeoutMs - b.transactionStartTimeMs - b.transactionTimeoutMs,
    )
  const paths2 = [path.join(tx44, 'logs')]

  it("4.4.0 transactions: TXN_COORDINATOR_OVERDUE once a coordinator's abort deadline is more than the timeout past, one id at a time", async () => {
    expect(ongoing.map((d) => d.transactionalId)).toEqual(['orders-sink-2-3', 'open-0'])
    const [first, second] = ongoing.map((d) => d.transactionStartTimeMs + d.transactionTimeoutMs) as [number, number]
    expect(second).toBeGreaterThan(first + 1)
    // within the timeout after the first deadline: nothing, and the coordinator is the age's source
    expect(await allFour(paths2, first + 15 * MIN)).toEqual([])
    // 1 ms later: the first id's partition only
    const one = await allFour(paths2, first + 15 * MIN + 1)
    expect(one).toHaveLength(1)
    expect(one[0]).toMatch(new RegExp(`^TXN_COORDINATOR_OVERDUE ${ongoing[0]!.producerId}/0 tx-out-2@`))
    // past both: three partitions blocked, three overdue, none called hanging (the coordinator lists each)
    const all = await allFour(paths2, second + 15 * MIN + 1)
    expect(all.map((v) => v.split(' ')[2]!.split('@')[0]).sort()).toEqual([
      '__consumer_offsets-1',
      'tx-out-1',
      'tx-out-2',
    ])
    expect(all.every((v) => v.startsWith('TXN_COORDINATOR_OVERDUE'))).toBe(true)
    for (const x of [await lso(paths2, second), await transactions(paths2, second), await cleanup(paths2, second)]) {
      expect(new Set(x.sources)).toEqual(new Set(['coordinator']))
    }
  })

  it('orders: every transaction ended; no verdict from any command at any time', async () => {
    const paths3 = [path.join(FIXTURES, 'orders', 'logs')]
    expect(await allFour(paths3, Date.parse('2030-01-01T00:00:00Z'))).toEqual([])
  })
})
