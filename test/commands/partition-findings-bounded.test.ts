// Issue #14: reconcile, txns and lso keep at most MAX_LISTED_PER_CODE findings of each code in a partition's
// report and count the rest (the orders-11 bench kept ~180k DUPLICATE_MARKER findings until its report).
// Text and --json say how many were not listed; the exit code still follows every finding.
import { afterEach, describe, expect, it } from 'vitest'
import { MAX_LISTED_PER_CODE } from '../../src/analysis/finding-list.js'
import { FindingList } from '../../src/analysis/finding-list.js'
import type { Finding, FindingCode } from '../../src/analysis/findings.js'
import { finding } from '../../src/analysis/findings.js'
import { TxnIndexChecker } from '../../src/analysis/txn-index-check.js'
import { TxnIndexTable } from '../../src/decode/txn-index-table.js'
import { runLso } from '../../src/commands/lso.js'
import { runReconcile } from '../../src/commands/reconcile.js'
import { runTxns } from '../../src/commands/txns.js'
import { lso, reconcile, txns } from '../../src/index.js'
import * as fs from 'node:fs'
import * as nodePath from 'node:path'
import { encodeBatch, encodeTxnIndex, LogDir, LogWriter, runCommand } from '../support/txn-segment-builder.js'

const dirs: LogDir[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove()
})
function logDir(): LogDir {
  const d = new LogDir()
  dirs.push(d)
  return d
}

const N = MAX_LISTED_PER_CODE
const EXTRA = 250

interface PartitionJson {
  findings: Array<{ code: string; severity: string }>
  omittedFindings: Record<string, number>
}

/** one committed transaction, then its COMMIT repeated N + EXTRA times (KAFKA-19999 duplicates: info) */
function duplicateMarkers(d: LogDir): string {
  const w = new LogWriter()
  w.txn(7n, 1, 2)
  w.marker(7n, 1, 'COMMIT')
  for (let i = 0; i < N + EXTRA; i++) w.marker(7n, 1, 'COMMIT')
  d.segment('dups', 0, 0n, w.batches)
  return d.partitionPath('dups', 0)
}

/** producer 9's transaction open while it writes N + EXTRA non-transactional batches (a warning each), then committed */
function nonTransactionalInOpen(d: LogDir): string {
  const w = new LogWriter()
  w.txn(9n, 0, 1)
  for (let i = 0; i < N + EXTRA; i++) w.plain(1, 9n)
  w.marker(9n, 0, 'COMMIT')
  d.segment('mixed', 0, 0n, w.batches)
  return d.partitionPath('mixed', 0)
}

function codes(p: PartitionJson, code: string): number {
  return p.findings.filter((f) => f.code === code).length
}

