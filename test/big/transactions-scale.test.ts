// `transactions` at production scale, held to 128 MiB peak RSS as the big tier holds every command: up to a million
// transactions (bench/make-scale.mjs, 200,000 by default, see below: 50 partitions, 1-20 records over 1-4 partitions each, coordinator records and
// a TxnOffsetCommit per transaction) and a million producers (bench/make-producers.mjs: one transaction each).
// Inputs made under the temp directory and deleted after; the output goes to a file and is counted, not held.
// TSDUMP_BIG_TXNS sets the transaction count of the first: 200,000 by default, to keep the big tier's time (1,000,000
// took 188 s of CPU and 200 s to generate on a loaded machine, bench/RESULTS.md); TSDUMP_BIG_TXNS=1000000 for the size.
//
// The join is bounded (buckets by producer id in temp files, merged) and so is the exactly-once tally (10,000
// producers). Both hold the bound since bin/tsdump.js keeps transactions' young generation at its first size
// (bench/RESULTS.md, "transactions' young generation"): the million producers 89-93 MiB (123-143 before, V8's
// young generation grown to 32 MiB), 200,000 transactions --json 103 MiB (150 before). The 232 MiB CI read at
// 200,000 was the vitest worker's, which had just made the input: getrusage's maxRSS keeps the parent's across
// fork and exec, so ./peak-rss.ts reads VmHWM.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rmrf, tmp } from '../hostile/support.js'
import { countMatches } from './count-matches.js'
import { runWithPeakRss } from './peak-rss.js'
import { scaleLogDir } from '../../bench/make-scale.mjs'
import { writeProducerSegment } from '../../bench/make-producers.mjs'

const dir = tmp('tsdump-big-transactions-')
afterAll(() => rmrf(dir))
const N = Number(process.env.TSDUMP_BIG_TXNS ?? 200_000)

/** tsdump transactions --json over `input`, stdout to a file; its peak RSS and the transactions' outcomes counted from the file */
function run(input: string): {
  code: number | null
  stderr: string
  maxRssMiB: number
  outcomes: Record<string, number>
} {
  const out = path.join(dir, 'out.json')
  const r = runWithPeakRss(['transactions', '--json', '--now', '2030-01-01T00:00:00Z', input], out)
  // every transaction object has one "outcome" field; each of its partitions has one too, after its "records": those
  // are matched (so that a chunk's carry never starts inside one) and not counted
  const outcomes = countMatches(out, /("records":\d+,)?"outcome":"(\w+)"/g, (x) =>
    x[1] === undefined ? x[2] : undefined,
  )
  fs.rmSync(out, { force: true })
  return { ...r, outcomes }
}

describe('transactions at scale', () => {
  const scale: { r?: ReturnType<typeof run> } = {}
  it(`${N} transactions over 50 partitions: each listed once`, () => {
    const logs = path.join(dir, 'scale')
    const meta = scaleLogDir(logs, { transactions: N, ids: 1000 })
    const r = run(logs)
    rmrf(logs)
    scale.r = r
    // exit 1: the transactions left open are past the coordinator's deadline at --now
    expect(r.code, r.stderr).toBe(1)
    expect(r.outcomes).toEqual({
      committed: N - meta.stats.aborted - meta.stats.open,
      aborted: meta.stats.aborted,
      open: meta.stats.open,
    })
  })
  it(`${N} transactions: peak RSS < 128 MiB`, () => {
    expect(scale.r?.code).toBe(1)
    console.log(`transactions, ${N} transactions: peak RSS ${scale.r!.maxRssMiB.toFixed(0)} MiB`)
    expect(scale.r!.maxRssMiB).toBeLessThan(128)
  })

  const producers: { r?: ReturnType<typeof run> } = {}
  it('a million producers of one transaction each: each listed once', () => {
    const logs = path.join(dir, 'producers')
    writeProducerSegment(logs, 1_000_000, 1, 10)
    const r = run(path.join(logs, 'bench-producers-0'))
    rmrf(logs)
    producers.r = r
    expect(r.code, r.stderr).toBe(0)
    expect(r.outcomes).toEqual({ committed: 900_000, aborted: 100_000 })
  })
  it('a million producers: peak RSS < 128 MiB', () => {
    expect(producers.r?.code).toBe(0)
    console.log(`transactions, a million producers: peak RSS ${producers.r!.maxRssMiB.toFixed(0)} MiB`)
    expect(producers.r!.maxRssMiB).toBeLessThan(128)
  })
})
