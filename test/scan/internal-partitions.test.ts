// Which __transaction_state partitions a command reads (scan/internal-partitions.ts): those given and those in the
// same log dir as a partition given. A partition directory given alone then gets the same verdict from lso, report
// and doctor. Truth: the 4.4.0 broker's describeTransactions (expected.json): open-0 is Ongoing on tx-out-1 and the
// coordinator aborts it at transactionStartTimeMs + transactionTimeoutMs.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { doctor } from '../../src/commands/doctor.js'
import { lso } from '../../src/commands/lso.js'
import { buildReportModel } from '../../src/commands/report.js'
import { discover } from '../../src/io/discover.js'
import { BrokerModel } from '../../src/scan/broker-model.js'
import { internalPartitionsFor } from '../../src/scan/internal-partitions.js'
import { FIXTURES_44 } from '../support/paths.js'

interface Described {
  transactionalId: string
  state: string
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
const MIN = 60_000
const alone = path.join(dir, 'logs', 'tx-out-1')

/** each command's verdict on tx-out-1's blocking transaction: hanging, overdue (TXN_COORDINATOR_OVERDUE) or open */
function verdicts(paths: string[], now: number): { lso: string; report: string; doctor: string } {
  const l = lso(paths, { now }).partitions.find((p) => p.label === 'tx-out-1')!
  const lsoV =
    l.blocking === null
      ? 'none'
      : l.blocking.hanging
        ? 'hanging'
        : l.findings.some((f) => f.code === 'TXN_COORDINATOR_OVERDUE')
          ? 'overdue'
          : 'open'
  const r = buildReportModel({ paths, output: '-', now }).partitions.find((p) => p.label === 'tx-out-1')!
  const reportV =
    r.blocking === null
      ? 'none'
      : r.blocking.hanging
        ? 'hanging'
        : r.findings.some((f) => f.code === 'TXN_COORDINATOR_OVERDUE')
          ? 'overdue'
          : 'open'
  const d = doctor(paths, { now })
    .findings.filter((f) => f.location.partition === 'tx-out-1')
    .map((f) => f.code)
  const doctorV = d.includes('TXN_HANGING') ? 'hanging' : d.includes('TXN_COORDINATOR_OVERDUE') ? 'overdue' : 'open'
  return { lso: lsoV, report: reportV, doctor: doctorV }
}

describe('internal-topic partitions: given, or in the same log dir', () => {
  it('the fixture holds what the test needs', () => {
    expect(open.state).toBe('Ongoing')
    expect(open.topicPartitions).toContainEqual({ topic: 'tx-out', partition: 1 })
  })

  it("a partition given alone: its log dir's __transaction_state partitions, read by the model once", () => {
    const given = discover([alone]).partitions
    const found = internalPartitionsFor('__transaction_state', given)
      .dirs.map((d) => path.basename(d.path))
      .sort()
    // the directories the broker left beside it (independent of tsdump: a listing)
    const beside = fs
      .readdirSync(path.join(dir, 'logs'))
      .filter((n) => /^__transaction_state-\d+$/.test(n))
      .sort()
    expect(beside.length).toBeGreaterThan(0)
    expect(found).toEqual(beside)
    const model = new BrokerModel([alone])
    model.scan()
    const first = model.transactionState()
    expect(model.transactionState()).toBe(first)
    expect(first.states.find((s) => s.transactionalId === 'open-0')).toMatchObject({
      state: 'Ongoing',
      partitions: expect.arrayContaining(['tx-out-1']),
    })
  })

  it('lso, report and doctor give tx-out-1 alone the same verdict, that of the whole log dir', () => {
    for (const [now, verdict] of [
      [abortsAt - 2 * MIN, 'open'],
      [abortsAt + 20 * MIN, 'overdue'],
    ] as const) {
      expect(verdicts([alone], now), new Date(now).toISOString()).toEqual({
        lso: verdict,
        report: verdict,
        doctor: verdict,
      })
      expect(verdicts([path.join(dir, 'logs')], now), new Date(now).toISOString()).toEqual({
        lso: verdict,
        report: verdict,
        doctor: verdict,
      })
    }
  })

  it('copied into a log dir of its own (no coordinator beside it), past the timeout it is hanging in all three', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-alone-'))
    try {
      fs.cpSync(alone, path.join(root, 'tx-out-1'), { recursive: true })
      expect(verdicts([path.join(root, 'tx-out-1')], abortsAt + 20 * MIN)).toEqual({
        lso: 'hanging',
        report: 'hanging',
        doctor: 'hanging',
      })
    } finally {
      fs.rmSync(root, { recursive: true, force: true })
    }
  })
})
