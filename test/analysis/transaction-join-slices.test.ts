// The scale check of `transactions` at unit size: bench/make-scale.mjs's log directory (50 partitions, transactions
// of 1-20 records over 1-4 partitions, coordinator records and offset commits for each, TV1 and TV2 producers, a few
// left open) read whole, against the union of the ten slices it rolls into segments (slice k: segment k of every
// partition, a valid log directory of its own in which no transaction is cut). Each transaction must come out once,
// with the same partitions, offsets, record counts, outcome and offsets carried; and both against the generator's
// own counts. The whole is read spilled to temp files (small buckets), the slices in memory: two paths, one answer.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { transactionsStream } from '../../src/commands/transactions.js'
import type { JoinedTransaction } from '../../src/analysis/transaction-join/types.js'
import { linkSlice, scaleLogDir } from '../../bench/make-scale.mjs'

const N = 2000
const SLICES = 10
const NOW = Date.parse('2030-01-01T00:00:00Z')
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-scale-'))
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

/** what a transaction is, independent of what else was read with it (committedBefore depends on earlier slices) */
function shape(t: JoinedTransaction): string {
  return JSON.stringify([
    t.transactionalId,
    String(t.producerId),
    t.producerEpoch,
    t.transactionVersion,
    t.outcome,
    t.runs.map((r) => [
      r.topic,
      r.partition,
      String(r.firstOffset),
      String(r.lastOffset),
      r.records,
      r.marker?.type ?? null,
      String(r.marker?.offset ?? ''),
    ]),
    t.offsetCommits.map((c) => [c.group, c.topic, c.partition, String(c.offset)]),
    t.episode?.states.map((s) => s.state) ?? [],
  ])
}

function read(dir: string, bucketBytes?: number): string[] {
  const s = transactionsStream([dir], { now: NOW }, bucketBytes === undefined ? {} : { bucketBytes })
  if ('unusable' in s) throw new Error(`unusable: ${JSON.stringify(s.unusable)}`)
  const out = [...s.items].map(shape)
  expect(out).toHaveLength(s.count)
  return out
}

describe('transactions on a synthetic log directory = the union of its ten slices', () => {
  it(`${N} transactions, 50 partitions`, () => {
    const dir = path.join(root, 'whole')
    const meta = scaleLogDir(dir, { transactions: N, ids: 60, slices: SLICES, open: 3 })
    const whole = read(dir, 64 * 1024)
    expect(whole).toHaveLength(N)
    expect(new Set(whole).size).toBe(N)
    const outcomes = whole.map((w) => JSON.parse(w)[4] as string)
    expect(outcomes.filter((o) => o === 'aborted')).toHaveLength(meta.stats.aborted)
    expect(outcomes.filter((o) => o === 'open')).toHaveLength(meta.stats.open)
    expect(outcomes.filter((o) => o === 'committed')).toHaveLength(N - meta.stats.aborted - meta.stats.open)
    const records = whole.reduce(
      (n, w) =>
        n +
        (JSON.parse(w)[5] as Array<[string, number, string, string, number]>)
          .filter((r) => r[0] === 'scale')
          .reduce((m, r) => m + r[4], 0),
      0,
    )
    expect(records).toBe(meta.stats.records)
    const union: string[] = []
    for (let k = 0; k < SLICES; k++) {
      const s = path.join(root, `slice-${k}`)
      linkSlice(dir, k, s)
      union.push(...read(s))
    }
    expect(union).toHaveLength(N)
    // the same transactions, in the same order (each slice's come after the previous slice's: they began later)
    expect(union).toEqual(whole)
  })
})
