// The dirty section's clean tallied while the offset map fills (dirty-tally.ts, read twice in all) must say what
// Cleaner.cleanSegments' own walk of it says: --top asks for its keys, which the tally cannot give, so it walks the
// section again as before. Both are run on every fixture partition with more than one segment, the dirty section
// starting at each segment boundary, at a time before and after the delete horizons.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { predictCompaction } from '../../../src/analysis/cleanup/compaction.js'
import type { CompactionPrediction } from '../../../src/analysis/cleanup/compaction.js'
import { resolveConfigs, settingsOf } from '../../../src/analysis/cleanup/configs.js'
import { FindingList } from '../../../src/analysis/finding-list.js'
import { cleanupHooks, cleanupSegments, readCleanupSegment } from '../../../src/scan/cleanup-scan.js'
import { scanPaths } from '../../../src/scan/partition-paths.js'
import { REPO_ROOT } from '../../support/paths.js'

/** the fixtures' log directories (those with a replication checkpoint) */
function logDirs(): string[] {
  const out: string[] = []
  const walk = (d: string, depth: number): void => {
    if (depth > 4) return
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isFile() && e.name === 'replication-offset-checkpoint') out.push(d)
      else if (e.isDirectory()) walk(path.join(d, e.name), depth + 1)
    }
  }
  walk(path.join(REPO_ROOT, 'fixtures'), 0)
  return out.sort()
}

const sameAnswer = (p: CompactionPrediction): Omit<CompactionPrediction, 'topDirtyKeys' | 'offsetMapBytes'> => {
  const { topDirtyKeys: _k, offsetMapBytes: _b, ...rest } = p
  return rest
}

describe('the dirty section tallied as the map fills equals the clean pass over it', () => {
  const dirs = logDirs()
  it('finds fixtures', () => {
    expect(dirs.length).toBeGreaterThan(5)
  })
  for (const logDir of dirs) {
    it(path.relative(REPO_ROOT, logDir), () => {
      const hooks = cleanupHooks()
      const done = { ...scanPaths([logDir], hooks.hooks), headers: hooks.headers }
      let compared = 0
      for (const p of done.scanned) {
        const findings = new FindingList()
        const segments = cleanupSegments(p.dir, findings)
        if (segments.length < 2) continue
        const headers = done.headers.get(p.dir)!
        headers.fill(segments)
        const aborted = headers.abortedTxns()
        const read = (seg: (typeof segments)[number], visit: Parameters<typeof readCleanupSegment>[1]): void => {
          readCleanupSegment(seg, visit, findings, new Set())
        }
        const settings = settingsOf(
          resolveConfigs(p.report.topic, {
            flags: new Map([
              ['cleanup.policy', 'compact'],
              ['delete.retention.ms', '1000'],
            ]),
          }),
        )
        const r = p.report
        for (const seg of segments.slice(0, -1)) {
          for (const nowMs of [0n, 1n << 50n]) {
            for (const lso of [r.lastStableOffset, r.logEndOffset]) {
              const inp = {
                segments,
                read,
                aborted,
                offsetMapEntries: 1_000_000,
                logStartOffset: r.logStartOffset,
                logEndOffset: r.logEndOffset,
                lastStableOffset: lso,
                openTransaction: lso < r.highWatermark,
                checkpoint: seg.baseOffset,
                settings,
                nowMs,
              }
              const tallied = predictCompaction({ ...inp, countKeys: false })
              const walked = predictCompaction({ ...inp, countKeys: true })
              expect(sameAnswer(tallied), `${p.label} dirty from ${seg.baseOffset}, now ${nowMs}, LSO ${lso}`).toEqual(
                sameAnswer(walked),
              )
              if (tallied.cleanedUpTo !== null) compared++
            }
          }
        }
      }
      if (compared === 0) console.log(`${logDir}: no partition with a dirty section to compare`)
    })
  }
})
