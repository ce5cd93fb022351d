import fc from 'fast-check'
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import { describe, expect, it } from 'vitest'
import type { TimelineRun } from '../../src/analysis/timeline.js'
import { inferTransactionVersion } from '../../src/analysis/transactions.js'
import type { Column, TableCell } from '../../src/format/table.js'
import { fitTable, hiddenNote } from '../../src/format/table.js'
import { RUNS_PER_TABLE, RunsTableWriter } from '../../src/format/timeline-table.js'
import { isoTime } from '../../src/format/timestamp.js'
import { StringWriter } from '../../src/format/writer.js'
import { i64, markerOf, orNull, timelineRun } from '../support/timeline-runs.js'

// RunsTableWriter writes the runs of `txns` as bytes, keeping numbers as numbers. The oracle: each run's
// cells as the README's txns table describes them, laid out by fitTable (test/format/table-fit.test.ts
// checks it against the table rule) per chunk of RUNS_PER_TABLE runs, indented, the header once.

const COLUMNS: Column[] = [
  { header: 'OFFSETS', left: true },
  { header: 'PRODUCER', short: 'PID/EPOCH', left: true },
  { header: 'KIND', left: true },
  { header: 'RECORDS', short: 'RECS' },
  { header: 'OUTCOME', left: true },
  { header: 'MARKER', short: 'MARKER_AT', left: true },
  { header: 'COORDINATOR_EPOCH', short: 'CE', dropRank: 2 },
  { header: 'FIRST_TIMESTAMP', short: 'FIRST (UTC)', left: true, dropRank: 3 },
  { header: 'NOTES', left: true, dropRank: 1 },
]
const range = (a: bigint, b: bigint): string => (a === b ? `${a}` : `${a}..${b}`)
function time(ms: bigint | null): TableCell {
  if (ms === null || ms < 0n) return { text: '' }
  const text = isoTime(ms)
  return { text, short: text.replace(/\.\d{3}Z$/, 'Z') }
}
const VERSION_NOTES = {
  '2': 'transaction version 2 (marker epoch = data epoch + 1)',
  '2 or timeout abort': 'transaction version 2, or a coordinator timeout abort (either bumps the epoch)',
  '0/1': '',
}

function cells(r: TimelineRun, chalk: ChalkInstance): TableCell[] {
  switch (r.kind) {
    case 'plain':
      return [
        { text: range(r.firstOffset, r.lastOffset) },
        { text: `pid ${r.producerId}`, short: `${r.producerId}` },
        { text: 'plain' },
        { text: String(r.records) },
        { text: '' },
        { text: '' },
        { text: '' },
        { text: '' },
        { text: `${r.batches} batch${r.batches === 1 ? '' : 'es'}` },
      ]
    case 'control':
      return [
        { text: String(r.firstOffset) },
        { text: `pid ${r.producerId}`, short: `${r.producerId}` },
        { text: `control ${r.typeName}`, short: r.typeName },
        { text: '' },
        { text: '' },
        { text: '' },
        { text: '' },
        { text: '' },
        { text: '' },
      ]
    case 'transaction': {
      const t = r.txn
      const m = t.marker
      const word = m === null ? chalk.yellow : m.type === 'COMMIT' ? chalk.green : chalk.red
      const outcome: TableCell =
        m === null
          ? { text: 'OPEN (no marker yet)', short: 'OPEN', style: word }
          : { text: t.empty ? '' : m.type === 'COMMIT' ? 'committed' : 'aborted', style: word }
      const marker: TableCell =
        m === null ? { text: '' } : { text: `${m.type} at ${m.offset}`, short: `${m.offset}`, style: word }
      const v = inferTransactionVersion(t)
      const notes = [
        t.markerEpoch !== null && t.markerEpoch !== t.producerEpoch ? `marker epoch ${t.markerEpoch}` : '',
        t.seeded ? `began at ${t.firstOffset}, before the log start (producer snapshot)` : '',
        v === null ? '' : VERSION_NOTES[v],
        r.interleaved ? 'interleaved with other producers' : '',
        r.listed === 'early'
          ? 'listed before its end, as it stood: too many later runs waited behind it; listed again where it ends'
          : '',
        r.listed === 'end' ? 'the transaction listed early above, where it ends' : '',
      ]
        .filter((s) => s !== '')
        .join('; ')
      return [
        { text: t.empty ? String(m?.offset) : range(t.firstOffset, t.lastDataOffset ?? t.firstOffset) },
        { text: `pid ${t.producerId} epoch ${t.producerEpoch}`, short: `${t.producerId}/${t.producerEpoch}` },
        { text: t.empty ? 'empty transaction' : 'transactional', short: t.empty ? 'empty txn' : 'txn' },
        { text: t.empty ? '' : String(t.records) },
        outcome,
        marker,
        { text: t.coordinatorEpoch === null ? '' : String(t.coordinatorEpoch) },
        time(t.firstTimestamp),
        { text: notes },
      ]
    }
  }
}

