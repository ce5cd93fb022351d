// __transaction_state v1 tagged fields (KIP-890, KIP-939) in `txns` on a __transaction_state directory, checked against
// what Kafka 4.4.0's own kafka-dump-log --transaction-log-decoder printed for the same records; and the two-phase-commit mark.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { lastTransactionStates, TWO_PHASE_COMMIT_TIMEOUT_MS } from '../../src/analysis/transactional-id-state.js'
import type { TransactionLogValue } from '../../src/decode/topics/transaction-state.js'
import { REPO_ROOT } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const TXN = path.join(REPO_ROOT, 'fixtures/broker-4.4/txn')

describe('txns on __transaction_state: the tagged fields', () => {
  it("equal Kafka 4.4.0's kafka-dump-log for each id's newest record", async () => {
    const r = await runCli(['txns', '--json', path.join(TXN, 'logs/__transaction_state-0')])
    const ids = (JSON.parse(r.stdout) as { partitions: Array<{ transactionalIds: Array<Record<string, unknown>> }> })
      .partitions[0]!.transactionalIds
    expect(ids.length).toBeGreaterThan(0)
    const kafka = fs
      .readFileSync(path.join(TXN, 'dump/__transaction_state-0/00000000000000000000.log.txnlog.txt'), 'utf8')
      .split('\n')
    for (const id of ids) {
      const line = kafka.filter((l) => l.includes(`"transactionalId":"${id.transactionalId as string}"`)).at(-1)!
      const data = (JSON.parse(line.slice(line.indexOf(' payload: ') + 10)) as { data: Record<string, number> }).data
      expect({ id: id.transactionalId, prev: id.previousProducerId, tv: id.clientTransactionVersion }).toEqual({
        id: id.transactionalId,
        prev: data.previousProducerId ?? -1,
        tv: data.clientTransactionVersion ?? 0,
      })
      expect(id.twoPhaseCommit).toBe(false)
    }
  })

  it('transactionTimeoutMs 2147483647 marks a two-phase-commit id (KIP-939)', () => {
    const v = (timeout: number): TransactionLogValue => ({
      version: 1,
      producerId: 5n,
      previousProducerId: -1n,
      nextProducerId: -1n,
      producerEpoch: 0,
      nextProducerEpoch: -1,
      transactionTimeoutMs: timeout,
      transactionStatus: 1,
      transactionPartitions: [{ topic: 't', partitionIds: [0] }],
      transactionLastUpdateTimestampMs: 1n,
      transactionStartTimestampMs: 1n,
      clientTransactionVersion: 2,
    })
    const s = lastTransactionStates([
      { offset: 0n, transactionalId: 'xa', value: v(TWO_PHASE_COMMIT_TIMEOUT_MS) },
      { offset: 1n, transactionalId: 'plain', value: v(60000) },
    ])
    expect(s.map((x) => [x.transactionalId, x.twoPhaseCommit])).toEqual([
      ['plain', false],
      ['xa', true],
    ])
  })
})
