// What transactions' collector (scan/transactions-collect.ts) holds per partition from the model's scan to the join:
// at 40,000 partitions of bench/make-remote.mjs's tree (each with a REMOTE_NOT_READ note: offsets below its first
// local segment in remote storage) `transactions` peaked at 129-135 MiB. The live heap is measured from outside
// tsdump: a child node with --expose-gc, the heap after a full collection before the scan (the listing resolved)
// and after it, before the join. The build before held each note's message as the 7-piece rope it was built as,
// one per partition: 663 bytes a partition; this one shares equal messages: 381.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { remoteSegmentsTree } from '../../bench/make-remote.mjs'
import { REPO_ROOT } from '../support/paths.js'

/** TSDUMP_COLLECT_DIST: another build's dist/ (a test's check that it fails on the build before a change) */
const DIST = process.env.TSDUMP_COLLECT_DIST ?? path.join(REPO_ROOT, 'dist')
const PARTITIONS = 5000
/** bytes a partition the scan leaves held for the join (the build before held 663, this one 381) */
const LIMIT = 500

describe("transactions' collector", () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-collect-size-'))
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }), 120_000)

  it(`holds less than ${LIMIT} bytes a partition from the scan to the join (${PARTITIONS} partitions)`, () => {
    const { logs } = remoteSegmentsTree(root, { partitions: PARTITIONS, segments: 2 })
    const script = `
      const { transactionsHooks } = await import(${JSON.stringify(path.join(DIST, 'commands/transactions.js'))})
      const { BrokerModel } = await import(${JSON.stringify(path.join(DIST, 'scan/broker-model.js'))})
      const model = new BrokerModel([${JSON.stringify(logs)}], { metadataInScan: true })
      model.resolved()
      globalThis.gc(); const before = process.memoryUsage().heapUsed
      const tx = transactionsHooks(model, {})
      const h = tx.collector.hooks
      const scan = model.scanEach({ ...h, analyzer: (dir) => ({ ...h.analyzer(dir), markerEpochs: false }) }, () => {})
      globalThis.gc(); const after = process.memoryUsage().heapUsed
      tx.collector.close()
      console.log(JSON.stringify({ partitions: model.resolved().partitions.length, bytes: after - before }))
      globalThis.kept = [model, tx, scan]`
    const run = spawnSync(process.execPath, ['--expose-gc', '--input-type=module', '-e', script], { encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    const { partitions, bytes } = JSON.parse(run.stdout) as { partitions: number; bytes: number }
    expect(partitions).toBe(PARTITIONS)
    expect(Math.round(bytes / partitions)).toBeLessThan(LIMIT)
  })
})
