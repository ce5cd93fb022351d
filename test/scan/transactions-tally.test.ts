// doctor's way through the transactions (scan/transactions-tally.ts: each bucket joined and tallied, only the
// transactions with findings put in the listed order) gives doctor what transactions' ordered stream gives it: the
// same findings in the same order (doctor keeps the first report of a fault, and its ties keep the order they came
// in), the same counts, outcomes in the same order, the same first transactions of the report. Over the real
// brokers' fixtures, bench/make-scale.mjs's synthetic log directory and a log dir with a finding per transaction,
// in memory and through temp files cut into many buckets and shares; and with more producers than the
// exactly-once check takes, the tally declines (doctor then takes the ordered stream over the same buckets), unless
// no commit was made outside a transaction (then the check has nothing to find).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DoctorCollector } from '../../src/analysis/doctor/collect.js'
import { gatherTallied, gatherTransactions } from '../../src/analysis/doctor/gather.js'
import type { DoctorTransactions } from '../../src/analysis/doctor/types.js'
import { transactionsHooks, transactionsJoinOf } from '../../src/commands/transactions.js'
import { BrokerModel } from '../../src/scan/broker-model.js'
import { streamTransactions } from '../../src/scan/transactions-stream.js'
import { tallyTransactions } from '../../src/scan/transactions-tally.js'
import { scaleLogDir } from '../../bench/make-scale.mjs'
import { transactionStateLog, transactions as writeTransactions } from '../../scripts/fuzz/builders.mjs'
import { REPO_ROOT as REPO } from '../support/paths.js'

const NOW = Date.parse('2030-01-01T00:00:00Z')
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-tally-'))
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

const collector = (): DoctorCollector =>
  new DoctorCollector(
    () => null,
    (f) => [`look ${f.code}`],
  )

/** what doctor prints of it, keys in their order */
const shown = (t: DoctorTransactions, c: DoctorCollector): string =>
  JSON.stringify(
    { t: { ...t, first: t.first.map((x) => [x.producerId, x.producerEpoch, x.outcome]) }, c: c.collected() },
    (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v),
  )

/** doctor's tally and transactions' ordered stream over one collection of `dir` (the tally keeps the buckets) */
function both(dir: string, bucketBytes: number, shareBytes: number, maxProducers?: number): [string | null, string] {
  const model = new BrokerModel([dir], {})
  const tx = transactionsHooks(model, { now: NOW }, { bucketBytes })
  const scan = model.scan(tx.collector.hooks)
  const j = transactionsJoinOf(tx, scan)
  if ('unusable' in j) throw new Error(`${dir} unusable`)
  j.collected.buckets.shareBytes = shareBytes
  try {
    const c1 = collector()
    const t = tallyTransactions(j.collected, j.input, 7, maxProducers)
    const tallied = t === null ? null : shown(gatherTallied(c1, t, [dir]), c1)
    const c2 = collector()
    const ordered = shown(gatherTransactions(c2, streamTransactions(j.collected, j.input), [dir], 7), c2)
    return [tallied, ordered]
  } finally {
    j.collected.spill?.close()
  }
}

/**
 * doctor's tally (keep none, buckets the join would find nothing in not joined) and transactions' ordered stream over
 * one collection of `dir`: their findings as doctor collects them, the count, the outcomes' counts; and how many
 * buckets were quiet, of how many
 */
function quietly(dir: string, bucketBytes: number): { tallied: string; ordered: string; quiet: number; n: number } {
  const model = new BrokerModel([dir], {})
  const tx = transactionsHooks(model, { now: NOW }, { bucketBytes, quiet: true, groupPositions: false })
  const scan = model.scan(tx.collector.hooks)
  const j = transactionsJoinOf(tx, scan)
  if ('unusable' in j) throw new Error(`${dir} unusable`)
  const q = j.collected.quiet!
  let quiet = 0
  for (let b = 0; b < q.n; b++) if (q.quiet(b)) quiet++
  const seen = (t: DoctorTransactions, c: DoctorCollector): string =>
    shown({ count: t.count, outcomes: Object.fromEntries(Object.entries(t.outcomes).sort()), first: [] }, c)
  try {
    const c1 = collector()
    const t = tallyTransactions(j.collected, j.input)
    if (t === null) throw new Error('declined')
    const tallied = seen(gatherTallied(c1, t, [dir]), c1)
    const c2 = collector()
    const ordered = seen(gatherTransactions(c2, streamTransactions(j.collected, j.input), [dir]), c2)
    return { tallied, ordered, quiet, n: q.n }
  } finally {
    j.collected.spill?.close()
  }
}

