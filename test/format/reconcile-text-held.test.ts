// What reconcile's text holds per partition until its table can be written (format/reconcile-text.ts): its row and
// its findings for stderr wait for the last partition. A log dir of 40,000 partitions with a warning each (the
// REMOTE_NOT_READ of bench/make-remote.mjs' tree) took reconcile to 149 MiB peak, over the 128 MiB bound, while
// reconcile --json stayed at 117. The live heap is measured from outside tsdump: a child node with --expose-gc, the
// heap after a full collection before the partitions and after them, before the table is written, with the held
// queues the command gives (commands/reconcile.ts: io/spill-queue.ts, 1 MiB in memory each); the table and the
// warnings are then checked against what was given (each partition's row once, in order, each warning once).
import { spawnSync } from 'node:child_process'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

/** TSDUMP_RECONCILE_TEXT_DIST: another build's dist/ (a test's check that it fails on the build before a change) */
const DIST = process.env.TSDUMP_RECONCILE_TEXT_DIST ?? path.join(REPO_ROOT, 'dist')
const PARTITIONS = 20_000
/** bytes a partition: the build that held every row and warning in memory held 544 here, this one 158 */
const LIMIT = 300

describe("reconcile's text stream", () => {
  it(`holds less than ${LIMIT} bytes a partition until its table is written (${PARTITIONS} partitions)`, () => {
    const script = `
      const { ReconcileTextStream } = await import(${JSON.stringify(path.join(DIST, 'format/reconcile-text.js'))})
      const { SpillQueue } = await import(${JSON.stringify(path.join(DIST, 'io/spill-queue.js'))})
      const { Chalk } = await import('chalk')
      let out = '', err = ''
      const sink = (add) => ({ write: (s) => add(s), writeBytes: (b) => add(Buffer.from(b).toString()) })
      const o = { stdout: sink((s) => { out += s }), stderr: sink((s) => { err += s }) }
      const plain = new Chalk({ level: 0 })
      const s = new ReconcileTextStream(o, plain, plain, false, false, () => new SpillQueue(1024 * 1024))
      globalThis.gc(); const before = process.memoryUsage().heapUsed
      for (let p = 0; p < ${PARTITIONS}; p++) {
        const label = 'tiered-' + p
        s.partition({ label, path: '/logs/' + label, snapshots: [], report: {
          topic: 'tiered', partition: p, logEndOffset: 6, highWatermark: 6, highWatermarkSource: 'checkpoint',
          lastStableOffset: 6, readCommitted: 2, readUncommitted: 2, abortedRecords: 0, pendingRecords: 0,
          controlBatches: { COMMIT: 1 }, openTransactions: [], omittedFindings: {},
          findings: [{ code: 'REMOTE_NOT_READ', severity: 'warning',
            message: 'offsets 0..' + (p % 997) + ' of ' + label + ' are in remote storage and were not read: give --remote-storage' }],
        } })
      }
      globalThis.gc(); const after = process.memoryUsage().heapUsed
      s.end(undefined)
      const rows = out.split('\\n').filter((l) => l.startsWith('tiered-')).map((l) => l.split(/ +/)[0])
      const warned = err.split('\\n').filter((l) => l.includes('REMOTE_NOT_READ') || l.includes('were not read')).length
      console.log(JSON.stringify({ bytes: after - before, rows, warned }))`
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    })
    expect(run.status, run.stderr).toBe(0)
    const { bytes, rows, warned } = JSON.parse(run.stdout) as { bytes: number; rows: string[]; warned: number }
    expect(rows).toEqual(Array.from({ length: PARTITIONS }, (_, p) => `tiered-${p}`))
    expect(warned).toBe(PARTITIONS)
    expect(Math.round(bytes / PARTITIONS)).toBeLessThan(LIMIT)
  })
})
