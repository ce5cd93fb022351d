// The lso verdict on an open transaction whose coordinator still lists the partition (issue #21 item 5), on both
// sides of find-hanging's --max-transaction-timeout. Truth: the 4.4.0 broker's describeTransactions for open-0
// (Ongoing on tx-out-1 and __consumer_offsets-1, fixtures/broker-4.4/transactions/expected.json): the coordinator
// aborts it at transactionStartTimeMs + transactionTimeoutMs (TransactionStateManager.timedOutTransactions).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES_44 } from '../support/paths.js'

interface Described {
  transactionalId: string
  state: string
  producerId: number
  transactionTimeoutMs: number
  transactionStartTimeMs: number
  topicPartitions: Array<{ topic: string; partition: number }>
}
const dir = path.join(FIXTURES_44, 'transactions')
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
  describeTransactions: Described[]
}
const open = expected.describeTransactions.find((d) => d.transactionalId === 'open-0')!
const abortsAt = open.transactionStartTimeMs + open.transactionTimeoutMs
const paths = [path.join(dir, 'logs', 'tx-out-1'), path.join(dir, 'logs', '__transaction_state-2')]
const MIN = 60_000

async function lso(nowMs: number, json: boolean): Promise<{ stdout: string; code: number }> {
  const r = await runCli(['lso', '--now', String(nowMs), ...(json ? ['--json'] : []), ...paths])
  // the text wraps its sentences at 80 columns: compared as one line
  return { stdout: json ? r.stdout : r.stdout.replace(/\s+/g, ' '), code: r.code }
}

describe('lso: an open transaction its coordinator still lists', () => {
  it('the fixture holds what the test needs', () => {
    expect(open.state).toBe('Ongoing')
    expect(open.topicPartitions).toContainEqual({ topic: 'tx-out', partition: 1 })
    expect(open.transactionTimeoutMs).toBeGreaterThan((15 * MIN) / 10)
  })

  it('within the timeout: open, within it, aborted by its coordinator at start + transactionTimeoutMs', async () => {
    const now = open.transactionStartTimeMs + 2 * MIN
    const text = await lso(now, false)
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('open, within 15 min')
    expect(text.stdout).not.toContain('older than')
    expect(text.stdout).toContain(
      `lists this partition in open-0 (Ongoing) and aborts it at ${new Date(abortsAt).toISOString()}`,
    )
    expect(text.stdout).toContain(`in ${((abortsAt - now) / MIN).toFixed(1)} min.`)
    const b = JSON.parse((await lso(now, true)).stdout).partitions[0].blocking
    expect(b).toMatchObject({
      candidate: false,
      hanging: false,
      coordinatorOwner: 'open-0',
      coordinatorAbortsAt: abortsAt,
      coordinatorAbortsAtIso: new Date(abortsAt).toISOString(),
    })
  })

  it('past the timeout, its abort deadline passed less than --max-transaction-timeout ago: older than it, not hanging', async () => {
    const now = abortsAt + 15 * MIN
    const text = await lso(now, false)
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('older than 15 min, not hanging')
    expect(text.stdout).toContain('still lists this partition in open-0 (Ongoing)')
    expect(text.stdout).toContain('15.0 min ago, not done yet.')
    const j = JSON.parse((await lso(now, true)).stdout).partitions[0]
    expect(j.blocking).toMatchObject({
      candidate: true,
      hanging: false,
      overdue: false,
      coordinatorOwner: 'open-0',
      coordinatorAbortsAt: abortsAt,
      ageSource: 'coordinator',
      ageMs: now - open.transactionStartTimeMs,
    })
    expect(j.findings.map((f: { code: string }) => f.code)).not.toContain('TXN_COORDINATOR_OVERDUE')
  })

  it('its abort deadline passed more than --max-transaction-timeout ago: TXN_COORDINATOR_OVERDUE, exit 1', async () => {
    const now = abortsAt + 15 * MIN + 1
    const text = await lso(now, false)
    expect(text.code).toBe(1)
    expect(text.stdout).toContain('COORDINATOR OVERDUE')
    expect(text.stdout).toContain('still lists this partition in open-0 (Ongoing)')
    const r = await runCli(['lso', '--now', String(now), '--json', ...paths])
    const j = JSON.parse(r.stdout).partitions[0]
    expect(j.blocking).toMatchObject({ hanging: false, overdue: true, ageSource: 'coordinator' })
    expect(j.findings.map((f: { code: string }) => f.code)).toContain('TXN_COORDINATOR_OVERDUE')
    expect((await runCli(['lso', '--now', String(now), ...paths])).stderr).toContain(
      'the coordinator is not aborting it',
    )
    // a larger --max-transaction-timeout moves the threshold
    expect((await runCli(['lso', '--now', String(now), '--max-transaction-timeout', '16', ...paths])).code).toBe(0)
  })

  it('without its coordinator partition the same transaction past the timeout is hanging (exit 1)', async () => {
    // the partition alone in a log dir of its own: no coordinator record beside it
    const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-alone-'))
    try {
      fs.cpSync(paths[0]!, path.join(alone, 'tx-out-1'), { recursive: true })
      const r = await runCli(['lso', '--now', String(abortsAt + 20 * MIN), path.join(alone, 'tx-out-1')])
      expect(r.code).toBe(1)
      expect(r.stdout).toContain('HANGING (older than 15 min)')
    } finally {
      fs.rmSync(alone, { recursive: true, force: true })
    }
  })

  it("given alone in its log dir, the partition gets its coordinator's records beside it (scan/internal-partitions.ts)", async () => {
    const r = await runCli(['lso', '--now', String(abortsAt + 20 * MIN), paths[0]!])
    expect(r.code).toBe(1)
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('still lists this partition in open-0 (Ongoing)')
    expect(r.stdout).toContain('COORDINATOR OVERDUE')
    expect(r.stdout).not.toContain('HANGING (older than 15 min)')
  })
})

describe('the lso text fits 80 columns whatever the clock says', () => {
  it('the age line of an open transaction on the 4.4.0 transactions fixture: the verdict goes below when it would pass 80 columns', async () => {
    for (const now of [
      Date.parse('2026-12-01T23:00:00Z'),
      Date.parse('2026-12-02T04:46:37.994Z'),
      Date.parse('2027-06-01T00:00:00Z'),
    ]) {
      const r = await runCli(['lso', path.join(FIXTURES_44, 'transactions', 'logs')], { now })
      const long = r.stdout
        .split('\n')
        .filter((l) => l.length > 80 && !l.trimStart().startsWith('kafka-transactions.sh'))
      expect(long, new Date(now).toISOString()).toEqual([])
    }
  })
})
