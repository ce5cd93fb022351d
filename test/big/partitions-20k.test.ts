// `lso` over a log dir of 20,000 partitions, held to 128 MiB peak RSS as the big tier holds every command. Its impact
// lines come first and are known last: the builds that kept every partition's scan until they printed peaked here at
// 156 MiB (text) and 214 MiB (--json, the whole document built in memory), 242 and 362 at 40,000; this build judges
// each partition as its scan ends and holds its text in a scratch file (98 MiB either way).
// TSDUMP_BIG_WIDE_PARTITIONS sets the partition count. One tree for both commands: building it is most of the run.
//
// The answers are the generator's own (bench/make-remote.mjs): no transaction anywhere, so every partition's LSO is
// its high watermark (the replication-offset-checkpoint's, at its log end) and nothing is blocked or hanging; each
// has its remote offsets not read (no --remote-storage), its one warning.
//
// `doctor` over 20,000 partitions of one log dir, text and --json, held to 128 MiB peak RSS as the big tier holds
// every command (bench/make-remote.mjs: 2 remote segments and one local segment each, read without --remote-storage).
// The builds that kept a finding, a directory list and a first timestamp per partition until the end, and held V8's
// young generation at 16 MiB, peaked at 137-143 MiB here (5,000: 107); what grows is the partition count.
//
// The answers are the generator's own: its log-start-offset-checkpoint puts every partition's log start at 0, below
// its one local segment, so each partition has its remote offsets 0..2S-1 not read, and nothing else is wrong.
//
// `report` over the same tree, held to 128 MiB peak RSS: the build that kept every partition's lane, rows and scan
// until it drew the page peaked here at 347 MiB (5,000: 150); this one writes each partition's page parts to a scratch
// file as doctor is done with it (117-122 MiB). Its answers are the generator's too: each lane's one local batch of 2
// records (the tiered fixture's batch, 2 records by kafka-dump-log's text), HW and LSO at the log end.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { partitionTree } from './partition-tree.js'
import { runWithPeakRss, runWithPeakRssAsync } from './peak-rss.js'

const P = Number(process.env.TSDUMP_BIG_WIDE_PARTITIONS ?? 20_000)
const S = 2
const NOW = '2026-12-07T00:00:00Z'

const t = partitionTree('tsdump-big-wide-', P, S)

interface LsoPartitionRow {
  topic: string
  partition: number
  highWatermark: number
  highWatermarkSource: string
  lastStableOffset: number
  blocked: boolean
  blocking: unknown
  openTransactions: number
  findings: Array<{ code: string; severity: string; firstOffset?: number; lastOffset?: number }>
}

describe(`lso over ${P} partitions x ${S} remote segments, the log dir alone`, () => {
  it('text: a line per partition, in order, nothing blocked, peak RSS < 128 MiB', async () => {
    const out = path.join(t.dir, 'lso.txt')
    // its stderr (a warning a partition, 7 MB) is past a synchronous spawn's buffer
    const r = await runWithPeakRssAsync(['lso', '--now', NOW, t.tree().logs], out, {})
    // warnings: the remote offsets not read
    expect(r.code, r.stderr).toBe(1)
    const end = t.tree().expected.logEndOffset
    const lines = fs.readFileSync(out, 'utf8').split('\n')
    expect(lines.slice(0, P)).toEqual(t.names().map((l) => `${l}: LSO ${end} = HW ${end}, nothing is blocked`))
    expect(lines.slice(P)).toEqual([
      '',
      `no hanging transactions (open > 15 min at 2026-12-07T00:00:00.000Z (--now))`,
      '',
    ])
    const warned = r.stderr.split('\n').filter((l) => l.endsWith('[REMOTE_NOT_READ]'))
    expect(warned.map((l) => /^tsdump: warning: (\S+): /.exec(l)?.[1])).toEqual(t.names())
    console.log(`lso, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })

  it('--json: every partition once, in order, its LSO at its high watermark, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'lso.json')
    const r = runWithPeakRss(['lso', '--json', '--now', NOW, t.tree().logs], out)
    expect(r.code, r.stderr).toBe(1)
    const j = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      impact: unknown[]
      partitions: LsoPartitionRow[]
      hanging: boolean
      hangingTransactions: unknown[]
    }
    expect([j.impact, j.hanging, j.hangingTransactions]).toEqual([[], false, []])
    expect(j.partitions.map((p) => `${p.topic}-${p.partition}`)).toEqual(t.names())
    const end = t.tree().expected.logEndOffset
    for (const p of j.partitions) {
      const at = `${p.topic}-${p.partition}`
      expect(
        [p.highWatermark, p.highWatermarkSource, p.lastStableOffset, p.blocked, p.blocking, p.openTransactions],
        at,
      ).toEqual([end, 'checkpoint', end, false, null, 0])
      expect(
        p.findings.filter((f) => f.severity !== 'info').map((f) => [f.code, f.firstOffset, f.lastOffset]),
        at,
      ).toEqual([['REMOTE_NOT_READ', 0, 2 * S - 1]])
    }
    console.log(`lso --json, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })
})

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

describe(`report of ${P} partitions x ${S} remote segments, the log dir alone`, () => {
  it("a lane per partition with the generator's counts, its HW and LSO at the log end, peak RSS < 128 MiB", async () => {
    const out = path.join(t.dir, 'report.html')
    // its stderr (a warning a partition, 7 MB) is past a synchronous spawn's buffer
    const r = await runWithPeakRssAsync(
      ['report', '--now', NOW, '-o', out, t.tree().logs],
      path.join(t.dir, 'report.stdout'),
      {},
    )
    // warnings: the remote offsets not read
    expect(r.code, r.stderr).toBe(1)
    const bytes = fs.statSync(out).size
    expect(r.stderr).toContain(`tsdump: wrote ${out} (${bytes} bytes, ${P} partitions, some lanes aggregated)\n`)
    const warned = r.stderr.split('\n').filter((l) => l.endsWith('[REMOTE_NOT_READ]'))
    expect(warned.map((l) => /^tsdump: warning: (\S+): /.exec(l)?.[1]).sort()).toEqual([...t.names()].sort())
    const page = fs.readFileSync(out, 'latin1')
    const end = String(t.tree().expected.logEndOffset)
    const lanes = [
      ...page.matchAll(
        /<svg class="lane" [^>]*?data-partition="([^"]+)" data-hw="(\d+)" data-lso="(\d+)" data-read-committed="(\d+)" data-read-uncommitted="(\d+)"/g,
      ),
    ]
    expect(lanes.map((m) => m[1]).sort()).toEqual([...t.names()].sort())
    for (const m of lanes) expect(m.slice(2), m[1]).toEqual([end, end, '2', '2'])
    console.log(`report, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })
})
