// `doctor` at production scale, held to 128 MiB peak RSS as the big tier holds every command: bench/make-scale.mjs's
// log directory (50 partitions, 1-20 records over 1-4 partitions each, coordinator records and a TxnOffsetCommit per
// transaction), 200,000 transactions by default (TSDUMP_BIG_TXNS sets the count, as for transactions-scale.test.ts).
// The input is made under the temp directory and deleted after; the answer is checked against the generator's own
// counts: the transactions it left open, past their coordinator's deadline at --now, are the only warnings.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { rmrf, tmp } from '../hostile/support.js'
import { runWithPeakRss } from './peak-rss.js'
import { scaleLogDir } from '../../bench/make-scale.mjs'

const dir = tmp('tsdump-big-doctor-')
afterAll(() => rmrf(dir))
const N = Number(process.env.TSDUMP_BIG_TXNS ?? 200_000)

interface DoctorJson {
  summary: { partitions: number; segments: number; bytes: number; checked: string[]; counts: Record<string, number> }
  findings: Array<{ code: string; severity: string; location: { partition: string | null } }>
  groups: Array<{ code: string; severity: string }>
}

describe('doctor at scale', () => {
  const scale: { r?: ReturnType<typeof runWithPeakRss>; json?: DoctorJson } = {}
  it(`${N} transactions over 50 partitions: each transaction left open found, nothing else wrong`, () => {
    const logs = path.join(dir, 'scale')
    const meta = scaleLogDir(logs, { transactions: N, ids: 1000 })
    const out = path.join(dir, 'out.json')
    const r = runWithPeakRss(['doctor', '--json', '--now', '2030-01-01T00:00:00Z', logs], out)
    rmrf(logs)
    scale.r = r
    const json = JSON.parse(fs.readFileSync(out, 'utf8')) as DoctorJson
    fs.rmSync(out, { force: true })
    // exit 1: the transactions left open are past the coordinator's deadline at --now
    expect(r.code, r.stderr).toBe(1)
    expect(json.summary.partitions).toBe(58)
    expect(json.summary.segments).toBe(58)
    expect(json.summary.bytes).toBe(meta.bytes)
    expect(json.summary.checked).toEqual(['reconcile', 'lso', 'transactions', 'cleanup'])
    // each open transaction's data in each of its partitions: one warning there, its coordinator overdue
    expect(json.summary.counts.error).toBe(0)
    expect(json.summary.counts.warning).toBe(meta.stats.runs.open)
    const warnings = json.findings.filter((f) => f.severity !== 'info')
    expect(warnings.map((f) => f.code)).toEqual(Array(meta.stats.runs.open).fill('TXN_COORDINATOR_OVERDUE'))
    // (a partition can hold the data of two of them)
    expect([...new Set(warnings.map((f) => f.location.partition))].sort()).toEqual(meta.stats.openPartitions)
    expect(json.groups.filter((g) => g.severity !== 'info')).toEqual([])
  })
  it(`${N} transactions: peak RSS < 128 MiB`, () => {
    expect(scale.r?.code).toBe(1)
    console.log(`doctor, ${N} transactions: peak RSS ${scale.r!.maxRssMiB.toFixed(0)} MiB`)
    expect(scale.r!.maxRssMiB).toBeLessThan(128)
  })
})
