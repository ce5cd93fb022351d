// `doctor` over 20,000 partitions of one log dir, text and --json, held to 128 MiB peak RSS as the big tier holds
// every command (bench/make-remote.mjs: 2 remote segments and one local segment each, read without --remote-storage).
// The builds that kept a finding, a directory list and a first timestamp per partition until the end, and held V8's
// young generation at 16 MiB, peaked at 137-143 MiB here (5,000: 107); what grows is the partition count
// (TSDUMP_BIG_DOCTOR_WIDE sets it).
//
// The answers are the generator's own: its log-start-offset-checkpoint puts every partition's log start at 0, below
// its one local segment, so each partition has its remote offsets 0..2S-1 not read, and nothing else is wrong.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { partitionTree } from './partition-tree.js'
import { runWithPeakRss } from './peak-rss.js'

const P = Number(process.env.TSDUMP_BIG_DOCTOR_WIDE ?? 20_000)
const S = 2
const NOW = '2026-12-07T00:00:00Z'

const t = partitionTree('tsdump-big-doctor-wide-', P, S)

describe(`doctor of ${P} partitions x ${S} remote segments, the log dir alone`, () => {
  it('doctor text: the summary counts every partition, the remote ranges are one group, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'doctor.txt')
    const r = runWithPeakRss(['doctor', '--now', NOW, t.tree().logs], out)
    expect(r.code, r.stderr).toBe(1)
    const text = fs.readFileSync(out, 'utf8')
    expect(text).toContain(`  ${P} partitions, ${P} segments,`)
    expect(text).toContain(`findings: 0 errors, ${P} warnings,`)
    expect(text).toContain(`1. warning REMOTE_NOT_READ (the rest)\n   ${P} of them, in ${P} partitions;`)
    // the first examples in partition order, each its 2S remote offsets below the local segment
    expect(text).toContain(
      `   - ${t.names()[0]}, offsets 0..${2 * S - 1}\n   - ${t.names()[1]}, offsets 0..${2 * S - 1}\n`,
    )
    console.log(`doctor, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })

  it('doctor --json: one group of every partition, each partition once, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'doctor.json')
    const r = runWithPeakRss(['doctor', '--json', '--now', NOW, t.tree().logs], out)
    expect(r.code, r.stderr).toBe(1)
    const j = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      summary: { partitions: number; segments: number; counts: { error: number; warning: number } }
      groups: Array<{
        code: string
        severity: string
        count: number
        partitions: number
        examples: Array<{ location: { partition: string; firstOffset: number; lastOffset: number } }>
      }>
      findings: Array<{ severity: string }>
    }
    expect([j.summary.partitions, j.summary.segments, j.summary.counts.error]).toEqual([P, P, 0])
    expect(j.summary.counts.warning).toBe(P)
    expect(j.findings.filter((f) => f.severity !== 'info')).toEqual([])
    const notRead = j.groups.find((g) => g.code === 'REMOTE_NOT_READ')
    expect(notRead).toMatchObject({ severity: 'warning', count: P, partitions: P })
    expect(notRead!.examples.map((e) => e.location)).toMatchObject(
      t
        .names()
        .slice(0, 5)
        .map((partition) => ({ partition, firstOffset: 0, lastOffset: 2 * S - 1 })),
    )
    console.log(`doctor --json, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })
})
