// analysis/transaction-join/flink-ids.ts on small hand-built histories: each cause is given only when the files
// support it, and never one they contradict (the real fixtures are test/fixtures/flink-sink.test.ts).
import { describe, expect, it } from 'vitest'
import type { FlinkTxnInput } from '../../src/analysis/transaction-join/flink-ids.js'
import { flinkSinks } from '../../src/analysis/transaction-join/flink-ids.js'

let clock = 1_000_000n
/** a transaction of `id` that began at the next tick, wrote `records` to p0 */
function tx(id: string, outcome: string, records = 2, abortedByTimeoutAt?: bigint): FlinkTxnInput {
  clock += 1000n
  return {
    transactionalId: id,
    producerId: 1n,
    producerEpoch: 0,
    outcome,
    runs:
      records === 0
        ? []
        : [{ topic: 'out', partition: 0, firstOffset: clock, lastDataOffset: clock + BigInt(records - 1), records }],
    abortCause:
      abortedByTimeoutAt === undefined
        ? null
        : {
            by: 'coordinator-timeout',
            startedAt: clock,
            deadline: clock + 10n,
            preparedAt: abortedByTimeoutAt,
            transactionTimeoutMs: 10,
          },
    firstTimestamp: clock,
    episode: { states: [{ timestamp: clock }] },
  }
}
const states = (ids: string[]) =>
  ids.map((id) => ({ transactionalId: id, producerEpoch: 0, state: 'Empty', transactionTimeoutMs: 10 }))

describe('Flink KafkaSink ids', () => {
  it('INCREMENTING, an open id of a subtask that never wrote again while others went on: a removed subtask', () => {
    const txs = [
      tx('j-0-1', 'committed'),
      tx('j-1-1', 'committed'),
      tx('j-2-1', 'committed'),
      tx('j-2-2', 'open'),
      tx('j-0-2', 'committed'),
      tx('j-1-2', 'committed'),
      tx('j-0-3', 'committed'),
      tx('j-1-3', 'committed'),
    ]
    const [s] = flinkSinks(txs, [])
    expect(s!.naming).toBe('INCREMENTING')
    expect(s!.lingering).toMatchObject([{ transactionalId: 'j-2-2', cause: 'removed-subtask' }])
    expect(s!.phases.map((p) => p.subtasks)).toEqual([
      [0, 1, 2],
      [0, 1],
    ])
  })

  it('INCREMENTING, an open id whose own subtask wrote later: not a removed subtask', () => {
    const txs = [
      tx('j-0-1', 'committed'),
      tx('j-1-1', 'committed'),
      tx('j-1-2', 'open'),
      tx('j-0-2', 'committed'),
      tx('j-1-3', 'committed'),
    ]
    const [s] = flinkSinks(txs, [])
    expect(s!.lingering).toMatchObject([{ transactionalId: 'j-1-2', cause: 'unknown' }])
  })

  it('an open id after which only another prefix wrote: a changed prefix', () => {
    const txs = [
      tx('old-0-1', 'committed'),
      tx('old-0-2', 'committed'),
      tx('old-0-3', 'open'),
      tx('new-0-4', 'committed'),
      tx('new-0-5', 'committed'),
    ]
    const sinks = flinkSinks(txs, [])
    expect(sinks.find((s) => s.prefix === 'old')!.lingering).toMatchObject([
      { transactionalId: 'old-0-3', cause: 'changed-prefix' },
    ])
  })

  it('POOLING with nothing written after the open id: no cause (the job may still run)', () => {
    const txs = [tx('p-0-0', 'committed'), tx('p-0-1', 'committed'), tx('p-0-0', 'committed'), tx('p-0-1', 'open')]
    const [s] = flinkSinks(txs, [])
    expect(s!.naming).toBe('POOLING')
    expect(s!.lingering).toMatchObject([{ cause: 'unknown' }])
  })

  it('POOLING, FLINK-40626: a reused id left open while the smaller job wrote on without its subtask', () => {
    // p-1-0 committed, reused (open), then only subtasks 0 and 2 wrote
    const txs = [
      tx('p-0-0', 'committed'),
      tx('p-1-0', 'committed'),
      tx('p-2-0', 'committed'),
      tx('p-0-0', 'committed'),
      tx('p-1-0', 'open'),
      tx('p-0-1', 'committed'),
      tx('p-2-1', 'committed'),
    ]
    const [s] = flinkSinks(txs, [])
    expect(s!.lingering).toMatchObject([{ transactionalId: 'p-1-0', cause: 'FLINK-40626' }])
    expect(s!.lingering[0]!.because).toContain('p-1-0 committed 1 time at older epochs')
  })

  it('POOLING: not FLINK-40626 when its subtask wrote on, nor when the id was never committed before', () => {
    const own = [
      tx('q-0-0', 'committed'),
      tx('q-0-0', 'committed'),
      tx('q-1-0', 'committed'),
      tx('q-1-0', 'open'),
      tx('q-1-1', 'committed'),
      tx('q-0-1', 'committed'),
    ]
    expect(flinkSinks(own, [])[0]!.lingering).toMatchObject([{ transactionalId: 'q-1-0', cause: 'unknown' }])
    const fresh = [tx('r-0-0', 'committed'), tx('r-0-0', 'committed'), tx('r-1-0', 'open'), tx('r-0-1', 'committed')]
    expect(flinkSinks(fresh, [])[0]!.lingering).toMatchObject([{ transactionalId: 'r-1-0', cause: 'unknown' }])
  })

  it('a timed-out transaction is lost only when the job wrote later counters and never its own again', () => {
    // j-*-2 pre-committed and timed out; the restored job begins at counter 3
    const lost = [
      tx('j-0-1', 'committed'),
      tx('j-1-1', 'committed'),
      tx('j-0-2', 'aborted', 3, 1_100_000n),
      tx('j-1-2', 'aborted', 2, 1_100_000n),
    ]
    clock = 1_200_000n
    const after = [tx('j-0-3', 'committed'), tx('j-0-4', 'committed')]
    const [s] = flinkSinks([...lost, ...after], states(['j-2-3', 'j-0-5']))
    expect(s!.lost.map((l) => [l.transactionalId, l.records, l.nextId])).toEqual([
      ['j-0-2', 3, 'j-0-3'],
      ['j-1-2', 2, 'j-0-3'],
    ])
    expect(s!.neverWrote).toEqual(['j-0-5', 'j-2-3'])
    // in flight instead: the restored job wrote the same counter again (j-0-2 rewritten), so it was replayed
    clock = 1_300_000n
    const [r] = flinkSinks([...lost, tx('j-0-2', 'committed'), tx('j-1-2', 'committed'), tx('j-0-3', 'committed')], [])
    expect(r!.lost).toEqual([])
  })

  it('one id of that shape alone is not a sink; Kafka Streams ids are not Flink ids', () => {
    expect(flinkSinks([tx('orders-1-2', 'committed')], [])).toEqual([])
    expect(
      flinkSinks(
        [
          tx('app-0f8fad5b-d9cb-469f-a165-70867728950e-1', 'committed'),
          tx('app-0f8fad5b-d9cb-469f-a165-70867728950e-2', 'committed'),
        ],
        [],
      ),
    ).toEqual([])
  })
})
