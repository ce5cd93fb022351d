import * as fs from 'node:fs'
import { Chalk } from 'chalk'
import { afterEach, describe, expect, it } from 'vitest'
import { PartitionAnalyzer } from '../../src/analysis/partition-analyzer.js'
import type { BatchFacts } from '../../src/analysis/batch-facts.js'
import type { TimelineRun } from '../../src/analysis/timeline.js'
import { LaneBuilder, PagedLane } from '../../src/analysis/timeline.js'
import { runTxns, txns } from '../../src/commands/txns.js'
import { RunsTableWriter } from '../../src/format/timeline-table.js'
import { writeRunJson } from '../../src/format/run-json-bytes.js'
import { StringWriter } from '../../src/format/writer.js'
import { LogDir, LogWriter, runCommand } from '../support/txn-segment-builder.js'

// `txns` streams: runs reach the printer as they complete, in first-offset order, and what the recorder
// holds back behind an open transaction is capped (then that transaction is listed early and again at its end).

/** a run's `txns --json` text */
function jsonOf(r: TimelineRun): string {
  const w = new StringWriter()
  writeRunJson(w, r, true)
  return w.text
}

const dirs: LogDir[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d.root, { recursive: true, force: true })
})

/** producer 7's transaction stays open while `n` plain runs of alternating producers pass, then commits */
function longTxn(n: number): string {
  const d = new LogDir()
  dirs.push(d)
  const w = new LogWriter()
  w.txn(7n, 0, 2)
  for (let i = 0; i < n; i++) w.plain(1, BigInt(100 + (i % 2)))
  w.txn(7n, 0, 1)
  w.marker(7n, 0, 'COMMIT')
  w.txn(8n, 0, 1)
  w.marker(8n, 0, 'ABORT')
  return d.segment('t', 0, 0n, w.batches)
}

function describeRun(r: TimelineRun): string {
  if (r.kind === 'transaction')
    return `txn ${r.txn.producerId} ${r.txn.firstOffset} ${r.txn.marker?.type ?? 'open'} ${r.txn.records}${r.listed !== undefined ? ` ${r.listed}` : ''}`
  return `${r.kind} ${r.firstOffset}`
}

describe('txns streaming', () => {
  it('holds the runs after an open transaction back until it ends, so the order is by first offset', async () => {
    const dir = longTxn(5)
    const r = txns([dir])
    const p = r.partitions[0]!
    expect(p.kind).toBe('timeline')
    if (p.kind !== 'timeline') return
    expect(p.runs.map(describeRun)).toEqual([
      'txn 7 0 COMMIT 3',
      'plain 2',
      'plain 3',
      'plain 4',
      'plain 5',
      'plain 6',
      'txn 8 9 ABORT 1',
    ])
    expect(p.lane.chars.join('')).toBe('C.....C|A|')
    const text = (await runCommand(runTxns, { paths: [dir] })).out
    expect(text).toContain('lane [C.....C|A|]')
    expect(text).not.toContain('listed')
  })

  it('lists the open transaction early, and again where it ends, when more runs wait than it may hold', async () => {
    const dir = longTxn(6)
    const runs: TimelineRun[] = []
    const { partitions } = await import('../../src/scan/partition-paths.js').then((m) => m.resolvePartitions([dir]))
    const { scanPartition } = await import('../../src/scan/partition-scan.js')
    const lane = new LaneBuilder(11, 80)
    scanPartition(
      partitions[0]!,
      new Map(),
      { analyzer: () => ({ timeline: { sink: (x) => runs.push(x), lane } }) },
      { analyzer: { maxHeldRuns: 3 } },
    )
    expect(runs.map(describeRun)).toEqual([
      'txn 7 0 open 2 early',
      'plain 2',
      'plain 3',
      'plain 4',
      'plain 5',
      'plain 6',
      'plain 7',
      'txn 7 0 COMMIT 3 end',
      'txn 8 10 ABORT 1',
    ])
    const chalk = new Chalk({ level: 0 })
    // one run as a row of the wide runs table (the text printer's layout)
    const row = (r: TimelineRun): string => {
      const sw = new StringWriter()
      const w = new RunsTableWriter(sw, chalk, true)
      w.add(r)
      w.flush()
      return sw.text.split('\n')[1]!.replace(/\s+/g, ' ').trim()
    }
    expect(row(runs[0]!)).toMatch(/OPEN \(no marker yet\) .*listed before its end, as it stood/)
    expect(row(runs[7]!)).toMatch(
      /committed COMMIT at 9 0 .*interleaved with other producers; the transaction listed early above, where it ends$/,
    )
    expect(JSON.parse(jsonOf(runs[7]!))).toMatchObject({
      outcome: 'committed',
      marker: { type: 'COMMIT' },
      listed: 'end',
    })
    // the lane does not depend on how the runs were listed
    expect(lane.result().chars.join('')).toBe('C......C|A|')
  })

  it('a transaction that never ends holds back at most the cap: the runs after it reach the sink during the scan', () => {
    let received = 0
    const a = new PartitionAnalyzer(
      {
        topic: 't',
        partition: 0,
        logStartOffset: 0n,
        snapshots: [],
        checkpointHighWatermark: null,
        txnIndex: null,
        timeline: {
          sink: () => {
            received++
          },
          lane: new LaneBuilder(20_001, 80),
        },
      },
      { maxHeldRuns: 100 },
    )
    const b: BatchFacts = {
      baseOffset: 0n,
      lastOffset: 0n,
      recordsCount: 1,
      producerId: 1n,
      producerEpoch: 0,
      isTransactional: true,
      isControl: false,
      baseTimestamp: 0n,
      maxTimestamp: 0n,
      control: undefined,
    }
    a.add(b)
    for (let i = 1; i <= 20_000; i++) {
      b.baseOffset = BigInt(i)
      b.lastOffset = BigInt(i)
      b.producerId = BigInt(10 + (i % 2))
      b.isTransactional = false
      a.add(b)
    }
    expect(received).toBeGreaterThan(19_000) // all but the cap (and the run still growing) while streaming
    const before = received
    a.finish(null, [])
    expect(received - before).toBeLessThanOrEqual(102)
  })
})

