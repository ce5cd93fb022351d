import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { PartitionAnalyzer } from '../../src/analysis/partition-analyzer.js'
import type { BatchFacts } from '../../src/analysis/batch-facts.js'
import { LaneCollector } from '../../src/format/report/lane-collector.js'
import { buildReportModel } from '../../src/commands/report.js'
import { runTxns } from '../../src/commands/txns.js'
import { FIXTURES } from '../support/paths.js'
import { runCommand } from '../support/txn-segment-builder.js'

/** 5 batches a round (two transactions and a plain batch), one reused BatchFacts */
function feed(a: PartitionAnalyzer, rounds: number): void {
  const b: BatchFacts = {
    baseOffset: 0,
    lastOffset: 0,
    recordsCount: 2,
    producerId: -1,
    producerEpoch: 0,
    isTransactional: false,
    isControl: false,
    baseTimestamp: 0,
    maxTimestamp: 0,
    control: undefined,
  }
  let next = 0
  const emit = (pid: number, txn: boolean, control: 'COMMIT' | 'ABORT' | null): void => {
    b.baseOffset = next
    b.lastOffset = next + (control === null ? 1 : 0)
    b.producerId = pid
    b.isTransactional = txn
    b.isControl = control !== null
    b.recordsCount = control === null ? 2 : 1
    b.baseTimestamp = b.maxTimestamp = 1_700_000_000_000 + next
    b.control =
      control === null ? undefined : { type: control === 'ABORT' ? 0 : 1, typeName: control, coordinatorEpoch: 0 }
    next = Number(b.lastOffset) + 1
    a.add(b)
  }
  for (let r = 0; r < rounds; r++) {
    const pid = 10 + (r % 100)
    emit(pid, true, null)
    emit(-1, false, null)
    emit(pid + 500, true, null)
    emit(pid, true, r % 3 === 0 ? 'ABORT' : 'COMMIT')
    emit(pid + 500, true, 'COMMIT')
  }
}

describe('LaneCollector', () => {
  it('stays within its limits on 100k transactions and its buckets add up to the analysis', () => {
    const c = new LaneCollector({ maxItems: 500, maxBuckets: 64 })
    const a = new PartitionAnalyzer({
      topic: 't',
      partition: 0,
      logStartOffset: 0n,
      snapshots: [],
      checkpointHighWatermark: null,
      txnIndex: null,
      sink: c,
    })
    feed(a, 50_000)
    const r = a.finish(0n, [])
    const lane = c.lane()
    expect(lane.items).toBeNull()
    expect(lane.buckets!.length).toBeGreaterThan(32)
    expect(lane.buckets!.length).toBeLessThanOrEqual(64)
    const sum = (f: (b: NonNullable<typeof lane.buckets>[number]) => number): number =>
      lane.buckets!.reduce((s, b) => s + f(b), 0)
    expect(sum((b) => b.committed)).toBe(r.transactions.committed)
    expect(sum((b) => b.aborted)).toBe(r.transactions.aborted)
    expect(sum((b) => b.commitMarkers)).toBe(r.controlBatches.COMMIT)
    expect(sum((b) => b.abortMarkers)).toBe(r.controlBatches.ABORT)
    expect(sum((b) => b.committedRecords + b.plainRecords)).toBe(r.readCommitted)
    expect(sum((b) => b.abortedRecords)).toBe(r.abortedRecords)
    // buckets cover the log in order, without overlapping
    for (let i = 1; i < lane.buckets!.length; i++)
      expect(lane.buckets![i]!.firstOffset).toBeGreaterThan(lane.buckets![i - 1]!.lastOffset)
  })

  it('keeps every run while there are few: the same transactions as `txns --json` on every broker fixture', async () => {
    for (const s of fs.readdirSync(FIXTURES).filter((x) => fs.existsSync(path.join(FIXTURES, x, 'logs')))) {
      const logs = path.join(FIXTURES, s, 'logs')
      const built = buildReportModel({ paths: [logs], output: '-' })
      expect(built.unusable, s).toEqual([])
      const t = await runCommand(runTxns, { paths: [logs], format: 'json' })
      const txns = (
        JSON.parse(t.out) as {
          partitions: Array<{ topic: string; partition: number; runs?: Array<Record<string, unknown>> }>
        }
      ).partitions
      for (const p of built.model.partitions) {
        const runs = txns.find((x) => `${x.topic}-${x.partition}` === p.id)?.runs
        if (runs === undefined) continue // __transaction_state: txns lists transactional ids instead
        const marker = (x: Record<string, unknown>): { offset: number; type: string } | null =>
          x.marker as { offset: number; type: string } | null
        const want = runs
          .filter((x) => x.kind === 'transaction' && marker(x) !== null)
          .map((x) => [
            x.producerId,
            x.firstOffset,
            marker(x)!.type === 'COMMIT' ? 'committed' : 'aborted',
            x.records,
            marker(x)!.offset,
          ])
        const got = (p.items ?? []).flatMap((i) =>
          i.kind === 'txn' && !i.empty ? [[i.producerId, i.firstOffset, i.outcome, i.records, i.marker?.offset]] : [],
        )
        expect(got, `${s} ${p.id}`).toEqual(want)
        expect(p.open.length, `${s} ${p.id} open`).toBe(
          runs.filter((x) => x.kind === 'transaction' && marker(x) === null).length,
        )
        const plain = runs.filter((x) => x.kind === 'plain').reduce((n, x) => n + (x.records as number), 0)
        expect(
          (p.items ?? []).reduce((n, i) => n + (i.kind === 'plain' ? i.records : 0), 0),
          `${s} ${p.id} plain records`,
        ).toBe(plain)
      }
    }
  })

  it('the report as a whole stays within its item and bucket budgets: the largest lanes are aggregated first', () => {
    const built = buildReportModel(
      { paths: [path.join(FIXTURES, 'interleaved/logs'), path.join(FIXTURES, 'orders/logs')], output: '-' },
      { maxReportItems: 20, maxReportBuckets: 60 },
    )
    expect(built.unusable).toEqual([])
    const parts = built.model.partitions
    const mixed = parts.find((p) => p.id === 'mixed-0')!
    expect(mixed.items).toBeNull() // 76 items: the largest lane goes first
    expect(mixed.buckets!.length).toBeGreaterThan(0)
    expect(parts.reduce((n, p) => n + (p.items?.length ?? 0), 0)).toBeLessThanOrEqual(20)
    const aggregated = parts.filter((p) => p.buckets !== null)
    for (const p of aggregated)
      expect(p.buckets!.length, p.id).toBeLessThanOrEqual(Math.max(25, Math.floor(60 / aggregated.length)))
    // aggregated or not, the counts are the analysis's
    const sum = mixed.buckets!.reduce((n, b) => n + b.committed, 0)
    expect(sum).toBe(mixed.transactions.committed)
  })
})
