// The seeded random mode of the `transactions` workload (scripts/java/src/tsdump/gen/TxRandom.java, issue #21) on a
// live broker of release $KAFKA_VERSION (CI: 3.9.1 and 4.4.0): the generator runs, its transaction log is well formed,
// it ran the transaction version the broker offers (4.4.0: 2; 3.9.1: 1), and it agrees with what the broker says
// through the Admin API (describeTransactions, listTransactions, listConsumerGroupOffsets, describeProducers;
// checkLogAgainstBroker in scripts/fixtures/transactions-lib.mjs). Then, the broker stopped, `tsdump transactions`
// on its log directory must list every transaction of that log (partitions, records, offsets sent, outcome), and
// its coordinator's newest state of every id must equal describeTransactions.
//
// Seed: drawn at run time and printed; TSDUMP_TXGEN_SEED=<n> replays a run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transactions } from '../../src/commands/transactions.js'
import type { JoinedTransaction, TransactionsResult } from '../../src/analysis/transaction-join/types.js'
// @ts-ignore -- untyped .mjs helpers shared with the fixture generator
import * as L from '../../scripts/fixtures/lib.mjs'
// @ts-ignore -- untyped .mjs: the Java generator (scripts/java), built on first use
import {
  checkLogAgainstBroker,
  logTransactionVersion,
  observeTransactions,
  transactionsRandom,
} from '../../scripts/fixtures/transactions-lib.mjs'

const seed = process.env.TSDUMP_TXGEN_SEED ? Number(process.env.TSDUMP_TXGEN_SEED) : Math.floor(Math.random() * 2 ** 31)
const RELEASE: string = L.KAFKA_VERSION
console.log(`[txgen] Kafka ${RELEASE}, seed ${seed} (replay with KAFKA_VERSION=${RELEASE} TSDUMP_TXGEN_SEED=${seed})`)

interface LoggedTx {
  transactionalId: string
  producerId: number
  producerEpoch: number
  transactionVersion: number
  outcome: string
  partitions: Array<{ topic: string; partition: number; records: number; firstOffset: number; lastOffset: number }>
  offsetsSent: Array<{ group: string; topic: string; partition: number; offset: number; metadata: string }>
  startedAt: number
  endedAt: number | null
}

let broker: any
let log: { description: string[]; transactions: LoggedTx[]; producerSessions: unknown[] }
let obs: any
let tsdump: TransactionsResult

