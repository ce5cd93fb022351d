// The partition commands over a log dir of 20,000 partitions, held to 128 MiB peak RSS as the big tier holds every
// command: what grows is the listing (each partition's directory, files and checkpoint entries) held through the
// scan, not the data (2 remote segments and one local segment of 2 records each, bench/make-remote.mjs, read
// without --remote-storage). The builds that kept every file of a partition and each one's REMOTE_NOT_READ text from
// the discovery on peaked here at 132 MiB (reconcile), 122 (reconcile --json) and 129-139 (cleanup).
// TSDUMP_BIG_LISTING_PARTITIONS sets the partition count.
//
// The answers are the generator's own: every partition's log start (its log-start-offset-checkpoint) at 0, below its
// one local segment (offsets 2S..2S+1), so each has its remote offsets not read, its high watermark from the
// replication-offset-checkpoint at its log end, and nothing else wrong.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { itCleanupText, partitionTree } from './partition-tree.js'
import { runWithPeakRss } from './peak-rss.js'

const P = Number(process.env.TSDUMP_BIG_LISTING_PARTITIONS ?? 20_000)
const S = 2

const t = partitionTree('tsdump-big-listing-', P, S)

describe(`partition commands over ${P} partitions x ${S} remote segments, the log dir alone`, () => {
  it('reconcile --json: every partition once, in order, its offsets as the generator wrote them, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'reconcile.json')
    const r = runWithPeakRss(['reconcile', '--json', t.tree().logs], out)
    // warnings: the remote offsets not read
    expect(r.code, r.stderr).toBe(1)
    const j = JSON.parse(fs.readFileSync(out, 'utf8')) as {
      partitions: Array<{
        topic: string
        partition: number
        logStartOffset: number
        logEndOffset: number
        highWatermark: number
        highWatermarkSource: string
        findings: Array<{ code: string; severity: string; firstOffset?: number; lastOffset?: number }>
      }>
    }
    expect(j.partitions.map((p) => `${p.topic}-${p.partition}`)).toEqual(t.names())
    const end = t.tree().expected.logEndOffset
    for (const p of j.partitions) {
      const at = `${p.topic}-${p.partition}`
      expect([p.logStartOffset, p.logEndOffset, p.highWatermark, p.highWatermarkSource], at).toEqual([
        2 * S,
        end,
        end,
        'checkpoint',
      ])
      const notRead = p.findings.filter((f) => f.severity !== 'info')
      expect(
        notRead.map((f) => [f.code, f.firstOffset, f.lastOffset]),
        at,
      ).toEqual([['REMOTE_NOT_READ', 0, 2 * S - 1]])
    }
    console.log(`reconcile --json, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })

  it('reconcile text: a row per partition, in order, its counts as the generator wrote them, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'reconcile.txt')
    const r = runWithPeakRss(['reconcile', t.tree().logs], out)
    expect(r.code, r.stderr).toBe(1)
    const [head, ...rows] = fs
      .readFileSync(out, 'utf8')
      .split('\n')
      .slice(0, P + 1)
    expect(head?.split(/\s+/)).toEqual([
      'PARTITION',
      'LEO',
      'HW',
      'LSO',
      'COMMITTED',
      'UNCOMMITTED',
      'ABORTED',
      'PENDING',
      'OPEN',
    ])
    const e = t.tree().expected
    // the local segment's records only: the remote ones are not read
    const local = e.logEndOffset - 2 * S
    expect(rows.map((l) => l.split(/\s+/))).toEqual(
      t.names().map((n) => [n, e.logEndOffset, e.logEndOffset, e.logEndOffset, local, local, 0, 0, 0].map(String)),
    )
    // each partition's remote offsets not read, said once on stderr
    expect(r.stderr.match(/\[REMOTE_NOT_READ\]/g)?.length).toBe(P)
    console.log(`reconcile, ${P} partitions x ${S}: peak RSS ${r.maxRssMiB.toFixed(1)} MiB`)
    expect(r.maxRssMiB).toBeLessThan(128)
  })

  itCleanupText(t)
})