describe("a partition's findings are bounded per code and the rest counted", () => {
  it('reconcile: N duplicate markers listed, the rest counted, in --json and in text; exit 0 (info only)', async () => {
    const path = duplicateMarkers(logDir())
    const j = await runCommand(runReconcile, { paths: [path], format: 'json' })
    const p = (JSON.parse(j.out) as { partitions: PartitionJson[] }).partitions[0]!
    expect(codes(p, 'DUPLICATE_MARKER')).toBe(N)
    expect(p.omittedFindings).toEqual({ DUPLICATE_MARKER: EXTRA })
    expect(j.code).toBe(0)
    const t = await runCommand(runReconcile, { paths: [path] })
    expect(t.code).toBe(0)
    expect(t.err).toContain(`... and ${EXTRA} more DUPLICATE_MARKER not listed`)
    expect(t.err).toMatch(/^tsdump: info: .*dups-0: \.\.\. and 250 more DUPLICATE_MARKER .*\[DUPLICATE_MARKER\]$/m)
  })

  it('a warning repeated past the bound: same exit code 1 from reconcile, txns and lso, text and --json', async () => {
    const path = nonTransactionalInOpen(logDir())
    for (const format of ['text', 'json'] as const) {
      const r = await runCommand(runReconcile, { paths: [path], format })
      expect(r.code).toBe(1)
      const t = await runCommand(runTxns, { paths: [path], format })
      expect(t.code).toBe(1)
      const l = await runCommand(runLso, { paths: [path], format, now: 1_700_000_000_000 })
      expect(l.code).toBe(1)
      if (format === 'text') {
        for (const x of [r, t, l])
          expect(x.err).toMatch(
            /: \.\.\. and 250 more NON_TRANSACTIONAL_IN_OPEN_TXN not listed .*\[NON_TRANSACTIONAL_IN_OPEN_TXN\]$/m,
          )
        continue
      }
      const pr = (JSON.parse(r.out) as { partitions: PartitionJson[] }).partitions[0]!
      const pt = (JSON.parse(t.out) as { partitions: PartitionJson[] }).partitions[0]!
      const pl = (JSON.parse(l.out) as { partitions: PartitionJson[] }).partitions[0]!
      for (const p of [pr, pt, pl]) {
        expect(codes(p, 'NON_TRANSACTIONAL_IN_OPEN_TXN')).toBe(N)
        expect(p.omittedFindings).toEqual({ NON_TRANSACTIONAL_IN_OPEN_TXN: EXTRA })
      }
    }
  })

  it('the library returns the same bounded report', () => {
    const path = duplicateMarkers(logDir())
    for (const r of [
      reconcile([path]).partitions[0]!.report,
      txns([path]).partitions[0]!.report,
      lso([path]).partitions[0]!.report,
    ]) {
      expect(r.findings.filter((f) => f.code === 'DUPLICATE_MARKER')).toHaveLength(N)
      expect(r.omittedFindings).toEqual({ DUPLICATE_MARKER: EXTRA })
      // the counts are the markers' own: every duplicate is still counted once as a COMMIT batch
      expect(r.controlBatches.COMMIT).toBe(N + EXTRA + 1)
    }
  })

  it('aborted transactions missing from the .txnindex: the checker keeps N, counts the rest', async () => {
    const d = logDir()
    const w = new LogWriter()
    for (let i = 0; i < N + EXTRA; i++) {
      w.txn(5n, 0, 1)
      w.marker(5n, 0, 'ABORT')
    }
    d.segment('noidx', 0, 0n, w.batches)
    d.txnIndex('noidx', 0, 0n, [])
    const r = await runCommand(runReconcile, { paths: [d.partitionPath('noidx', 0)], format: 'json' })
    expect(r.code).toBe(1)
    const p = (JSON.parse(r.out) as { partitions: PartitionJson[] }).partitions[0]!
    expect(codes(p, 'TXNINDEX_MISSING_ENTRY')).toBe(N)
    expect(p.omittedFindings.TXNINDEX_MISSING_ENTRY).toBe(EXTRA)
  })

  it('.txnindex entries whose first offset disagrees with the log: N findings kept, the rest counted', async () => {
    const d = logDir()
    const w = new LogWriter()
    const entries = []
    for (let i = 0; i < N + EXTRA; i++) {
      const first = w.next
      w.txn(5n, 0, 1)
      w.marker(5n, 0, 'ABORT')
      // the entry says the transaction began at its ABORT marker: a first-offset mismatch
      entries.push({ producerId: 5n, firstOffset: first + 1n, lastOffset: first + 1n, lastStableOffset: first + 2n })
    }
    d.segment('firstoff', 0, 0n, w.batches)
    d.txnIndex('firstoff', 0, 0n, entries)
    const r = await runCommand(runReconcile, { paths: [d.partitionPath('firstoff', 0)], format: 'json' })
    expect(r.code).toBe(1)
    const p = (JSON.parse(r.out) as { partitions: PartitionJson[] }).partitions[0]!
    expect(codes(p, 'TXNINDEX_FIRST_OFFSET_MISMATCH')).toBe(N)
    expect(p.omittedFindings.TXNINDEX_FIRST_OFFSET_MISMATCH).toBe(EXTRA)
  })

  it('the txnindex checker itself hands out at most N findings of a code (its memory), and counts the rest', () => {
    const entries = Array.from({ length: N + EXTRA }, (_v, i) => ({
      producerId: 5n,
      firstOffset: BigInt(2 * i + 1),
      lastOffset: BigInt(2 * i + 1),
      lastStableOffset: BigInt(2 * i + 2),
    }))
    const table = new TxnIndexTable()
    table.addFile('00000000000000000000.txnindex', encodeTxnIndex(entries))
    const c = new TxnIndexChecker(table)
    for (let i = 0; i < N + EXTRA; i++) {
      c.abortedTxn({
        producerId: 5n,
        firstOffset: BigInt(2 * i),
        lastOffset: BigInt(2 * i + 1),
        lastStableOffset: BigInt(2 * i + 2),
      }) // first offset differs
      c.abortedTxn({
        producerId: 6n,
        firstOffset: BigInt(2 * i),
        lastOffset: BigInt(2 * i + 1),
        lastStableOffset: BigInt(2 * i + 2),
      }) // no entry
    }
    const pushed: Finding[] = []
    const counted: Partial<Record<FindingCode, number>> = {}
    c.findings(0n, BigInt(2 * (N + EXTRA)), {
      push: (f) => pushed.push(f),
      count: (code, n) => {
        counted[code] = (counted[code] ?? 0) + n
      },
    })
    expect(pushed.filter((f) => f.code === 'TXNINDEX_FIRST_OFFSET_MISMATCH')).toHaveLength(N)
    expect(pushed.filter((f) => f.code === 'TXNINDEX_MISSING_ENTRY')).toHaveLength(N)
    expect(counted).toMatchObject({ TXNINDEX_FIRST_OFFSET_MISMATCH: EXTRA, TXNINDEX_MISSING_ENTRY: EXTRA })
  })

  it("txns on a __transaction_state partition: the transaction log's decode findings are bounded too", async () => {
    const d = logDir()
    const dir = d.partitionPath('__transaction_state', 0)
    // each batch's first record length becomes the varint 0x7f (-64): one BAD_RECORD per batch
    const bufs = Array.from({ length: N + EXTRA }, (_v, i) => {
      const b = encodeBatch({ baseOffset: BigInt(i) })
      b[61] = 0x7f
      return b
    })
    fs.writeFileSync(nodePath.join(dir, '00000000000000000000.log'), Buffer.concat(bufs))
    const j = await runCommand(runTxns, { paths: [dir], format: 'json' })
    expect(j.code).toBe(1)
    const p = (JSON.parse(j.out) as { partitions: PartitionJson[] }).partitions[0]!
    expect(codes(p, 'BAD_RECORD')).toBe(N)
    expect(p.omittedFindings).toEqual({ BAD_RECORD: EXTRA })
    const t = await runCommand(runTxns, { paths: [dir] })
    expect(t.code).toBe(1)
    expect(t.err).toMatch(
      /^tsdump: error: __transaction_state-0: \.\.\. and 250 more BAD_RECORD not listed .*\[BAD_RECORD\]$/m,
    )
  })

  it('FindingList: a code is counted only after max are listed (so the exit code of the listed is that of all)', () => {
    const l = new FindingList(2)
    for (let i = 0; i < 5; i++) l.push(finding('DUPLICATE_MARKER', `d${i}`))
    l.push(finding('CRC_MISMATCH', 'c'))
    expect(l.listed.map((f) => f.message)).toEqual(['d0', 'd1', 'c'])
    expect(l.omitted).toEqual({ DUPLICATE_MARKER: 3 })
    const m = new FindingList(2)
    m.absorb(l)
    expect(m.omitted).toEqual({ DUPLICATE_MARKER: 3 })
    expect(() => new FindingList(0)).toThrow(RangeError)
  })
})