beforeAll(async () => {
  // a coordinator timeout abort (rnd-timeout, 2 s) is noticed within 0.5 s instead of 10 s
  broker = await L.startBroker({
    name: 'txgen',
    props: { 'transaction.abort.timed.out.transaction.cleanup.interval.ms': 500 },
  })
  const t0 = Date.now()
  log = await transactionsRandom(broker.bootstrap, seed)
  console.log(
    `[txgen] workload ${Date.now() - t0} ms: ${log.description.join(' ')}; ${log.transactions.length} transactions`,
  )
  obs = await observeTransactions(broker.bootstrap, ['rnd-a', 'rnd-b'])
  // a clean shutdown: the files as the broker leaves them
  await broker.stop()
  const r = transactions([broker.logDir])
  if (r.unusable.length > 0)
    throw new Error(`tsdump could not read ${broker.logDir}: ${r.unusable.map((f) => f.message).join('; ')}`)
  tsdump = r
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
      for (const p of t.partitions)
        expect(
          p.lastOffset - p.firstOffset + 1,
          `${t.transactionalId} ${p.topic}-${p.partition}`,
        ).toBeGreaterThanOrEqual(p.records)
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

  // the generator's words for how a transaction ended -> what its markers say (a fence or a timeout is the coordinator's abort)
  const OUTCOME: Record<string, string> = {
    committed: 'committed',
    aborted: 'aborted',
    fenced: 'aborted',
    'timed-out': 'aborted',
    open: 'open',
  }
  const byTp = <T extends { topic: string; partition: number }>(a: T, b: T): number =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition
  const dataOf = (t: JoinedTransaction) => t.runs.filter((p) => p.topic !== '__consumer_offsets')
  const find = (g: LoggedTx): JoinedTransaction[] => {
    const p0 = g.partitions[0]
    const sent = (os: ReadonlyArray<{ group: string; topic: string; partition: number; offset: unknown }>): string =>
      os
        .map((o) => `${o.group}/${o.topic}-${o.partition}@${String(o.offset)}`)
        .sort()
        .join(' ')
    return tsdump.transactions.filter(
      (t) =>
        t.transactionalId === g.transactionalId &&
        t.producerId === BigInt(g.producerId) &&
        // a transaction that only sent offsets: told by its offsets (and, with TV2, its epoch)
        (p0 === undefined
          ? dataOf(t).length === 0 &&
            sent(t.offsetCommits) === sent(g.offsetsSent) &&
            (g.transactionVersion !== 2 || t.producerEpoch === g.producerEpoch)
          : dataOf(t).some(
              (p) => p.topic === p0.topic && p.partition === p0.partition && p.firstOffset === BigInt(p0.firstOffset),
            )),
    )
  }

  it('tsdump transactions lists every logged transaction once, with its partitions, records, offsets and outcome', () => {
    const problems: string[] = []
    for (const g of log.transactions) {
      const found = find(g)
      if (found.length !== 1) {
        problems.push(`${g.transactionalId} epoch ${g.producerEpoch}: ${found.length} matches`)
        continue
      }
      const t = found[0]!
      const got = {
        outcome: t.outcome,
        version: t.transactionVersion,
        partitions: dataOf(t).map((p) => ({
          topic: p.topic,
          partition: p.partition,
          records: p.records,
          firstOffset: Number(p.firstOffset),
          lastOffset: p.lastDataOffset === null ? null : Number(p.lastDataOffset),
        })),
        offsets: t.offsetCommits
          .map((c) => ({
            group: c.group,
            topic: c.topic,
            partition: c.partition,
            offset: c.offset === null ? null : Number(c.offset),
            metadata: c.metadata,
          }))
          .sort(byTp),
      }
      const want = {
        outcome: OUTCOME[g.outcome],
        version: `TV${g.transactionVersion}`,
        partitions: [...g.partitions].sort(byTp),
        offsets: g.offsetsSent
          .map((o) => ({
            group: o.group,
            topic: o.topic,
            partition: o.partition,
            offset: o.offset,
            metadata: o.metadata,
          }))
          .sort(byTp),
      }
      try {
        expect(got).toEqual(want)
      } catch {
        problems.push(
          `${g.transactionalId} epoch ${g.producerEpoch}: got ${JSON.stringify(got)}, logged ${JSON.stringify(want)}`,
        )
      }
    }
    expect(problems).toEqual([])
    // nothing more than the log: every transaction tsdump lists with data or offsets is one the generator ran
    expect(tsdump.transactions.filter((t) => t.runs.length > 0)).toHaveLength(log.transactions.length)
  })

  it('tsdump names the coordinator timeout as the cause of exactly the transactions the generator saw time out', () => {
    const problems: string[] = []
    for (const g of log.transactions) {
      const t = find(g)[0]
      if (t === undefined) continue
      const timedOut = t.abortCause?.by === 'coordinator-timeout'
      if (timedOut !== (g.outcome === 'timed-out'))
        problems.push(
          `${g.transactionalId} epoch ${g.producerEpoch} (${g.outcome}): abortedBy ${t.abortCause?.by ?? null}`,
        )
      if (timedOut !== t.findings.some((f) => f.code === 'TXN_TIMED_OUT'))
        problems.push(`${g.transactionalId} epoch ${g.producerEpoch}: TXN_TIMED_OUT and abortedBy disagree`)
    }
    expect(problems).toEqual([])
  })

  it("tsdump's newest coordinator state of every id equals describeTransactions", () => {
    const got = new Map(tsdump.transactionalIds.map((s) => [s.transactionalId, s]))
    for (const d of obs.describeTransactions as Array<{
      transactionalId: string
      state: string
      producerId: number
      producerEpoch: number
      transactionTimeoutMs: number
      topicPartitions: Array<{ topic: string; partition: number }>
    }>) {
      const s = got.get(d.transactionalId)
      expect(s, d.transactionalId).toBeDefined()
      expect(
        {
          state: s!.state,
          producerId: Number(s!.producerId),
          producerEpoch: s!.producerEpoch,
          transactionTimeoutMs: s!.transactionTimeoutMs,
          partitions: s!.partitions,
        },
        d.transactionalId,
      ).toEqual({
        state: d.state,
        producerId: d.producerId,
        producerEpoch: d.producerEpoch,
        transactionTimeoutMs: d.transactionTimeoutMs,
        partitions: d.topicPartitions.map((p) => `${p.topic}-${p.partition}`).sort(),
      })
    }
  })
})
