// The filters on the Kafka 4.4.0 broker fixture (fixtures/broker-4.4/txn, tv2-0: 3 segments, records whose
// timestamps differ inside a batch), against kafka-dump-log 4.4.0's own full output stored beside it.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'
import { entryLines, oracleBatches } from './oracle.js'

const TXN = path.join(REPO_ROOT, 'fixtures/broker-4.4/txn')
const ORACLE = oracleBatches(path.join(TXN, 'dump/tv2-0'))
const dump = async (...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  runCli(['--compat', ...args, 'tv2-0'], { cwd: path.join(TXN, 'logs') })

describe('kafka-dump-log 4.4.0 text, filtered', () => {
  it('offset ranges across the three segments, shallow and deep', async () => {
    for (const [s, e] of [
      [1n, 4n],
      [18n, 22n],
      [20n, 20n],
      [23n, 24n],
      [0n, 100n],
    ] as Array<[bigint, bigint]>) {
      const inRange = ORACLE.filter((b) => b.lastOffset >= s && b.baseOffset <= e)
      expect(inRange.length).toBeGreaterThan(0)
      expect(entryLines((await dump('--start-offset', String(s), '--end-offset', String(e))).stdout)).toEqual(
        inRange.map((b) => b.line),
      )
      const deep = await dump('--deep-iteration', '--start-offset', String(s), '--end-offset', String(e))
      expect(deep.code).toBe(0)
      expect(entryLines(deep.stdout)).toEqual(
        inRange.flatMap((b) => [b.line, ...b.records.filter((r) => r.offset >= s && r.offset <= e).map((r) => r.line)]),
      )
    }
  })

  it('a time range that starts and ends inside batches: the batches whole, in deep mode the records from the first at or after the start to the last not after the end', async () => {
    // a batch whose records carry different timestamps, and a later one
    const first = ORACLE.find((b) => b.records.length > 1 && b.records[1]!.timestamp > b.records[0]!.timestamp)!
    const i = ORACLE.indexOf(first)
    const from = first.records[1]!.timestamp
    const later = ORACLE.slice(i + 1).find(
      (b) =>
        b.records.length > 1 && b.records[1]!.timestamp > b.records[0]!.timestamp && b.records[0]!.timestamp > from,
    )!
    const to = later.records[0]!.timestamp
    // the rule, applied to kafka-dump-log's lines
    const start = ORACLE.findIndex((b) => b.maxTimestamp >= from)
    const stop = ORACLE.findIndex((b, k) => k >= start && b.maxTimestamp > to)
    const keep = ORACLE.slice(start, ORACLE[stop]!.records[0]!.timestamp <= to ? stop + 1 : stop)
    expect(keep[0]).toBe(first)
    expect(keep[keep.length - 1]).toBe(later)
    const s = await dump('--from-time', new Date(Number(from)).toISOString(), '--to-time', String(to))
    expect(s.code).toBe(0)
    expect(entryLines(s.stdout)).toEqual(keep.map((b) => b.line))
    const want: string[] = []
    keep.forEach((b, k) => {
      want.push(b.line)
      let started = k !== 0
      for (const r of b.records) {
        if (!started && r.timestamp < from) continue
        started = true
        if (k === keep.length - 1 && r.timestamp > to) break
        want.push(r.line)
      }
    })
    const d = await dump('--deep-iteration', '--from-time', String(from), '--to-time', String(to))
    expect(entryLines(d.stdout)).toEqual(want)
    expect(want.filter((l) => l.startsWith('|')).length).toBeLessThan(keep.reduce((n, b) => n + b.records.length, 0))
  })

  it('--transactional-id tv2-fenced: the producer kafka-transactions.sh describe names, only in the partition it wrote to', async () => {
    const r = await dump('--transactional-id', 'tv2-fenced')
    // tv2-fenced wrote to tv2-1 only (fixtures/README.md): nothing of it in tv2-0, and that is an answer, not an error
    expect(r.code).toBe(0)
    expect(entryLines(r.stdout)).toEqual([])
    const exp = JSON.parse(fs.readFileSync(path.join(TXN, 'expected.json'), 'utf8')) as {
      transactions: Array<{ rows: Array<{ TransactionalId: string; ProducerId: string }> }>
    }
    const pid = BigInt(
      exp.transactions.flatMap((t) => t.rows).find((x) => x.TransactionalId === 'tv2-fenced')!.ProducerId,
    )
    const p1 = oracleBatches(path.join(TXN, 'dump/tv2-1'), 'shallow').filter((b) => b.producerId === pid)
    const one = await runCli(['--compat', '--transactional-id', 'tv2-fenced', 'tv2-1'], { cwd: path.join(TXN, 'logs') })
    expect(p1.length).toBeGreaterThan(0)
    expect(entryLines(one.stdout)).toEqual(p1.map((b) => b.line))
  })
})
