// `txns` runs as a table: one row per run, within 80 columns unless --wide (format/table.ts fitColumns,
// the one table rule). The narrow form shortens producer and kind, then leaves out notes, the coordinator
// epoch and the time. A partition of small transactions has millions of rows, so a row keeps its numbers
// as numbers and is written as bytes: building each cell as a string, then each line, was most of the
// command's CPU (bench/RESULTS.md, txns). Every text here is tsdump's own words, numbers and ISO times:
// none ends in white space, so leaving out the padding owed at a line's end is what trimEnd would do.
import type { ChalkInstance } from 'chalk'
import type { TimelineRun } from '../analysis/timeline.js'
import type { Transaction } from '../analysis/transactions.js'
import { inferTransactionVersion } from '../analysis/transactions.js'
import type { AsciiWords } from './ascii.js'
import { asciiWords } from './ascii.js'
import { int64 } from './json-int64.js'
import { fitColumns, headerLine, hiddenNote } from './table.js'
import { isoSecondOf, isoSecondText, isoTime } from './timestamp.js'
import type { Writer } from './writer.js'
import type { Num, Row, ToneCodes } from './timeline-row-writer.js'
import { cellLength, COLUMNS, RowWriter, toneCodes } from './timeline-row-writer.js'

const num = int64

let lastSecond = ''
let lastSecondWords = asciiWords('')

/** the row's time fields: most as the second's words and the milliseconds, the rest as text */
function setTime(row: Row, ms: bigint | null): Row {
  // -1 is RecordBatch.NO_TIMESTAMP (and compaction can leave it): no time to show
  if (ms === null || ms < 0n) return row
  const n = Number(ms)
  const milli = Math.abs(n) > 8.64e15 ? -1 : isoSecondOf(n)
  if (milli >= 0) {
    const sec = isoSecondText()
    if (sec !== lastSecond) {
      lastSecond = sec
      lastSecondWords = asciiWords(sec)
    }
    row.second = lastSecondWords
    row.milli = milli
    return row
  }
  const text = isoTime(ms)
  // the narrow form drops the milliseconds (an ISO time ends .123Z; 'out of range' stays as it is)
  const cut = text.length - 5
  row.time = text
  row.timeShort = text.endsWith('Z') && text.charCodeAt(cut) === 46 ? text.slice(0, cut) + 'Z' : text
  return row
}

/** a transaction's notes (most have none) */
function notesOf(r: TimelineRun & { kind: 'transaction' }): string {
  const t = r.txn
  const version = versionNote(t)
  if (
    !(t.markerEpoch !== null && t.markerEpoch !== t.producerEpoch) &&
    !t.seeded &&
    version === '' &&
    !r.interleaved &&
    r.listed === undefined &&
    t.damage === undefined
  )
    return ''
  return [
    t.damage !== undefined
      ? `outcome unknown: bytes that could not be read at ${t.damage.file}:${t.damage.position} may hold its data or marker`
      : '',
    t.markerEpoch !== null && t.markerEpoch !== t.producerEpoch ? `marker epoch ${t.markerEpoch}` : '',
    t.seeded ? `began at ${t.firstOffset}, before the log start (producer snapshot)` : '',
    version,
    r.interleaved ? 'interleaved with other producers' : '',
    r.listed === 'early'
      ? 'listed before its end, as it stood: too many later runs waited behind it; listed again where it ends'
      : '',
    r.listed === 'end' ? 'the transaction listed early above, where it ends' : '',
  ]
    .filter((s) => s !== '')
    .join('; ')
}

