// `tsdump transactions --remote-storage`: a transaction whose data tiered storage moved to remote segments and
// whose COMMIT marker is local is whole again. Truth: the tiered fixture's broker (describeTransactions of tx-span:
// producer 2, CompleteCommit; the log start 5 after DeleteRecords and the first local offset 17 per partition).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const F = path.join(FIXTURES_44, 'tiered')
const expected = JSON.parse(fs.readFileSync(path.join(F, 'expected.json'), 'utf8')) as {
  tiered: {
    partitions: Array<{ topic: string; partition: number; logStartOffset: number; earliestLocalOffset: number }>
  }
  transactions: Array<{ rows: Array<Record<string, string>> }>
}
interface Run {
  topic: string
  partition: number
  firstOffset: number
  records: number
  marker: { offset: number; type: string } | null
}
interface Tx {
  producerId: number
  outcome: string
  partitions: Run[]
}

async function txOf(args: string[]): Promise<Tx> {
  const r = await runCli(['transactions', '--json', ...args, path.join(F, 'logs')])
  expect(r.code, r.stderr).toBeLessThan(2)
  const span = expected.transactions.flatMap((t) => t.rows).find((row) => row.TransactionalId === 'tx-span')!
  const tx = (JSON.parse(r.stdout) as { transactions: Tx[] }).transactions.find(
    (t) => String(t.producerId) === span.ProducerId,
  )
  expect(tx, `producer ${span.ProducerId}`).toBeDefined()
  return tx!
}

describe('transactions across remote and local segments', () => {
  it('with --remote-storage the spanning transaction is committed with its data from the log start; without, its data is missing', async () => {
    const whole = await txOf(['--remote-storage', path.join(F, 'remote', 'kafka-tiered-storage')])
    expect(whole.outcome).toBe('committed') // describeTransactions: CompleteCommit
    for (const p of expected.tiered.partitions.filter((x) => x.topic === 'tiered')) {
      const run = whole.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)!
      expect(run.firstOffset, `${p.topic}-${p.partition}`).toBe(p.logStartOffset)
      expect(run.records).toBeGreaterThan(0)
      expect(run.marker?.type).toBe('COMMIT')
      expect(run.marker!.offset).toBe(p.earliestLocalOffset) // the marker is the first local batch
    }
    const local = await txOf([])
    for (const p of expected.tiered.partitions.filter((x) => x.topic === 'tiered')) {
      const run = local.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)!
      expect(run.records, `${p.topic}-${p.partition} local only`).toBe(0)
    }
  })
})