function expected(runs: readonly TimelineRun[], chalk: ChalkInstance, wide: boolean): string {
  let out = ''
  for (let i = 0; i < runs.length; i += RUNS_PER_TABLE) {
    const t = fitTable(
      COLUMNS,
      runs.slice(i, i + RUNS_PER_TABLE).map((r) => cells(r, chalk)),
      chalk,
      { wide, width: 78 },
    )
    const text = i === 0 ? t.text + hiddenNote(t.hidden) : t.text.slice(t.text.indexOf('\n') + 1)
    out += text
      .split('\n')
      .map((l) => (l === '' ? l : `  ${l}`))
      .join('\n')
  }
  return out
}

const ts = fc.oneof(
  fc.bigInt({ min: 1_600_000_000_000n, max: 1_800_000_000_000n }),
  fc.constantFrom(-1n, 0n, 8_640_000_000_000_001n, 253402300800000n, 253402300799999n),
  i64,
)
const run = timelineRun({
  timestamp: ts,
  typeName: fc.constantFrom(
    'LEADER_CHANGE',
    'SNAPSHOT_HEADER',
    'UNKNOWN(99)',
    'EMPTY',
    'COMMIT (duplicate marker, KAFKA-19999)',
  ),
})

// the usual shape, narrow enough that the short forms keep the time column
const small = fc.bigInt({ min: 0n, max: 999n })
const plainTxn: fc.Arbitrary<TimelineRun> = fc
  .record({
    pid: fc.bigInt({ min: 0n, max: 99n }),
    e: fc.integer({ min: 0, max: 9 }),
    first: small,
    n: fc.integer({ min: 0, max: 3 }),
    outcome: fc.constantFrom('COMMIT' as const, 'ABORT' as const, null),
    at: fc.bigInt({ min: 1_600_000_000_000n, max: 1_800_000_000_000n }),
    ce: orNull(fc.integer({ min: 0, max: 9 })),
  })
  .map(({ pid, e, first, n, outcome, at, ce }) => ({
    kind: 'transaction',
    firstOffset: first,
    interleaved: false,
    txn: {
      seq: 0,
      producerId: pid,
      producerEpoch: e,
      markerEpoch: outcome === null ? null : e,
      firstOffset: first,
      lastDataOffset: first + BigInt(n),
      records: n + 1,
      batches: 1,
      firstTimestamp: at,
      lastTimestamp: at,
      ...markerOf(outcome, first + BigInt(n + 1), { empty: false, firstOffset: first }),
      coordinatorEpoch: outcome === null ? null : ce,
      seeded: false,
      empty: false,
      completionLastStableOffset: null,
    },
  }))

describe('RunsTableWriter', () => {
  it('writes the usual transactions as the oracle does (short forms with the time column)', () => {
    fc.assert(
      fc.property(fc.array(plainTxn, { minLength: 1, maxLength: 40 }), fc.constantFrom(0, 1), (runs, level) => {
        const chalk = new Chalk({ level: level as 0 | 1 })
        const w = new StringWriter()
        const table = new RunsTableWriter(w, chalk, false)
        for (const r of runs) table.add(r)
        table.flush()
        expect(w.text).toMatch(/FIRST \(UTC\)/)
        expect(w.text).toBe(expected(runs, chalk, false))
      }),
      { numRuns: 500 },
    )
  })

  it('writes what the cells of each run, fitted per chunk, say: narrow and wide, with and without colour', () => {
    fc.assert(
      fc.property(
        fc.array(run, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.constantFrom(0, 1, 3),
        (runs, wide, level) => {
          const chalk = new Chalk({ level: level as 0 | 1 | 3 })
          const w = new StringWriter()
          const table = new RunsTableWriter(w, chalk, wide)
          for (const r of runs) table.add(r)
          table.flush()
          expect(w.text).toBe(expected(runs, chalk, wide))
        },
      ),
      { numRuns: 1500 },
    )
  })
})
