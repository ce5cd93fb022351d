// One partition-level transaction (analysis/partition-transaction.ts): reconcile's open transactions, lso's blocking
// transaction and cleanup's open transaction name their fields one way and agree on one transaction; what the
// broker said of it is the truth (describe-producers in fixtures/broker/open-txn/expected.json: producer 1, epoch 0,
// CurrentTransactionStartOffset 3). A marker's type is the outcome, damage makes it unknown.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { outcomeOf } from '../../src/analysis/partition-transaction.js'
import { cleanup, lso, reconcile } from '../../src/index.js'
import { FIXTURES } from '../support/paths.js'

const OPEN_TXN = path.join(FIXTURES, 'open-txn')
const NOW = Date.parse('2030-01-01T00:00:00Z')
const FIELDS = ['producerId', 'producerEpoch', 'firstOffset', 'lastDataOffset', 'records', 'marker', 'outcome'] as const
const pick = (t: object): Record<string, unknown> =>
  Object.fromEntries(FIELDS.map((k) => [k, (t as Record<string, unknown>)[k]]))

describe('one partition-level transaction across reconcile, lso and cleanup', () => {
  const producers = (
    JSON.parse(fs.readFileSync(path.join(OPEN_TXN, 'expected.json'), 'utf8')) as {
      producers: Array<{ rows: Array<Record<string, string>> }>
    }
  ).producers[0]!.rows
  const open = producers.find((r) => r.CurrentTransactionStartOffset !== 'None')!

  it("reconcile's open transaction is the one describe-producers reports, with the one naming", () => {
    const [t] = reconcile([path.join(OPEN_TXN, 'logs')]).partitions[0]!.report.openTransactions
    expect(t).toMatchObject({
      producerId: BigInt(open.ProducerId!),
      producerEpoch: Number(open.ProducerEpoch),
      firstOffset: BigInt(open.CurrentTransactionStartOffset!),
      marker: null,
      outcome: 'open',
    })
    expect(t!.lastDataOffset).not.toBeNull()
    expect(t!.lastDataOffset! >= t!.firstOffset).toBe(true)
    expect(t).not.toHaveProperty('lastOffset')
  })

  it("lso's blocking transaction and cleanup's open transaction carry the same fields and values", () => {
    const rec = reconcile([path.join(OPEN_TXN, 'logs')]).partitions[0]!.report.openTransactions[0]!
    const blocking = lso([path.join(OPEN_TXN, 'logs')], { now: NOW }).partitions[0]!.blocking!
    const held = cleanup([path.join(OPEN_TXN, 'logs')], { now: NOW }).partitions[0]!.openTransaction!
    expect(pick(blocking)).toEqual(pick(rec))
    expect(pick(held)).toEqual(pick(rec))
  })
})

describe('the outcome of a marker', () => {
  it('its type, open without one, unknown with damage whatever marker was read', () => {
    expect(outcomeOf('COMMIT', undefined)).toBe('committed')
    expect(outcomeOf('ABORT', undefined)).toBe('aborted')
    expect(outcomeOf(null, undefined)).toBe('open')
    expect(outcomeOf('COMMIT', { file: 'x.log', position: 900 })).toBe('unknown')
    expect(outcomeOf(null, { file: 'x.log', position: 900 })).toBe('unknown')
  })
})
