import { afterEach, describe, expect, it } from 'vitest'
import { runReconcile } from '../../src/commands/reconcile.js'
import { buildOrders11, LogDir, LogWriter, runCommand } from '../support/txn-segment-builder.js'

const dirs: LogDir[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove()
})
function logDir(): LogDir {
  const d = new LogDir()
  dirs.push(d)
  return d
}

interface PartitionJson {
  topic: string | null
  partition: number | null
  logEndOffset: number
  highWatermark: number
  highWatermarkSource: string
  lastStableOffset: number
  readCommitted: number
  readUncommitted: number
  abortedRecords: number
  pendingRecords: number
  controlBatches: Record<string, number>
  transactions: Record<string, number>
  openTransactions: Array<Record<string, unknown>>
  findings: Array<{ severity: string; code: string }>
  readCommittedByTxnIndex: number | null
}
interface ReconcileJson {
  partitions: PartitionJson[]
  topics: Array<{ topic: string; partitions: number; readCommitted: number; readUncommitted: number }>
}

async function reconcileJson(paths: string[]): Promise<{ code: number; json: ReconcileJson; err: string }> {
  const r = await runCommand(runReconcile, { paths, format: 'json' })
  return { code: r.code, json: JSON.parse(r.out) as ReconcileJson, err: r.err }
}

describe("reconcile: the chapter's orders-11", () => {
  it('topic read_committed 8, read_uncommitted 16', async () => {
    const d = logDir()
    buildOrders11(d)
    const { code, json } = await reconcileJson([d.root])
    expect(code).toBe(0)
    expect(json.topics).toEqual([{ topic: 'orders-11', partitions: 3, readCommitted: 8, readUncommitted: 16 }])
    const p0 = json.partitions.find((p) => p.partition === 0)!
    expect(p0).toMatchObject({
      topic: 'orders-11',
      logEndOffset: 16,
      highWatermark: 16,
      highWatermarkSource: 'checkpoint',
      lastStableOffset: 16,
      readCommitted: 6,
      readUncommitted: 14,
      abortedRecords: 8,
      pendingRecords: 0,
      controlBatches: { COMMIT: 1, ABORT: 1 },
      transactions: { committed: 1, aborted: 1, empty: 0, open: 0 },
      openTransactions: [],
      readCommittedByTxnIndex: 6,
    })
    expect(p0.findings.filter((f) => f.severity !== 'info')).toEqual([])
    const p1 = json.partitions.find((p) => p.partition === 1)!
    expect(p1).toMatchObject({
      readCommitted: 0,
      readUncommitted: 0,
      transactions: { committed: 0, aborted: 0, empty: 1, open: 0 },
      controlBatches: { ABORT: 1 },
    })
  })

  it('prints a table with a per-topic total', async () => {
    const d = logDir()
    buildOrders11(d)
    const r = await runCommand(runReconcile, { paths: [d.root], wide: true })
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/orders-11-0\s+16\s+16\s+16\s+6\s+14\s+8\s+0\s+1\s+1\s+0/)
    expect(r.out).toMatch(/orders-11\s+3\s+8\s+16/)
    // within 80 columns the marker counts give way; what consumers see stays
    const narrow = await runCommand(runReconcile, { paths: [d.root] })
    expect(narrow.out).toMatch(/orders-11-0\s+16\s+16\s+16\s+6\s+14\s+8\s+0\s+0\n/)
    expect(narrow.out).toContain('(--wide shows 2 more columns: COMMIT, ABORT)')
  })
})

