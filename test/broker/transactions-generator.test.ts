// The seeded random mode of the `transactions` workload (scripts/java/src/tsdump/gen/TxRandom.java, issue #21) on a
// live broker of release $KAFKA_VERSION (CI: 3.9.1 and 4.4.0): the generator runs, its transaction log is well formed,
// it ran the transaction version the broker offers (4.4.0: 2; 3.9.1: 1), and it agrees with what the broker says
// through the Admin API (describeTransactions, listTransactions, listConsumerGroupOffsets, describeProducers;
// checkLogAgainstBroker in scripts/fixtures/transactions-lib.mjs). This proves the truth that `tsdump transactions
// --json` will be compared with; it does not run tsdump.
//
// Seed: drawn at run time and printed; TSDUMP_TXGEN_SEED=<n> replays a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-ignore -- untyped .mjs helpers shared with the fixture generator
import * as L from '../../scripts/fixtures/lib.mjs'
// @ts-ignore -- untyped .mjs: the Java generator (scripts/java), built on first use
import { checkLogAgainstBroker, logTransactionVersion, observeTransactions, transactionsRandom } from '../../scripts/fixtures/transactions-lib.mjs'

const seed = process.env.TSDUMP_TXGEN_SEED ? Number(process.env.TSDUMP_TXGEN_SEED) : Math.floor(Math.random() * 2 ** 31)
const RELEASE: string = L.KAFKA_VERSION
console.log(`[txgen] Kafka ${RELEASE}, seed ${seed} (replay with KAFKA_VERSION=${RELEASE} TSDUMP_TXGEN_SEED=${seed})`)

interface LoggedTx {
  transactionalId: string, producerId: number, producerEpoch: number, transactionVersion: number, outcome: string,
  partitions: Array<{ topic: string, partition: number, records: number, firstOffset: number, lastOffset: number }>,
  offsetsSent: Array<{ group: string }>, startedAt: number, endedAt: number | null
}

let broker: any
let log: { description: string[], transactions: LoggedTx[], producerSessions: unknown[] }
let obs: any

beforeAll(async () => {
  // a coordinator timeout abort (rnd-timeout, 2 s) is noticed within 0.5 s instead of 10 s
  broker = await L.startBroker({ name: 'txgen', props: { 'transaction.abort.timed.out.transaction.cleanup.interval.ms': 500 } })
  const t0 = Date.now()
  log = await transactionsRandom(broker.bootstrap, seed)
  console.log(`[txgen] workload ${Date.now() - t0} ms: ${log.description.join(' ')}; ${log.transactions.length} transactions`)
  obs = await observeTransactions(broker.bootstrap, ['rnd-a', 'rnd-b'])
})

afterAll(async () => {
  if (broker) {
    await broker.stop().catch(() => {})
    L.removeBrokerDir(broker)
  }
})

describe(`transactions generator, random mode, Kafka ${RELEASE} (seed ${seed})`, () => {
  it('logs several ids, commits, aborts, offsets and one open transaction, each with its partitions and outcome', () => {
    const ids = new Set(log.transactions.map((t) => t.transactionalId))
    expect(ids.size).toBeGreaterThanOrEqual(2)
    expect(log.transactions.some((t) => t.outcome === 'committed')).toBe(true)
    expect(log.transactions.some((t) => t.outcome === 'aborted')).toBe(true)
    expect(log.transactions.some((t) => t.offsetsSent.length > 0)).toBe(true)
    expect(log.transactions.filter((t) => t.outcome === 'open').map((t) => t.transactionalId)).toEqual(['rnd-open'])
    for (const t of log.transactions) {
      expect(['committed', 'aborted', 'open', 'fenced', 'timed-out']).toContain(t.outcome)
      // every logged transaction reached the broker: records or offsets
      expect(t.partitions.length + t.offsetsSent.length, t.transactionalId).toBeGreaterThan(0)
      for (const p of t.partitions) expect(p.lastOffset - p.firstOffset + 1, `${t.transactionalId} ${p.topic}-${p.partition}`).toBeGreaterThanOrEqual(p.records)
      if (t.outcome !== 'open') expect(t.endedAt).toBeGreaterThanOrEqual(t.startedAt)
    }
  })

  it(`ran the transaction version Kafka ${RELEASE} offers (describeFeatures)`, () => {
    const finalized = obs.features.finalized['transaction.version']?.maxVersionLevel ?? 0
    expect(logTransactionVersion(log)).toBe(finalized >= 2 ? 2 : 1)
    expect(finalized >= 2).toBe(!RELEASE.startsWith('3.'))
  })

  it('agrees with describeTransactions, listTransactions, listConsumerGroupOffsets and describeProducers', () => {
    expect(checkLogAgainstBroker(log, obs)).toEqual([])
  })
})
