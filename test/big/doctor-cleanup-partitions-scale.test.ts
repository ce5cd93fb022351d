// `doctor` and `cleanup` over many partitions, held to 128 MiB peak RSS as the big tier holds every command: 5,000
// partitions of 2 remote segments and one local segment each (bench/make-remote.mjs), read as a log dir without
// --remote-storage. The builds that kept every partition's scan, its cleanup result and cleanup's whole text until
// the end peaked at 149-159 MiB here; what grows is the partition count (TSDUMP_BIG_DOCTOR_PARTITIONS sets it).
//
// The answers are the generator's own: its log-start-offset-checkpoint puts every partition's log start at 0, below
// its one local segment (offsets 2S..2S+1), where cleanup starts its log, so each partition has its remote offsets
// not read, and nothing else wrong.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { itCleanupText, type PartitionRow, partitionTree } from './partition-tree.js'
import { runWithPeakRss } from './peak-rss.js'

const P = Number(process.env.TSDUMP_BIG_DOCTOR_PARTITIONS ?? 5000)
const S = 2

const t = partitionTree('tsdump-big-doctor-', P, S)

describe(`doctor and cleanup of ${P} partitions x ${S} remote segments, the log dir alone`, () => {
  it('doctor --json: every partition counted, each one remote range not read, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'doctor.json')
    const r = runWithPeakRss(['doctor', '--json', t.tree().logs], out)
    // warnings: the remote offsets not read
    expect(r.code, r.stderr).toBe(1)
    const j = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      summary: { partitions: number; segments: number; counts: { error: number; warning: number } }
      groups: Array<{ code: string; severity: string; count: number; partitions: number }>
      findings: Array<{ severity: string }>
    }
    expect([j.summary.partitions, j.summary.segments, j.summary.counts.error]).toEqual([P, P, 0])
    const notRead = j.groups.find((g) => g.code === 'REMOTE_NOT_READ')
    expect(notRead).toMatchObject({ severity: 'warning', count: P, partitions: P })
    expect(j.summary.counts.warning).toBe(P)
    console.log(`doctor --json, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })

  it('cleanup --json: every partition once, in order, with its log as the generator wrote it, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'cleanup.json')
    const r = runWithPeakRss(['cleanup', '--json', t.tree().logs], out)
    expect(r.code, r.stderr).toBe(1)
    const j = JSON.parse(fs.readFileSync(out, 'utf8')) as { partitions: PartitionRow[] }
    expect(j.partitions.map((p) => `${p.topic}-${p.partition}`)).toEqual(t.names())
    for (const p of j.partitions) {
      const at = `${p.topic}-${p.partition}`
      expect([p.logStartOffset, p.logEndOffset], at).toEqual([2 * S, t.tree().expected.logEndOffset])
      expect(
        p.findings.filter((f) => f.severity !== 'info').map((f) => f.code),
        at,
      ).toEqual(['REMOTE_NOT_READ'])
    }
    console.log(`cleanup --json, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })

  itCleanupText(t)
})
