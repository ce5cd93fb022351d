// --transactional-id resolved from the broker model's one read of the coordinator's records (reconcile, txns,
// transactions), against what the producers themselves were told (fixtures' expected.json producerSessions: the
// producer id InitProducerId gave each transactional id), against the standalone read that dump and export still
// make (scan/transactional-id.ts resolveTransactionalId), and on a coordinator partition that holds a batch of the
// id's own producer (never Kafka's writing: then that partition is scanned again with the ids, and counts as
// --producer-id does).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { transactionStatePartitionFor } from '../../src/analysis/coordinator.js'
import { reconcile } from '../../src/commands/reconcile.js'
import { transactions } from '../../src/commands/transactions.js'
import { txns } from '../../src/commands/txns.js'
import { resolveTransactionalId } from '../../src/scan/transactional-id.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const TXNS44 = path.join(FIXTURES_44, 'transactions')
const ORDERS = path.join(FIXTURES, 'orders', 'logs')

interface Session {
  transactionalId: string
  producerId: number
}

const sessions = (
  JSON.parse(fs.readFileSync(path.join(TXNS44, 'expected.json'), 'utf8')) as { producerSessions: Session[] }
).producerSessions

describe('--transactional-id from the model of the broker', () => {
  it('gives each id of the 4.4.0 broker the producer ids its producers were given, whole dir or one partition', (ctx) => {
    const ids = [...new Set(sessions.map((s) => s.transactionalId))]
    if (ids.length === 0) ctx.skip('expected.json lists no producer sessions')
    const logs = path.join(TXNS44, 'logs')
    for (const id of ids) {
      const expected = [...new Set(sessions.filter((s) => s.transactionalId === id).map((s) => BigInt(s.producerId)))]
      const standalone = resolveTransactionalId(id, [logs])
      expect(standalone, id).toEqual({ producerIds: expect.any(Array) })
      const ids = (standalone as { producerIds: bigint[] }).producerIds
      // every producer id a session was given is the id's; KIP-890's next/previous ids may add more
      for (const p of expected) expect(ids, id).toContain(p)
      expect(reconcile([logs], { filter: { transactionalId: id } }).filter?.producerIds, id).toEqual(ids)
      expect(reconcile([path.join(logs, 'tx-out-0')], { filter: { transactionalId: id } }).filter?.producerIds).toEqual(
        ids,
      )
    }
  })

  it('the text of reconcile, txns and transactions with the id equals their text with its producer ids', async () => {
    const logs = path.join(TXNS44, 'logs')
    for (const cmd of ['reconcile', 'txns']) {
      const byId = await runCli([cmd, '--transactional-id', 'rpw-0', logs])
      const byProducer = await runCli([cmd, '--producer-id', '1', logs])
      expect(byId.code).toBe(byProducer.code)
      // the same batches counted; the heading names the id beside its producer
      expect(byId.stdout.replace(' (transactional id rpw-0)', '')).toEqual(
        byProducer.stdout.replace(/--producer-id 1|--transactional-id rpw-0/g, ''),
      )
    }
    // transactions keeps the id's transactions: the library says the same with the id as with its producer id
    const a = transactions([logs], { filter: { transactionalId: 'rpw-0' }, now: 0 })
    const b = transactions([logs], { filter: { producerIds: [1n] }, now: 0 })
    expect(a.transactions.length).toBeGreaterThan(0)
    expect(a.transactions.map((t) => t.transactionalId)).toEqual(b.transactions.map((t) => t.transactionalId))
  })

  it('not found names the coordinator partition from the partitions present, in reconcile, txns and transactions', () => {
    const logs = path.join(TXNS44, 'logs')
    const want = `__transaction_state-${transactionStatePartitionFor('no-such-id', 3)}`
    for (const fn of [
      () => reconcile([logs], { filter: { transactionalId: 'no-such-id' } }),
      () => txns([logs], { filter: { transactionalId: 'no-such-id' } }),
      () => transactions([logs], { filter: { transactionalId: 'no-such-id' } }),
    ]) {
      let message = ''
      try {
        fn()
      } catch (e) {
        expect((e as { code?: string }).code).toBe('NOT_FOUND')
        message = (e as Error).message
      }
      expect(message).toContain('with at least 3 partitions')
      expect(message).toContain(`its coordinator is ${want}`)
    }
  })

  it("a coordinator partition holding a batch of the id's producer counts it, as --producer-id does", () => {
    // orders-11-0's first batch (position 0, size 433 in kafka-dump-log's text: producer 1, tx-rw-1's) appended to
    // a copy of __transaction_state-2's segment
    const oracle = fs.readFileSync(
      path.join(FIXTURES, 'orders/dump/orders-11-0/00000000000000000000.log.shallow.txt'),
      'utf8',
    )
    const m = /baseOffset: 0 .* producerId: 1 .* position: 0 .* size: (\d+) /.exec(oracle)
    expect(m, "kafka-dump-log's text names the first batch").not.toBeNull()
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-txid-'))
    try {
      const logs = path.join(tmp, 'logs')
      fs.cpSync(ORDERS, logs, { recursive: true })
      const batch = fs
        .readFileSync(path.join(ORDERS, 'orders-11-0/00000000000000000000.log'))
        .subarray(0, Number(m![1]))
      fs.appendFileSync(path.join(logs, '__transaction_state-2/00000000000000000000.log'), batch)
      const byId = reconcile([logs], { filter: { transactionalId: 'tx-rw-1' } })
      expect(byId.filter?.producerIds).toEqual([1n])
      const byProducer = reconcile([logs], { filter: { producerIds: [1n] } })
      const state = (r: typeof byId) => r.partitions.find((p) => p.label === '__transaction_state-2')
      expect(state(byId)?.range?.batches).toBe(1)
      expect(state(byId)).toEqual(state(byProducer))
      expect(byId.partitions).toEqual(byProducer.partitions)
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})
