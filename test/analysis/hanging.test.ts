// find-hanging's rules (TransactionsCommand.FindHangingTransactionsCommand) as pure functions.
import { describe, expect, it } from 'vitest'
import { judgeOpenTransaction } from '../../src/analysis/hanging.js'
import type { OpenTransaction } from '../support/reconcile-partition.js'
import type { TransactionalIdState } from '../../src/analysis/transactional-id-state.js'

const MIN = 60_000
const open: OpenTransaction = { producerId: 7n, producerEpoch: 2, firstOffset: 100n, lastOffset: 104n, records: 5, firstTimestamp: 1_000n,
  lastTimestamp: 2_000n, coordinatorEpoch: null, state: 'open', seeded: false }
const state = (over: Partial<TransactionalIdState>): TransactionalIdState => ({ transactionalId: 'tx-7', offset: 9n, deleted: false, producerId: 7n,
  producerEpoch: 2, state: 'Ongoing', transactionTimeoutMs: 60_000, partitions: ['orders-3'], lastUpdateTimestamp: 2_000n, startTimestamp: 1_000n, ...over })

describe('hanging transactions', () => {
  it('open and older than the timeout, measured from its last timestamp: hanging', () => {
    expect(judgeOpenTransaction(open, 'orders-3', 2_000 + 15 * MIN + 1, 15 * MIN, [])).toMatchObject({ candidate: true, hanging: true, durationMs: 15n * 60_000n + 1n })
    expect(judgeOpenTransaction(open, 'orders-3', 2_000 + 15 * MIN, 15 * MIN, []).hanging).toBe(false)
  })
  it('the coordinator still lists the partition in the transaction: not hanging (it writes the marker itself)', () => {
    const v = judgeOpenTransaction(open, 'orders-3', 2_000 + 60 * MIN, 15 * MIN, [state({})])
    expect(v).toMatchObject({ candidate: true, hanging: false })
    expect(v.coordinatorOwner?.transactionalId).toBe('tx-7')
  })
  it('a coordinator record for another partition or producer, a completed state or a tombstone does not exempt it', () => {
    for (const s of [state({ partitions: ['orders-4'] }), state({ producerId: 8n }), state({ state: 'CompleteAbort', partitions: [] }), state({ deleted: true })]) {
      expect(judgeOpenTransaction(open, 'orders-3', 2_000 + 60 * MIN, 15 * MIN, [s]).hanging).toBe(true)
    }
  })
  it('a transaction whose marker waits for the high watermark is never a candidate', () => {
    expect(judgeOpenTransaction({ ...open, state: 'awaiting-high-watermark' }, 'orders-3', 2_000 + 60 * MIN, 15 * MIN, []).candidate).toBe(false)
  })
})
