// tsdump against a real Kafka 4.4.0 broker written at (small) scale (issue #34's truth): the Java generator's `scale`
// workload (scripts/java/src/tsdump/gen/Scale.java: 8 read-process-write producers, 2,000 transactions over 24 output
// partitions, every 10th aborted, 2 fences, 3 left open), run by scripts/fixtures/real-scale.mjs, which records the
// broker's answers. Then, the broker stopped, the CLI (bin/tsdump.js: `npm run test:broker` builds it first):
// `transactions --json` lists every transaction of the generator's log exactly once with its partitions, records,
// offsets sent and outcome; `lso` and `reconcile` equal the broker's ListOffsets (both isolation levels); the open
// transactions are describeTransactions' Ongoing ones (scripts/fixtures/real-scale-check.mjs; the fields of
// tsdump's JSON it reads are all in its view* functions).
//
// Seed: drawn at run time and printed; TSDUMP_REALSCALE_SEED=<n> replays the workload's shape (the producers run in
// parallel, so offsets differ between runs; the log records the ones each run got).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-ignore -- untyped .mjs: the broker, the Java workload, the broker's answers
import { runRealScale } from '../../scripts/fixtures/real-scale.mjs'
// @ts-ignore -- untyped .mjs: tsdump's JSON against the log and the answers
import { checkRun } from '../../scripts/fixtures/real-scale-check.mjs'

const seed = process.env.TSDUMP_REALSCALE_SEED
  ? Number(process.env.TSDUMP_REALSCALE_SEED)
  : Math.floor(Math.random() * 2 ** 31)
// the workload is written for Kafka 4.4.0 (transaction version 2): under another KAFKA_VERSION (.ci/run's 3.9.1
// pass) it is skipped with the reason, so that it runs once per .ci/run
const RELEASE = '4.4.0'
const otherRelease = process.env.KAFKA_VERSION !== undefined && process.env.KAFKA_VERSION !== RELEASE
if (otherRelease)
  console.log(
    `[real-scale] skipped: the scenario runs on Kafka ${RELEASE}, this pass is KAFKA_VERSION=${process.env.KAFKA_VERSION}`,
  )
else console.log(`[real-scale] seed ${seed} (replay with KAFKA_VERSION=${RELEASE} TSDUMP_REALSCALE_SEED=${seed})`)

const SIZE = { transactions: 2000, producers: 8, outPartitions: 24, abortEvery: 10, fences: 2, open: 3 }

interface LoggedTx {
  transactionalId: string
  transactionVersion: number
  outcome: string
  partitions: Array<{ records: number }>
  offsetsSent: unknown[]
}
interface Offsets {
  topic: string
  highWatermark: number
  lastStableOffset: number
}
let r: {
  dir: string
  log: LoggedTx[]
  expected: { offsets: Offsets[]; describeTransactions: Array<{ state: string }> }
  dispose: () => void
}
let result: { transactions: string[]; offsets: string[]; open: string[]; counts: Record<string, number> }

beforeAll(async () => {
  if (otherRelease) return
  const t0 = Date.now()
  r = await runRealScale({ seed, ...SIZE })
  const t1 = Date.now()
  result = await checkRun(r.dir, r.log, r.expected)
  console.log(
    `[real-scale] broker + workload ${((t1 - t0) / 1000).toFixed(1)} s, tsdump transactions/lso/reconcile ` +
      `${((Date.now() - t1) / 1000).toFixed(1)} s: ${JSON.stringify(result.counts)}`,
  )
})

afterAll(() => {
  r?.dispose()
})

describe.skipIf(otherRelease)(`a real 4.4.0 broker at scale (seed ${seed})`, () => {
  it('the generator ran what it was asked: commits, every 10th aborted, fences, open ones, all TV2 with records and offsets', () => {
    const count = (o: string) => r.log.filter((t) => t.outcome === o).length
    expect(r.log).toHaveLength(SIZE.transactions + SIZE.open)
    expect(count('open')).toBe(SIZE.open)
    expect(count('fenced')).toBe(SIZE.fences)
    // (i + k) % 10 == 9 over each producer's 250 transactions: 25 each, a fence taking an abort's place now and then
    expect(count('aborted') + count('fenced')).toBeGreaterThanOrEqual(SIZE.transactions / SIZE.abortEvery)
    expect(count('committed')).toBe(SIZE.transactions - count('aborted') - count('fenced'))
    for (const t of r.log) {
      expect(t.transactionVersion, t.transactionalId).toBe(2)
      expect(t.partitions.length, t.transactionalId).toBeGreaterThan(0)
      expect(t.offsetsSent, t.transactionalId).toHaveLength(1)
    }
    // the open transactions hold the LSO of some partitions below their high watermark
    expect(r.expected.offsets.some((o) => o.lastStableOffset < o.highWatermark)).toBe(true)
    expect(r.expected.describeTransactions.filter((d) => d.state === 'Ongoing')).toHaveLength(SIZE.open)
  })

  it('transactions --json lists every transaction of the log exactly once, with its partitions, records, offsets and outcome', () => {
    expect(result.transactions).toEqual([])
    expect(result.counts.tsdump).toBe(r.log.length)
  })

  it('lso and reconcile equal the broker: ListOffsets with read_uncommitted and read_committed, describeProducers', () => {
    expect(result.offsets).toEqual([])
  })

  it("the open transactions are describeTransactions' Ongoing ones, and every id's newest state is the broker's", () => {
    expect(result.open).toEqual([])
  })
})
