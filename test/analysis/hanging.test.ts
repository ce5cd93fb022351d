// find-hanging's rules (TransactionsCommand.FindHangingTransactionsCommand) as pure functions.
import { describe, expect, it } from 'vitest'
import { hangingFindings, judgeOpenTransaction } from '../../src/analysis/hanging.js'
import type { OpenTransaction } from '../support/reconcile-partition.js'
import type { TransactionalIdState } from '../../src/analysis/transactional-id-state.js'

const MIN = 60_000
const open: OpenTransaction = {
  producerId: 7n,
  producerEpoch: 2,
  firstOffset: 100n,
  lastDataOffset: 104n,
  records: 5,
  marker: null,
  outcome: 'open',
  firstTimestamp: 1_000n,
  lastTimestamp: 2_000n,
  coordinatorEpoch: null,
  state: 'open',
  seeded: false,
}
const state = (over: Partial<TransactionalIdState>): TransactionalIdState => ({
  transactionalId: 'tx-7',
  offset: 9n,
  deleted: false,
  producerId: 7n,
  producerEpoch: 2,
  state: 'Ongoing',
  transactionTimeoutMs: 60_000,
  partitions: ['orders-3'],
  lastUpdateTimestamp: 2_000n,
  startTimestamp: 1_000n,
  ...over,
})

describe('hanging transactions', () => {
  it('open and older than the timeout, measured from its last timestamp: hanging', () => {
    expect(judgeOpenTransaction(open, 'orders-3', 2_000 + 15 * MIN + 1, 15 * MIN, [])).toMatchObject({
      candidate: true,
      hanging: true,
      durationMs: 15n * 60_000n + 1n,
    })
    expect(judgeOpenTransaction(open, 'orders-3', 2_000 + 15 * MIN, 15 * MIN, []).hanging).toBe(false)
  })
  it('the coordinator still lists the partition in the transaction: not hanging (it writes the marker itself)', () => {
    const v = judgeOpenTransaction(open, 'orders-3', 2_000 + 60 * MIN, 15 * MIN, [state({})])
    expect(v).toMatchObject({ candidate: true, hanging: false })
    expect(v.coordinatorOwner?.transactionalId).toBe('tx-7')
  })
  it('a coordinator record for another partition or producer, a completed state or a tombstone does not exempt it', () => {
    for (const s of [
      state({ partitions: ['orders-4'] }),
      state({ producerId: 8n }),
      state({ state: 'CompleteAbort', partitions: [] }),
      state({ deleted: true }),
    ]) {
      expect(judgeOpenTransaction(open, 'orders-3', 2_000 + 60 * MIN, 15 * MIN, [s]).hanging).toBe(true)
    }
  })
  it('a transaction whose marker waits for the high watermark is never a candidate', () => {
    expect(
      judgeOpenTransaction({ ...open, state: 'awaiting-high-watermark' }, 'orders-3', 2_000 + 60 * MIN, 15 * MIN, [])
        .candidate,
    ).toBe(false)
  })

  it("age from the coordinator when it lists the partition: a backfill's old event times do not make it hanging", () => {
    // records stamped 2 h before the coordinator started the transaction (Flink, Streams replaying input)
    const backfill = { ...open, lastTimestamp: 1_000n }
    const now = 1_000 + 120 * MIN + 5_000
    const s = state({ startTimestamp: BigInt(now - 5_000), transactionTimeoutMs: 60_000 })
    const v = judgeOpenTransaction(backfill, 'orders-3', now, 15 * MIN, [s])
    expect(v).toMatchObject({
      ageSource: 'coordinator',
      ageMs: 5_000n,
      candidate: false,
      hanging: false,
      overdue: false,
    })
    // the same without the coordinator's record: event time, and find-hanging calls it hanging
    expect(judgeOpenTransaction(backfill, 'orders-3', now, 15 * MIN, [])).toMatchObject({
      ageSource: 'eventTime',
      ageMs: 120n * 60_000n + 5_000n,
      hanging: true,
    })
  })
  it("overdue: the coordinator's abort deadline (start + transactionTimeoutMs) passed more than the timeout ago", () => {
    const s = state({ startTimestamp: 1_000n, transactionTimeoutMs: 60_000 })
    const deadline = 1_000 + 60_000
    expect(judgeOpenTransaction(open, 'orders-3', deadline + 15 * MIN, 15 * MIN, [s])).toMatchObject({
      overdue: false,
      hanging: false,
    })
    const v = judgeOpenTransaction(open, 'orders-3', deadline + 15 * MIN + 1, 15 * MIN, [s])
    expect(v).toMatchObject({ overdue: true, hanging: false, coordinatorAbortsAtMs: BigInt(deadline) })
    expect(
      hangingFindings(open, v, 'orders-3', deadline + 15 * MIN + 1, 15 * MIN).map((f) => [f.code, f.severity]),
    ).toEqual([['TXN_COORDINATOR_OVERDUE', 'warning']])
    // a Prepare* state is not an abort deadline; a two-phase-commit id has none
    expect(
      judgeOpenTransaction(open, 'orders-3', deadline + 60 * MIN, 15 * MIN, [
        state({ state: 'PrepareCommit', startTimestamp: 1_000n }),
      ]).overdue,
    ).toBe(false)
    expect(
      judgeOpenTransaction(open, 'orders-3', deadline + 60 * MIN, 15 * MIN, [
        state({ twoPhaseCommit: true, transactionTimeoutMs: 2147483647 }),
      ]),
    ).toMatchObject({ overdue: false, hanging: false, twoPhaseCommit: true })
  })
  it('a transaction that is not plainly open (its marker waits for the HW, or damage made it unknown) is never judged', () => {
    const s = state({ startTimestamp: 1_000n, transactionTimeoutMs: 60_000 })
    for (const st of ['awaiting-high-watermark', 'unknown']) {
      const v = judgeOpenTransaction({ ...open, state: st }, 'orders-3', 10_000 * MIN, 15 * MIN, [s])
      expect(v).toMatchObject({ candidate: false, overdue: false, hanging: false })
      expect(judgeOpenTransaction({ ...open, state: st }, 'orders-3', 10_000 * MIN, 15 * MIN, []).hanging).toBe(false)
    }
  })
})