/** a log dir whose data never matches its coordinator's records (scripts/fuzz/builders.mjs): a finding per transaction */
function mismatched(name: string, bytes: number, records: number): string {
  const logs = path.join(root, name)
  for (const d of ['orders-0', '__transaction_state-0']) fs.mkdirSync(path.join(logs, d), { recursive: true })
  writeTransactions(path.join(logs, 'orders-0', '00000000000000000000.log'), bytes, false)
  transactionStateLog(path.join(logs, '__transaction_state-0', '00000000000000000000.log'), records, 40)
  return logs
}

describe("doctor's tally of the transactions = what their listed order gives it", () => {
  const logDirs = ['broker', 'broker-4.4']
    .flatMap((v) =>
      fs.readdirSync(path.join(REPO, 'fixtures', v)).map((n) => path.join(REPO, 'fixtures', v, n, 'logs')),
    )
    .filter((d) => fs.existsSync(d) && fs.statSync(d).isDirectory())
  for (const d of logDirs) {
    it(path.relative(REPO, d), () => {
      for (const [bucket, share] of [
        [0, 64 * 1024],
        [1024, 256],
      ] as const) {
        const [tallied, ordered] = both(d, bucket, share)
        expect(tallied, `buckets of ${bucket} bytes, shares of ${share}`).toBe(ordered)
      }
    })
  }

  it('the buckets the join would find nothing in, not joined: the same findings and counts, on every fixture', () => {
    for (const d of logDirs)
      for (const bucket of [0, 1024]) {
        const q = quietly(d, bucket)
        expect(q.tallied, `${path.relative(REPO, d)}, buckets of ${bucket} bytes`).toBe(q.ordered)
      }
  })

  it("a synthetic log directory of 1500 transactions: all but the 3 open ids' buckets quiet, the same findings", () => {
    const dir = path.join(root, 'scale-quiet')
    scaleLogDir(dir, { transactions: 1500, ids: 40, slices: 1, open: 3 })
    const q = quietly(dir, 32 * 1024)
    expect(q.tallied).toBe(q.ordered)
    expect(q.ordered).toContain('TXN_COORDINATOR_OVERDUE')
    expect(q.n - q.quiet).toBeGreaterThanOrEqual(1)
    expect(q.n - q.quiet).toBeLessThanOrEqual(3)
  })

  it('a finding in every transaction: only buckets that hold none of them quiet', () => {
    const q = quietly(mismatched('mismatched-quiet', 150 * 300, 3000), 8 * 1024)
    expect(q.tallied).toBe(q.ordered)
    expect(q.quiet).toBeLessThan(q.n)
  })

  it('a synthetic log directory of 1500 transactions, 50 partitions, 3 left open', () => {
    const dir = path.join(root, 'scale')
    scaleLogDir(dir, { transactions: 1500, ids: 40, slices: 1, open: 3 })
    const [tallied, ordered] = both(dir, 32 * 1024, 2048)
    expect(tallied).toBe(ordered)
    expect(ordered).toContain('TXN_COORDINATOR_OVERDUE')
  })

  it('a finding in every transaction: many findings of one code, the first 20 of them by harm kept', () => {
    const dir = mismatched('mismatched', 150 * 300, 3000)
    const [tallied, ordered] = both(dir, 8 * 1024, 1024)
    expect(tallied).toBe(ordered)
    expect(JSON.parse(ordered).c.groups.length).toBeGreaterThan(0)
  })

  it('more producers than the exactly-once check takes: the tally declines, the listed order decides', () => {
    // the generator's consumers commit outside transactions too (EOS_MIXED_COMMITS, EOS_NO_OFFSETS)
    const dir = path.join(REPO, 'fixtures', 'broker', 'transactions', 'logs')
    expect(both(dir, 4 * 1024, 1024, 1)[0]).toBeNull()
    const [tallied, ordered] = both(dir, 4 * 1024, 1024, 1000)
    expect(tallied).toBe(ordered)
    expect(ordered).toContain('EOS_MIXED_COMMITS')
  })

  it('no commit outside a transaction: more producers than the exactly-once check takes, and nothing to check', () => {
    const dir = path.join(root, 'scale-ids')
    scaleLogDir(dir, { transactions: 300, ids: 40, slices: 1, open: 3 })
    const [tallied, ordered] = both(dir, 4 * 1024, 1024, 10)
    expect(tallied).toBe(ordered)
  })
})