describe('reconcile: transactions and bounds', () => {
  it('an open transaction holds the LSO at its first offset; HW falls back to the log end', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.plain(3)
    w.txn(7n, 0, 4)
    w.plain(2)
    w.txn(7n, 0, 1)
    d.segment('t', 0, 0n, w.batches)
    const { code, json } = await reconcileJson([d.partitionPath('t', 0)])
    expect(code).toBe(0)
    const p = json.partitions[0]!
    expect(p).toMatchObject({
      logEndOffset: 10,
      highWatermark: 10,
      highWatermarkSource: 'logEndOffset',
      lastStableOffset: 3,
      readCommitted: 3,
      readUncommitted: 10,
      pendingRecords: 7,
      transactions: { open: 1 },
    })
    expect(p.openTransactions).toEqual([
      {
        producerId: 7,
        producerEpoch: 0,
        firstOffset: 3,
        lastDataOffset: 9,
        records: 5,
        outcome: 'open',
        marker: null,
        firstTimestamp: 1_700_000_001_000,
        lastTimestamp: 1_700_000_003_000,
        coordinatorEpoch: null,
        state: 'open',
        seeded: false,
      },
    ])
  })

  it('follows a transaction across segments', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.txn(5n, 2, 3)
    w.plain(1)
    d.segment('span', 0, 0n, w.batches.splice(0))
    const base = w.next
    w.txn(5n, 2, 2)
    w.marker(5n, 2, 'COMMIT')
    w.plain(2)
    d.segment('span', 0, base, w.batches)
    const { json } = await reconcileJson([d.partitionPath('span', 0)])
    expect(json.partitions[0]).toMatchObject({
      logEndOffset: 9,
      lastStableOffset: 9,
      readCommitted: 8,
      readUncommitted: 8,
      transactions: { committed: 1, aborted: 0, empty: 0, open: 0 },
    })
  })

  it("a duplicate same-epoch marker with no open transaction (KAFKA-19999) is counted once and noted; a new epoch's marker is an empty transaction", async () => {
    const d = logDir()
    const w = new LogWriter()
    w.txn(7n, 1, 3)
    w.marker(7n, 1, 'COMMIT')
    w.marker(7n, 1, 'COMMIT')
    w.plain(1)
    w.marker(7n, 2, 'ABORT')
    d.segment('dup', 0, 0n, w.batches)
    const { json } = await reconcileJson([d.partitionPath('dup', 0)])
    const p = json.partitions[0]!
    expect(p).toMatchObject({
      readCommitted: 4,
      readUncommitted: 4,
      controlBatches: { COMMIT: 2, ABORT: 1 },
      transactions: { committed: 1, aborted: 0, empty: 1, open: 0 },
    })
    expect(p.findings.filter((f) => f.code === 'DUPLICATE_MARKER')).toMatchObject([{ severity: 'info' }])
    // the same after a plain batch of another producer in between: only this producer's data ends the memory
    const w2 = new LogWriter()
    w2.txn(7n, 1, 2)
    w2.marker(7n, 1, 'ABORT')
    w2.txn(8n, 0, 1)
    w2.marker(8n, 0, 'COMMIT')
    w2.marker(7n, 1, 'ABORT')
    w2.txn(7n, 1, 1)
    w2.marker(7n, 1, 'ABORT')
    d.segment('dup2', 0, 0n, w2.batches)
    const q = (await reconcileJson([d.partitionPath('dup2', 0)])).json.partitions[0]!
    expect(q).toMatchObject({ transactions: { committed: 1, aborted: 2, empty: 0, open: 0 } })
    expect(q.findings.filter((f) => f.code === 'DUPLICATE_MARKER')).toHaveLength(1)
  })

  it('a checkpoint HW below the log end limits both isolation levels; a marker at or above the HW keeps its transaction unstable', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.plain(2)
    w.txn(9n, 0, 3)
    w.marker(9n, 0, 'COMMIT')
    w.plain(1)
    d.segment('hw', 0, 0n, w.batches)
    d.highWatermark('hw', 0, 5n)
    const { json } = await reconcileJson([d.partitionPath('hw', 0)])
    expect(json.partitions[0]).toMatchObject({
      logEndOffset: 7,
      highWatermark: 5,
      lastStableOffset: 2,
      readCommitted: 2,
      readUncommitted: 5,
    })
    expect(json.partitions[0]!.openTransactions[0]).toMatchObject({ firstOffset: 2, state: 'awaiting-high-watermark' })
  })

  it('seeds a transaction open before the first segment from the producer snapshot at the log start', async () => {
    const d = logDir()
    const w = new LogWriter(100n)
    w.plain(2)
    w.txn(11n, 3, 2)
    w.marker(11n, 3, 'ABORT', 4)
    d.segment('seed', 0, 100n, w.batches)
    d.snapshot('seed', 0, 100n, [
      { producerId: 11n, producerEpoch: 3, coordinatorEpoch: 4, currentTxnFirstOffset: 90n, lastOffset: 99n },
    ])
    d.txnIndex('seed', 0, 100n, [{ producerId: 11n, firstOffset: 90n, lastOffset: 104n, lastStableOffset: 105n }])
    const { code, json } = await reconcileJson([d.partitionPath('seed', 0)])
    expect(code).toBe(0)
    const p = json.partitions[0]!
    // the plain records 100..101 are written while producer 11's transaction is open: they are still read_committed-visible once it ends
    expect(p).toMatchObject({
      logStartOffset: 100,
      lastStableOffset: 105,
      readCommitted: 2,
      readUncommitted: 4,
      abortedRecords: 2,
      transactions: { committed: 0, aborted: 1, empty: 0, open: 0 },
    })
    expect(p.findings.filter((f) => f.severity === 'error')).toEqual([])
  })

  it('seeded and still open: the LSO is clamped to the log start', async () => {
    const d = logDir()
    const w = new LogWriter(50n)
    w.plain(2)
    d.segment('seed2', 0, 50n, w.batches)
    d.snapshot('seed2', 0, 50n, [{ producerId: 12n, producerEpoch: 0, currentTxnFirstOffset: 40n }])
    const { json } = await reconcileJson([d.partitionPath('seed2', 0)])
    expect(json.partitions[0]).toMatchObject({
      lastStableOffset: 50,
      readCommitted: 0,
      readUncommitted: 2,
      pendingRecords: 2,
    })
    expect(json.partitions[0]!.openTransactions[0]).toMatchObject({
      producerId: 12,
      firstOffset: 40,
      seeded: true,
      lastDataOffset: null,
    })
  })

  it('reports a .txnindex that disagrees with the markers, with what consumers would see', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.txn(1n, 0, 5)
    w.marker(1n, 0, 'ABORT')
    w.txn(2n, 0, 3)
    w.marker(2n, 0, 'COMMIT')
    d.segment('bad', 0, 0n, w.batches)
    // the entry for producer 1's abort is missing; an entry claims producer 2 aborted
    d.txnIndex('bad', 0, 0n, [{ producerId: 2n, firstOffset: 6n, lastOffset: 9n, lastStableOffset: 10n }])
    const { code, json } = await reconcileJson([d.partitionPath('bad', 0)])
    expect(code).toBe(1)
    const p = json.partitions[0]!
    expect(p.readCommitted).toBe(3)
    expect(p.readCommittedByTxnIndex).toBe(5)
    const codes = p.findings.map((f) => f.code)
    expect(codes).toContain('TXNINDEX_MISSING_ENTRY')
    expect(codes).toContain('TXNINDEX_UNEXPECTED_ENTRY')
    expect(codes).toContain('CONSUMER_VIEW_DIFFERS')
  })

  it("an entry at an ABORT marker whose data is gone (the cleaner's) is no error, unless consumers would skip committed data", async () => {
    const d = logDir()
    const w = new LogWriter()
    w.txn(1n, 0, 3)
    w.marker(1n, 0, 'COMMIT')
    w.marker(1n, 1, 'ABORT')
    d.segment('cleaned', 0, 0n, w.batches)
    // harmless: the entry covers only the marker's own offset range after the commit
    d.txnIndex('cleaned', 0, 0n, [{ producerId: 1n, firstOffset: 4n, lastOffset: 4n, lastStableOffset: 5n }])
    let { json } = await reconcileJson([d.partitionPath('cleaned', 0)])
    expect(json.partitions[0]!.findings.filter((f) => f.severity === 'error')).toEqual([])
    // an entry reaching back over the committed data hides it from read_committed consumers
    const d2 = logDir()
    d2.segment('stale', 0, 0n, w.batches)
    d2.txnIndex('stale', 0, 0n, [{ producerId: 1n, firstOffset: 0n, lastOffset: 4n, lastStableOffset: 5n }])
    ;({ json } = await reconcileJson([d2.partitionPath('stale', 0)]))
    expect(json.partitions[0]!.findings.map((f) => f.code)).toContain('CONSUMER_VIEW_DIFFERS')
  })

  it('counts LEADER_CHANGE control batches by type and never as markers', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.txn(3n, 0, 2)
    w.leaderChange()
    w.plain(1)
    w.leaderChange()
    d.segment('kraft', 0, 0n, w.batches)
    const { json } = await reconcileJson([d.partitionPath('kraft', 0)])
    const p = json.partitions[0]!
    expect(p.controlBatches).toEqual({ COMMIT: 0, ABORT: 0, LEADER_CHANGE: 2 })
    expect(p).toMatchObject({
      transactions: { open: 1, committed: 0, aborted: 0, empty: 0 },
      lastStableOffset: 0,
      readUncommitted: 3,
    })
  })

  it('an empty transaction (marker without data) does not move the LSO', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.plain(2)
    w.marker(8n, 0, 'COMMIT')
    w.plain(1)
    d.segment('empty', 0, 0n, w.batches)
    const { json } = await reconcileJson([d.partitionPath('empty', 0)])
    expect(json.partitions[0]).toMatchObject({
      lastStableOffset: 4,
      readCommitted: 3,
      transactions: { empty: 1, committed: 0 },
    })
  })

  it('counts recordsCount for compacted batches, not the offset span', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.compacted(2, 10)
    w.plain(1)
    d.segment('compact', 0, 0n, w.batches)
    const { json } = await reconcileJson([d.partitionPath('compact', 0)])
    expect(json.partitions[0]).toMatchObject({ logEndOffset: 11, readCommitted: 3, readUncommitted: 3 })
  })

  it('a bare .log outside a partition directory gets topic null', async () => {
    const d = logDir()
    const w = new LogWriter()
    w.plain(2)
    d.segment('x', 0, 0n, w.batches)
    const fs = await import('node:fs')
    const path = await import('node:path')
    const bare = path.join(d.root, '00000000000000000000.log')
    fs.copyFileSync(path.join(d.partitionPath('x', 0), '00000000000000000000.log'), bare)
    const { json } = await reconcileJson([bare])
    expect(json.partitions[0]).toMatchObject({ topic: null, partition: null, readUncommitted: 2 })
    expect(json.topics).toEqual([])
  })

  it('exits 2 naming a path that does not exist', async () => {
    const r = await runCommand(runReconcile, { paths: ['/nonexistent/orders-0'] })
    expect(r.code).toBe(2)
    expect(r.err).toContain('/nonexistent/orders-0')
    expect(r.out).toBe('')
  })
})
