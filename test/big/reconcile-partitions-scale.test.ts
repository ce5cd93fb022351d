// `reconcile` over many partitions, held to 128 MiB peak RSS as the big tier holds every command: 5,000 partitions of
// 2 remote segments and one local segment each, read from a directory (bench/make-remote.mjs, LocalTieredStorage's
// layout, found by listing). The builds that held every partition's scan until they printed peaked at 133-137 MiB
// here with --json; what grows is the partition count (TSDUMP_BIG_RECONCILE_PARTITIONS sets it).
//
// The answers are the generator's own: every partition listed once, in order, each with the records it wrote (2 a
// segment, none transactional) read by both consumers, and the topic's totals their sum.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { remoteSegmentsTree } from '../../bench/make-remote.mjs'
import { rmrf, tmp } from '../hostile/support.js'
import { runWithPeakRss } from './peak-rss.js'
import type { ReconcilePartitionJson as Partition } from './reconcile-json.js'

const P = Number(process.env.TSDUMP_BIG_RECONCILE_PARTITIONS ?? 5000)
const S = 2

const dir = tmp('tsdump-big-reconcile-')
afterAll(() => rmrf(dir))
let tree: ReturnType<typeof remoteSegmentsTree>
beforeAll(() => {
  tree = remoteSegmentsTree(path.join(dir, 'tree'), { partitions: P, segments: S })
})

describe(`reconcile of ${P} partitions x ${S} remote segments from a directory`, () => {
  it("--json: every partition's counts the generator's, peak RSS < 128 MiB", () => {
    const out = path.join(dir, 'reconcile.json')
    const r = runWithPeakRss(['reconcile', '--json', tree.logs, '--remote-storage', tree.remote], out)
    // info findings only (segments found by listing, no indexes beside the local segments)
    expect(r.code, r.stderr).toBe(0)
    const e = tree.expected
    const j = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      partitions: Partition[]
      topics: Array<{ topic: string; partitions: number; readCommitted: number; readUncommitted: number }>
    }
    expect(j.partitions.map((p) => `${p.topic}-${p.partition}`)).toEqual(
      Array.from({ length: P }, (_, i) => `${e.topic}-${i}`),
    )
    for (const p of j.partitions) {
      const at = `${p.topic}-${p.partition}`
      expect([p.readCommitted, p.readUncommitted, p.logEndOffset], at).toEqual([
        e.readCommitted,
        e.readUncommitted,
        e.logEndOffset,
      ])
      expect(
        p.findings.filter((f) => f.severity !== 'info'),
        at,
      ).toEqual([])
    }
    expect(j.topics).toEqual([
      { topic: e.topic, partitions: P, readCommitted: P * e.readCommitted, readUncommitted: P * e.readUncommitted },
    ])
    console.log(`reconcile --json, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })

  it("text: a row per partition with the generator's counts, peak RSS < 128 MiB", () => {
    const out = path.join(dir, 'reconcile.txt')
    const r = runWithPeakRss(['reconcile', tree.logs, '--remote-storage', tree.remote], out)
    expect(r.code, r.stderr).toBe(0)
    const e = tree.expected
    const lines = fs.readFileSync(out, 'utf8').split('\n')
    const head = lines[0]!.split(/\s+/)
    // the narrow table's headers or the full ones, whichever fit
    const col = (...names: string[]): number => head.findIndex((h) => names.includes(h))
    const [leo, committed, uncommitted] = [
      col('LEO'),
      col('COMMITTED', 'READ_COMMITTED'),
      col('UNCOMMITTED', 'READ_UNCOMMITTED'),
    ]
    expect(Math.min(committed, uncommitted), lines[0]).toBeGreaterThan(0)
    const rows = lines.slice(1, 1 + P).map((l) => l.split(/\s+/))
    expect(rows.map((c) => c[0])).toEqual(Array.from({ length: P }, (_, i) => `${e.topic}-${i}`))
    for (const c of rows) {
      expect([Number(c[committed]), Number(c[uncommitted])], c[0]).toEqual([e.readCommitted, e.readUncommitted])
      if (leo >= 0) expect(Number(c[leo]), c[0]).toBe(e.logEndOffset)
    }
    // the topic's totals under the table
    const total = lines.find((l) => l.startsWith(`${e.topic} `))?.split(/\s+/)
    expect(total).toEqual([e.topic, String(P), String(P * e.readCommitted), String(P * e.readUncommitted)])
    console.log(`reconcile (text), ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })
})
