import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PartitionAnalyzer } from '../../src/analysis/partition-analyzer.js'
import type { AnalyzerStats } from '../../src/analysis/partition-analyzer.js'
import { TxnIndexTable } from '../../src/decode/txn-index-table.js'
import type { BatchFacts } from '../../src/analysis/batch-facts.js'
import { runReconcile } from '../../src/commands/reconcile.js'
import type { AbortedTxnSpec } from '../support/txn-segment-builder.js'
import { encodeBatch, encodeTxnIndex, LogDir, runCommand } from '../support/txn-segment-builder.js'

// The analysis must not keep anything per batch: its structures follow the open transactions (and the
// producers that wrote markers), whatever the number of batches.

const N_ROUNDS = 40_000 // 5 batches a round: 200k batches

/** One reused BatchFacts per call, like the partition scan. `hang`: producer 1 opens a transaction first and never ends it. */
function* stream(rounds: number, hang: boolean): Generator<BatchFacts> {
  const b: BatchFacts = {
    baseOffset: 0n,
    lastOffset: 0n,
    recordsCount: 1,
    producerId: -1n,
    producerEpoch: 0,
    isTransactional: false,
    isControl: false,
    baseTimestamp: 0n,
    maxTimestamp: 0n,
    control: undefined,
  }
  let next = 0n
  const emit = (pid: bigint, txn: boolean, control: 'COMMIT' | 'ABORT' | null): BatchFacts => {
    b.baseOffset = next
    b.lastOffset = next
    b.producerId = pid
    b.isTransactional = txn
    b.isControl = control !== null
    b.control =
      control === null ? undefined : { type: control === 'ABORT' ? 0 : 1, typeName: control, coordinatorEpoch: 0 }
    next++
    return b
  }
  if (hang) yield emit(1n, true, null)
  for (let r = 0; r < rounds; r++) {
    const pid = BigInt(10 + (r % 1000)) // 1000 producers, reused
    yield emit(pid, true, null)
    yield emit(-1n, false, null)
    yield emit(pid + 5000n, true, null)
    yield emit(pid, true, r % 3 === 0 ? 'ABORT' : 'COMMIT')
    yield emit(pid + 5000n, true, 'COMMIT')
  }
}

function maxStats(a: PartitionAnalyzer, rounds: number, hang: boolean): AnalyzerStats {
  const max: AnalyzerStats = {
    batches: 0,
    openTransactions: 0,
    intervals: 0,
    pendingEntries: 0,
    producersWithMarkers: 0,
    abortedProducers: 0,
  }
  let i = 0
  for (const b of stream(rounds, hang)) {
    a.add(b)
    if (++i % 997 === 0) {
      const s = a.stats()
      for (const k of Object.keys(max) as Array<keyof AnalyzerStats>) max[k] = Math.max(max[k], s[k])
    }
  }
  return max
}

function abortedIndex(rounds: number, hang: boolean): TxnIndexTable {
  const entries: AbortedTxnSpec[] = []
  const base = hang ? 1n : 0n
  for (let r = 0; r < rounds; r += 3) {
    const o = base + BigInt(r) * 5n
    entries.push({
      producerId: BigInt(10 + (r % 1000)),
      firstOffset: o,
      lastOffset: o + 3n,
      lastStableOffset: hang ? 0n : o + 2n,
    })
  }
  return TxnIndexTable.from(entries)
}

describe('streaming transaction analysis: memory follows open transactions, not batches', () => {
  for (const hang of [false, true]) {
    it(`200k batches${hang ? ' behind a transaction that never ends' : ''}`, () => {
      const a = new PartitionAnalyzer({
        topic: 't',
        partition: 0,
        logStartOffset: 0n,
        snapshots: [],
        checkpointHighWatermark: null,
        txnIndex: abortedIndex(N_ROUNDS, hang),
      })
      const max = maxStats(a, N_ROUNDS, hang)
      expect(max.batches).toBeGreaterThan(190_000)
      expect(max.openTransactions).toBeLessThanOrEqual(3)
      expect(max.intervals).toBeLessThanOrEqual(3)
      expect(max.pendingEntries).toBeLessThanOrEqual(6)
      expect(max.abortedProducers).toBeLessThanOrEqual(2)
      expect(max.producersWithMarkers).toBeLessThanOrEqual(2000)
      const r = a.finish(0n, [])
      const aborted = Math.ceil(N_ROUNDS / 3)
      expect(r.readUncommitted).toBe(N_ROUNDS * 3 + (hang ? 1 : 0))
      if (hang) {
        expect(r).toMatchObject({
          lastStableOffset: 0n,
          readCommitted: 0,
          abortedRecords: 0,
          pendingRecords: r.readUncommitted,
          readCommittedByTxnIndex: 0,
        })
        expect(r.openTransactions).toHaveLength(1)
      } else {
        expect(r).toMatchObject({
          lastStableOffset: r.logEndOffset,
          abortedRecords: aborted,
          readCommitted: N_ROUNDS * 3 - aborted,
          readCommittedByTxnIndex: N_ROUNDS * 3 - aborted,
        })
      }
      expect(r.findings.filter((f) => f.severity === 'error')).toEqual([])
    })
  }
})

describe('reconcile of a partition with 200k tiny batches', () => {
  let d: LogDir | null = null
  afterEach(() => {
    d?.remove()
    d = null
  })

  it('streams the segment and agrees with the counts', async () => {
    d = new LogDir()
    const dir = d.partitionPath('many', 0)
    const chunks: Buffer[] = []
    for (const b of stream(N_ROUNDS, false)) {
      chunks.push(
        encodeBatch({
          baseOffset: b.baseOffset,
          producerId: b.producerId,
          producerEpoch: b.producerId >= 0n ? 0 : -1,
          transactional: b.isTransactional,
          ...(b.control !== undefined && b.control !== null
            ? { control: b.control.typeName as 'COMMIT' | 'ABORT' }
            : {}),
        }),
      )
    }
    fs.writeFileSync(path.join(dir, '00000000000000000000.log'), Buffer.concat(chunks))
    const t = abortedIndex(N_ROUNDS, false)
    const entries: AbortedTxnSpec[] = []
    for (let i = 0; i < t.length; i++)
      entries.push({
        producerId: t.producerId(i),
        firstOffset: t.firstOffset(i),
        lastOffset: t.lastOffset(i),
        lastStableOffset: t.lastStableOffset(i),
      })
    fs.writeFileSync(path.join(dir, '00000000000000000000.txnindex'), encodeTxnIndex(entries))
    const before = process.memoryUsage().heapUsed
    const r = await runCommand(runReconcile, { paths: [dir], format: 'json' })
    const grew = process.memoryUsage().heapUsed - before
    expect(r.code).toBe(0)
    const aborted = Math.ceil(N_ROUNDS / 3)
    const p = (JSON.parse(r.out) as { partitions: Array<Record<string, unknown>> }).partitions[0]!
    expect(p).toMatchObject({
      logEndOffset: N_ROUNDS * 5,
      lastStableOffset: N_ROUNDS * 5,
      readUncommitted: N_ROUNDS * 3,
      abortedRecords: aborted,
      readCommitted: N_ROUNDS * 3 - aborted,
      readCommittedByTxnIndex: N_ROUNDS * 3 - aborted,
      pendingRecords: 0,
    })
    // a summary object per batch alone would be > 30 MB here; garbage not yet collected can show up, so the bound is loose
    expect(grew).toBeLessThan(64 * 1024 * 1024)
  }, 60_000)
})
