import type { Transaction } from '../analysis/transactions.js'
import { inferTransactionVersion } from '../analysis/transactions.js'
// `txns` runs as a table: one row per run, within 80 columns unless --wide (format/table.ts). The
// narrow form shortens producer and kind, then leaves out notes, the coordinator epoch and the time.
import type { ChalkInstance } from 'chalk'
import type { TimelineRun } from '../analysis/timeline.js'
import type { Column, TableCell } from './table.js'
import { fitTable, hiddenNote } from './table.js'
import { isoTime } from './timestamp.js'

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

function range (a: bigint, b: bigint): string { return a === b ? `${a}` : `${a}..${b}` }

function time (ms: bigint | null): TableCell {
  // -1 is RecordBatch.NO_TIMESTAMP (and compaction can leave it): no time to show
  if (ms === null || ms < 0n) return { text: '' }
  const text = isoTime(ms)
  return { text, short: text.replace(/\.\d{3}Z$/, 'Z') }
}

function runCells (r: TimelineRun, chalk: ChalkInstance): TableCell[] {
  switch (r.kind) {
    case 'plain':
      return [{ text: range(r.firstOffset, r.lastOffset) }, { text: `pid ${r.producerId}`, short: `${r.producerId}` }, { text: 'plain' },
        { text: String(r.records) }, { text: '' }, { text: '' }, { text: '' }, { text: '' }, { text: `${r.batches} batch${r.batches === 1 ? '' : 'es'}` }]
    case 'control':
      return [{ text: String(r.firstOffset) }, { text: `pid ${r.producerId}`, short: `${r.producerId}` }, { text: `control ${r.typeName}`, short: r.typeName },
        { text: '' }, { text: '' }, { text: '' }, { text: '' }, { text: '' }, { text: '' }]
    case 'transaction': {
      const t = r.txn
      const who = { text: `pid ${t.producerId} epoch ${t.producerEpoch}`, short: `${t.producerId}/${t.producerEpoch}` }
      const word = t.outcome === null ? chalk.yellow : t.outcome === 'COMMIT' ? chalk.green : chalk.red
      const outcome: TableCell = t.outcome === null ? { text: 'OPEN (no marker yet)', short: 'OPEN', style: word }
        : { text: t.empty ? '' : t.outcome === 'COMMIT' ? 'committed' : 'aborted', style: word }
      const marker: TableCell = t.markerOffset === null ? { text: '' } : { text: `${t.outcome ?? ''} at ${t.markerOffset}`, short: `${t.markerOffset}`, style: word }
      const notes = [t.markerEpoch !== null && t.markerEpoch !== t.producerEpoch ? `marker epoch ${t.markerEpoch}` : '',
        t.seeded ? `began at ${t.firstOffset}, before the log start (producer snapshot)` : '', versionNote(t), r.interleaved ? 'interleaved with other producers' : '',
        r.listed === 'early' ? 'listed before its end, as it stood: too many later runs waited behind it; listed again where it ends' : '',
        r.listed === 'end' ? 'the transaction listed early above, where it ends' : '']
        .filter((s) => s !== '').join('; ')
      const offsets = t.empty ? String(t.markerOffset) : range(t.firstOffset, t.lastDataOffset ?? t.firstOffset)
      return [{ text: offsets }, who, { text: t.empty ? 'empty transaction' : 'transactional', short: t.empty ? 'empty txn' : 'txn' },
        { text: t.empty ? '' : String(t.records) }, outcome, marker, { text: t.coordinatorEpoch === null ? '' : String(t.coordinatorEpoch) },
        time(t.firstTimestamp), { text: notes }]
    }
  }
}

/**
 * runs fitted together: a partition's table is fitted per this many runs, so memory stays bounded while they
 * stream. Rows held longer survive into V8's old space and raise the peak RSS of `txns` on long partitions
 * (test/commands/txns-memory.test.ts; the figures per chunk size are in bench/RESULTS.md, "Figures behind
 * choices in the code").
 */
export const RUNS_PER_TABLE = 25

/**
 * The runs of one partition as they stream, indented under its header line. Columns are fitted to each
 * chunk of RUNS_PER_TABLE runs (all of them for a short partition); the header is written once.
 */
export class RunsTableWriter {
  private rows: TableCell[][] = []
  private chunks = 0

  constructor (private readonly write: (s: string) => void, private readonly chalk: ChalkInstance, private readonly wide: boolean) {}

  add (r: TimelineRun): void {
    this.rows.push(runCells(r, this.chalk))
    if (this.rows.length >= RUNS_PER_TABLE) this.flush()
  }

  /** writes the runs held; call at the partition's end */
  flush (): void {
    if (this.rows.length === 0) return
    const t = fitTable(COLUMNS, this.rows, this.chalk, { wide: this.wide, width: 78 })
    const lines = (this.chunks === 0 ? t.text + hiddenNote(t.hidden) : t.text.slice(t.text.indexOf('\n') + 1)).split('\n')
    this.write(lines.map((l) => (l === '' ? l : `  ${l}`)).join('\n'))
    this.rows = []
    this.chunks++
  }
}

const VERSION_NOTES = {
  '2': 'transaction version 2 (marker epoch = data epoch + 1)',
  '2 or timeout abort': 'transaction version 2, or a coordinator timeout abort (either bumps the epoch)',
  '0/1': '', // the usual case before KIP-890: not worth a note per line (--json says it)
} as const

function versionNote (t: Transaction): string {
  const v = inferTransactionVersion(t)
  return v === null ? '' : VERSION_NOTES[v]
}
