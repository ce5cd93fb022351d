// What the resolved listing of a log dir holds per partition (scan/partition-paths.ts resolvePartitions: the
// discovery, the checkpoints' entries, the note of remote offsets not read), held through every partition command's
// scan: at 40,000 partitions it was 27 MiB of the 128 MiB bound. The tree is bench/make-remote.mjs's shape (one local
// segment, leader-epoch-checkpoint and partition.metadata per partition, the log dir's checkpoints). The live heap
// is measured from outside tsdump: a child node with --expose-gc, the heap after a full collection before and after.
// The build before held 691 bytes a partition (a files list pushed to 17 slots, a note's context per partition).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

/** TSDUMP_LISTING_DIST: another build's dist/ (a test's check that it fails on the build before a change) */
const DIST = process.env.TSDUMP_LISTING_DIST ?? path.join(REPO_ROOT, 'dist')
const PARTITIONS = 5000
/**
 * bytes a partition besides its directory's and its segment's paths (a byte a character: their length depends on the
 * temp dir's); the build before held 650 (691 at 40,000 in bench/make-remote.mjs's tree), this one 490
 */
const LIMIT = 560

describe('the resolved listing of a log dir', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-listing-size-'))
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }), 120_000)

  it(`holds less than ${LIMIT} bytes a partition besides its paths (${PARTITIONS} partitions)`, () => {
    const logs = path.join(root, 'logs')
    const hw: string[] = []
    for (let p = 0; p < PARTITIONS; p++) {
      const d = path.join(logs, `tiered-${p}`)
      fs.mkdirSync(d, { recursive: true })
      fs.writeFileSync(path.join(d, '00000000000000000004.log'), '')
      fs.writeFileSync(path.join(d, 'leader-epoch-checkpoint'), '0\n1\n0 0\n')
      fs.writeFileSync(path.join(d, 'partition.metadata'), 'version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAA\n')
      hw.push(`tiered ${p} 6`)
    }
    fs.writeFileSync(path.join(logs, 'replication-offset-checkpoint'), `0\n${PARTITIONS}\n${hw.join('\n')}\n`)
    fs.writeFileSync(
      path.join(logs, 'log-start-offset-checkpoint'),
      `0\n${PARTITIONS}\n${hw.map((l) => l.replace(/ 6$/, ' 0')).join('\n')}\n`,
    )
    const script = `
      const { resolvePartitions } = await import(${JSON.stringify(path.join(DIST, 'scan/partition-paths.js'))})
      globalThis.gc(); const before = process.memoryUsage().heapUsed
      const r = resolvePartitions([${JSON.stringify(logs)}])
      globalThis.gc(); const after = process.memoryUsage().heapUsed
      console.log(JSON.stringify({ partitions: r.partitions.length, bytes: after - before }))
      globalThis.kept = r`
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    const { partitions, bytes } = JSON.parse(run.stdout) as { partitions: number; bytes: number }
    expect(partitions).toBe(PARTITIONS)
    const last = path.join(logs, `tiered-${PARTITIONS - 1}`)
    const paths = last.length + path.join(last, '00000000000000000004.log').length
    expect(Math.round(bytes / partitions)).toBeLessThan(LIMIT + paths)
  })
})