function rowOf(r: TimelineRun): Row {
  switch (r.kind) {
    case 'plain':
      return {
        first: num(r.firstOffset),
        last: r.lastOffset === r.firstOffset ? null : num(r.lastOffset),
        pid: num(r.producerId),
        epoch: null,
        kind: 'plain',
        kindShort: 'plain',
        records: r.records,
        outcome: '',
        outcomeShort: '',
        tone: 'none',
        markerWord: null,
        marker: 0,
        ce: null,
        second: null,
        milli: -1,
        time: '',
        timeShort: '',
        notes: `${r.batches} batch${r.batches === 1 ? '' : 'es'}`,
      }
    case 'control':
      return {
        first: num(r.firstOffset),
        last: null,
        pid: num(r.producerId),
        epoch: null,
        kind: `control ${r.typeName}`,
        kindShort: r.typeName,
        records: null,
        outcome: '',
        outcomeShort: '',
        tone: 'none',
        markerWord: null,
        marker: 0,
        ce: null,
        second: null,
        milli: -1,
        time: '',
        timeShort: '',
        notes: '',
      }
    case 'transaction': {
      const t = r.txn
      const m = t.marker
      const open = m === null
      // damage may hide its marker or data (analysis/damage-marks.ts): the marker read after it is not its outcome
      const outcome =
        t.damage !== undefined
          ? 'unknown'
          : open
            ? 'OPEN (no marker yet)'
            : t.empty
              ? ''
              : m.type === 'COMMIT'
                ? 'committed'
                : 'aborted'
      const marker = m === null ? 0 : num(m.offset)
      const lastData = t.lastDataOffset ?? t.firstOffset
      return setTime(
        {
          first: t.empty ? marker : num(t.firstOffset),
          last: t.empty || lastData === t.firstOffset ? null : num(lastData),
          pid: num(t.producerId),
          epoch: t.producerEpoch,
          kind: t.empty ? 'empty transaction' : 'transactional',
          kindShort: t.empty ? 'empty txn' : 'txn',
          records: t.empty ? null : t.records,
          outcome,
          outcomeShort: open && t.damage === undefined ? 'OPEN' : outcome,
          tone: open || t.damage !== undefined ? 'open' : m.type === 'COMMIT' ? 'commit' : 'abort',
          markerWord: m === null ? null : m.type,
          marker,
          ce: t.coordinatorEpoch,
          second: null,
          milli: -1,
          time: '',
          timeShort: '',
          notes: notesOf(r),
        },
        t.firstTimestamp,
      )
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
  private rows: Row[] = []
  private chunks = 0
  /** each row's cell lengths, full and short (9 a row), reused from chunk to chunk */
  private full = new Int32Array(RUNS_PER_TABLE * COLUMNS.length)
  private short = new Int32Array(RUNS_PER_TABLE * COLUMNS.length)

  private readonly codes: ToneCodes
  constructor(
    private readonly out: Writer,
    private readonly chalk: ChalkInstance,
    private readonly wide: boolean,
  ) {
    this.codes = toneCodes(chalk)
  }

  add(r: TimelineRun): void {
    this.rows.push(rowOf(r))
    if (this.rows.length >= RUNS_PER_TABLE) this.flush()
  }

  /** writes the runs held; call at the partition's end */
  flush(): void {
    if (this.rows.length === 0) return
    const n = COLUMNS.length
    const fullW = COLUMNS.map((c) => c.header.length)
    const shortW = COLUMNS.map((c) => (c.short ?? c.header).length)
    const filled = COLUMNS.map(() => false)
    if (this.full.length < this.rows.length * n) {
      this.full = new Int32Array(this.rows.length * n)
      this.short = new Int32Array(this.rows.length * n)
    }
    const { full, short } = this
    this.rows.forEach((r, ri) => {
      for (let c = 0; c < n; c++) {
        const f = cellLength(r, c, false)
        const s = cellLength(r, c, true)
        full[ri * n + c] = f
        short[ri * n + c] = s
        if (f > fullW[c]!) fullW[c] = f
        if (f > 0) filled[c] = true
        if (s > shortW[c]!) shortW[c] = s
      }
    })
    const fit = fitColumns(COLUMNS, fullW, shortW, filled, { wide: this.wide, width: 78 })
    const first = this.chunks === 0
    // indented under the partition's header line; the header and the note on hidden columns once
    if (first) this.out.write(`  ${headerLine(COLUMNS, fit, this.chalk)}\n`)
    const w = new RowWriter(this.out, this.codes, fit, fit.shortened ? short : full)
    this.rows.forEach((r, ri) => {
      w.row(r, ri, 2)
    })
    if (first && fit.hidden.length > 0) this.out.write(`  ${hiddenNote(fit.hidden)}`)
    this.rows = []
    this.chunks++
  }
}

const VERSION_NOTES = {
  '2': 'transaction version 2 (marker epoch = data epoch + 1)',
  '2 or timeout abort': 'transaction version 2, or a coordinator timeout abort (either bumps the epoch)',
  '0/1': '', // the usual case before KIP-890: not worth a note per line (--json says it)
} as const

function versionNote(t: Transaction): string {
  const v = inferTransactionVersion(t)
  return v === null ? '' : VERSION_NOTES[v]
}