describe('txns in one scan: the runs and the lane held until the partition ends', () => {
  it('a paged lane folds into the lane a batch count known in advance gives, for any count and width, marks reaching back past its window', () => {
    let x = 99
    const rnd = (n: number): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0
      return x % n
    }
    const kinds = ['.', '+', '|', 'C', 'A', 'O'] as const
    for (const [batches, width] of [
      [0, 80],
      [1, 80],
      [79, 80],
      [80, 80],
      [81, 80],
      [5000, 80],
      [5000, 7],
      [3, 200],
    ] as const) {
      // the store: what left the 64-batch window, a byte a batch
      let bytes = new Uint8Array(0)
      let written = 0
      const store = {
        writeAt(at: number, b: Uint8Array) {
          if (at + b.length > bytes.length) {
            const n = new Uint8Array(2 * (at + b.length))
            n.set(bytes)
            bytes = n
          }
          bytes.set(b, at)
          written++
        },
        readAt(at: number, into: Uint8Array) {
          into.fill(0)
          into.set(bytes.subarray(at, at + into.length))
        },
      }
      const paged = new PagedLane(64, () => store)
      const known = new LaneBuilder(batches, width)
      for (let i = 0; i < batches; i++) {
        const c = kinds[rnd(kinds.length)]!
        paged.mark(paged.group(i), c)
        known.mark(known.group(i), c)
        // a transaction's outcome marks its earlier batches when its marker comes
        if (i > 0 && rnd(10) === 0) {
          const j = rnd(i)
          const k = kinds[rnd(kinds.length)]!
          paged.mark(j, k)
          known.mark(known.group(j), k)
        }
      }
      expect(paged.fold(batches, width)).toEqual(known.result())
      expect(written > 0).toBe(batches > 64)
    }
  })

  /** `n` one-batch plain runs of alternating producers, then producer 7's committed transaction */
  function plainRuns(n: number): string {
    const d = new LogDir()
    dirs.push(d)
    const w = new LogWriter()
    for (let i = 0; i < n; i++) w.plain(1, BigInt(100 + (i % 2)))
    w.txn(7n, 0, 2)
    w.marker(7n, 0, 'COMMIT')
    return d.segment('t', 0, 0n, w.batches)
  }

  // read once at any size: the first 4,096 runs held, the rest spilled to a scratch file and read back (5,000
  // one-record batches: 350 KB, 9,000: two chunks)
  for (const n of [3, 3000, 5000, 9000]) {
    it(`${n + 1} runs: every run once, in offset order, and the lane of ${n + 2} batches`, async () => {
      const dir = plainRuns(n)
      const { code, out } = await runCommand(runTxns, { paths: [dir], wide: true })
      expect(code).toBe(0)
      const rows = out.split('\n').filter((l) => /^\s+\d+(\.\.\d+)?\s/.test(l))
      expect(rows.length).toBe(n + 1)
      expect(rows.slice(0, n).map((l) => l.trim().split(/\s+/)[0])).toEqual(
        Array.from({ length: n }, (_, i) => String(i)),
      )
      expect(rows[n]).toMatch(new RegExp(`^\\s+${n}\\.\\.${n + 1}\\s.*committed`))
      // batches 0..n-1 plain ('.'), n the transaction's data ('C' once committed), n+1 its marker ('|'); a
      // character for `per` batches shows the most important of them (C, then |, then .)
      const per = Number(/\(1 lane char = (\d+) batches\)/.exec(out)?.[1] ?? 1)
      expect(per > 1).toBe(n > 100)
      const chars = Array.from({ length: Math.ceil((n + 2) / per) }, (_, g) => {
        const from = g * per
        const to = Math.min(n + 2, from + per) - 1
        return from <= n && n <= to ? 'C' : to === n + 1 ? '|' : '.'
      })
      expect(out).toContain(`lane [${chars.join('')}]`)
    })
  }
})
