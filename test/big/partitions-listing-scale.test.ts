// The partition commands over a log dir of 25,000 partitions, held to 128 MiB peak RSS as the big tier holds every
// command: what grows is the listing (each partition's directory, files and checkpoint entries) held through the
// scan, not the data (2 remote segments and one local segment of 2 records each, bench/make-remote.mjs, read
// without --remote-storage). The builds that kept every file of a partition and each one's REMOTE_NOT_READ text from
// the discovery on peaked here (VmHWM) at 128 MiB (reconcile --json) and 141 (cleanup), this build at 104 and 115; at
// 20,000 the integ build was within 1 MiB of the bound either way. reconcile's text is not held to it yet: 126 MiB
// here (its 25,000 warnings on stderr; 143 on integ).
// TSDUMP_BIG_LISTING_PARTITIONS sets the partition count.
//
// The answers are the generator's own: every partition's log start (its log-start-offset-checkpoint) at 0, below its
// one local segment (offsets 2S..2S+1), so each has its remote offsets not read, its high watermark from the
// replication-offset-checkpoint at its log end, and nothing else wrong.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { itCleanupText, type PartitionRow, partitionTree } from './partition-tree.js'
import { runWithPeakRss } from './peak-rss.js'

const P = Number(process.env.TSDUMP_BIG_LISTING_PARTITIONS ?? 25_000)
const S = 2

const t = partitionTree('tsdump-big-listing-', P, S)

describe(`partition commands over ${P} partitions x ${S} remote segments, the log dir alone`, () => {
  it('reconcile --json: every partition once, in order, its offsets as the generator wrote them, peak RSS < 128 MiB', () => {
    const out = path.join(t.dir, 'reconcile.json')
    const r = runWithPeakRss(['reconcile', '--json', t.tree().logs], out)
    // warnings: the remote offsets not read
    expect(r.code, r.stderr).toBe(1)
    const j = JSON.parse(fs.readFileSync(out, 'utf8')) as { partitions: PartitionRow[] }
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

  itCleanupText(t)
})
