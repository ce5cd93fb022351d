import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'
import type { Row } from '../support/duckdb.js'
import { duckdb } from '../support/duckdb.js'

// tsdump export's Parquet read back by DuckDB, checked against what real brokers and the Java consumer said:
// expected.json's per-partition read_committed / read_uncommitted counts (kafka-console-consumer from the
// earliest offset, one run per isolation level) and the replica copies' record counts (kafka-dump-log).
interface ExpectedPartition {
  topic: string
  partition: number
  readCommittedRecords?: number
  readUncommittedRecords?: number
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-export-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

const expectedOf = (dir: string): { partitions?: ExpectedPartition[] } =>
  JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'))
const glob = (out: string, ext = 'parquet'): string =>
  `read_${ext === 'parquet' ? 'parquet' : 'json'}('${out}/**/*.${ext}', hive_partitioning = true)`

async function exported(logs: string, name: string, extra: string[] = []): Promise<string> {
  const out = path.join(tmp, name)
  const r = await runCli(['export', logs, '-o', out, ...extra])
  expect(r.code, r.stderr).toBe(0)
  return out
}

/** per topic-partition: [read_committed, read_uncommitted] rows, as DuckDB counts them */
async function counts(q: (sql: string) => Promise<Row[]>, from: string): Promise<Map<string, [number, number]>> {
  const rows = await q(
    `select topic, partition, count(*) filter (where visibleReadCommitted) rc, count(*) filter (where visibleReadUncommitted) ru from ${from} group by all`,
  )
  return new Map(rows.map((r) => [`${String(r.topic)}-${String(r.partition)}`, [Number(r.rc), Number(r.ru)]]))
}

function scenarios(root: string): string[] {
  return fs
    .readdirSync(root)
    .filter(
      (s) =>
        fs.existsSync(path.join(root, s, 'logs')) &&
        (expectedOf(path.join(root, s)).partitions ?? []).some((p) => p.readCommittedRecords !== undefined),
    )
}

describe('tsdump export read back by DuckDB', () => {
  it('orders: orders-11 has 8 read_committed and 16 read_uncommitted rows, per partition as the consumer counted', async (ctx) => {
    const q = await duckdb()
    if (q === null) {
      ctx.skip()
      return
    }
    const out = await exported(path.join(FIXTURES, 'orders/logs'), 'orders')
    const [t] = await q(
      `select count(*) filter (where visibleReadCommitted) rc, count(*) filter (where visibleReadUncommitted) ru from ${glob(out)} where topic = 'orders-11'`,
    )
    expect([Number(t!.rc), Number(t!.ru)]).toEqual([8, 16])
    const c = await counts(q, glob(out))
    for (const p of expectedOf(path.join(FIXTURES, 'orders')).partitions!) {
      expect(c.get(`${p.topic}-${p.partition}`), `${p.topic}-${p.partition}`).toEqual([
        p.readCommittedRecords,
        p.readUncommittedRecords,
      ])
    }
    // the coordinator's records are among the paths: every transactional row names its id
    const ids = await q(
      `select distinct transactionalId from ${glob(out)} where topic = 'orders-11' and isTransactional`,
    )
    expect(ids.map((r) => r.transactionalId)).toEqual(['tx-rw-1'])
    const markers = await q(
      `select "offset" o, controlType, transactionOutcome from ${glob(out)} where topic = 'orders-11' and partition = 0 and isControl order by 1`,
    )
    expect(markers).toEqual([
      { o: 6n, controlType: 'COMMIT', transactionOutcome: 'committed' },
      { o: 15n, controlType: 'ABORT', transactionOutcome: 'aborted' },
    ])
  })

  for (const [root, label] of [
    [FIXTURES, '3.9.1'],
    [FIXTURES_44, '4.4.0'],
  ] as const) {
    for (const s of scenarios(root)) {
      it(`${label} ${s}: every partition's visible rows are the Java consumer's counts`, async (ctx) => {
        const q = await duckdb()
        if (q === null) {
          ctx.skip()
          return
        }
        const out = await exported(path.join(root, s, 'logs'), `${label}-${s}`)
        const c = await counts(q, glob(out))
        const expected = expectedOf(path.join(root, s)).partitions!.filter((p) => p.readCommittedRecords !== undefined)
        expect(expected.length).toBeGreaterThan(0)
        for (const p of expected) {
          // a partition the consumer read nothing from may have no rows at all (an empty log gives no file)
          expect(c.get(`${p.topic}-${p.partition}`) ?? [0, 0], `${p.topic}-${p.partition}`).toEqual([
            p.readCommittedRecords,
            p.readUncommittedRecords,
          ])
        }
      })
    }
  }

  it('NDJSON gives DuckDB the same rows as Parquet (4.4.0 transactions)', async (ctx) => {
    const q = await duckdb()
    if (q === null) {
      ctx.skip()
      return
    }
    const logs = path.join(FIXTURES_44, 'transactions/logs')
    const pq = await exported(logs, 'tx-parquet')
    const nd = await exported(logs, 'tx-ndjson', ['--format', 'ndjson'])
    const a = await q(
      `select topic, partition, "offset", isControl, transactionOutcome, visibleReadCommitted, transactionalId, key as k from ${glob(pq)} order by all`,
    )
    const b = await q(
      `select topic, partition, "offset", isControl, transactionOutcome, visibleReadCommitted, transactionalId, from_base64(key) as k from ${glob(nd, 'ndjson')} order by all`,
    )
    expect(b.length).toBeGreaterThan(100)
    expect(b).toEqual(a)
  })

  it('a fleet: two brokers exported apart, queried together, each copy with the records kafka-dump-log counted', async (ctx) => {
    const q = await duckdb()
    if (q === null) {
      ctx.skip()
      return
    }
    const root = path.join(FIXTURES_44, 'replicas-clean')
    for (const b of ['1', '2']) await exported(path.join(root, `broker-${b}`), `fleet/broker=${b}`)
    const rows = await q(
      `select broker, topic, partition, count(*) n from ${glob(path.join(tmp, 'fleet'))} group by all`,
    )
    const got = new Map(rows.map((r) => [`${String(r.broker)}/${String(r.topic)}-${String(r.partition)}`, Number(r.n)]))
    const expected = JSON.parse(fs.readFileSync(path.join(root, 'expected.json'), 'utf8')) as {
      replicaPartitions: Array<{
        topic: string
        partition: number
        copies: Array<{ broker: number; batches?: { records: number } }>
      }>
    }
    let checked = 0
    for (const p of expected.replicaPartitions) {
      for (const c of p.copies) {
        // the generator's batch counts of __transaction_state copies are 0 whatever the log holds: user topics only
        if (c.broker > 2 || c.batches === undefined || p.topic.startsWith('__')) continue
        expect(
          got.get(`${c.broker}/${p.topic}-${p.partition}`) ?? 0,
          `broker ${c.broker} ${p.topic}-${p.partition}`,
        ).toBe(c.batches.records)
        checked++
      }
    }
    expect(checked).toBeGreaterThan(4)
    // the replicas agree: no row of one broker's copy is missing from the other's
    const [d] =
      await q(`select count(*) n from (select topic, partition, "offset", value from ${glob(path.join(tmp, 'fleet'))} where broker = 1 and topic not like '\\_\\_%' escape '\\'
      except select topic, partition, "offset", value from ${glob(path.join(tmp, 'fleet'))} where broker = 2)`)
    expect(Number(d!.n)).toBe(0)
  })
})
