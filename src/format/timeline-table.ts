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
import { asciiWords, intLength, putIntWords, putWords, viewOf } from './ascii.js'
import type { Column, ColumnFit } from './table.js'
import { int64 } from './json-int64.js'
import { putString } from './record-line-ascii.js'
import { fitColumns, headerLine, hiddenNote } from './table.js'
import { isoSecondOf, isoSecondText, isoTime } from './timestamp.js'
import type { Writer } from './writer.js'

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
const OFFSETS = 0; const PRODUCER = 1; const KIND = 2; const RECORDS = 3; const OUTCOME = 4; const MARKER = 5; const CE = 6; const TIME = 7; const NOTES = 8

/** an int64 as the table writes it: a number while exact, else its decimal text (json-int64.ts int64, the one rule) */
type Num = number | string
const num = int64
function numLength (v: Num): number { return typeof v === 'number' ? intLength(v) : v.length }

/** colours of the outcome and marker cells */
type Tone = 'none' | 'open' | 'commit' | 'abort'

/** one run's cells, numbers kept as numbers */
interface Row {
  first: Num
  /** the range's end; null: one offset */
  last: Num | null
  pid: Num
  /** null: the producer column shows the id alone (plain and control runs) */
  epoch: number | null
  kind: string
  kindShort: string
  records: number | null
  outcome: string
  outcomeShort: string
  tone: Tone
  /** "COMMIT" / "ABORT" / "" before " at <offset>"; null: no marker */
  markerWord: string | null
  marker: Num
  ce: number | null
  /** the first timestamp's second as words ("2023-11-14T22:13:20."), with `milli`; null: `time` and `timeShort` say it */
  second: AsciiWords | null
  milli: number
  time: string
  timeShort: string
  notes: string
}

let lastSecond = ''
let lastSecondWords = asciiWords('')

/** the row's time fields: most as the second's words and the milliseconds, the rest as text */
function setTime (row: Row, ms: bigint | null): Row {
  // -1 is RecordBatch.NO_TIMESTAMP (and compaction can leave it): no time to show
  if (ms === null || ms < 0n) return row
  const n = Number(ms)
  const milli = Math.abs(n) > 8.64e15 ? -1 : isoSecondOf(n)
  if (milli >= 0) {
    const sec = isoSecondText()
    if (sec !== lastSecond) { lastSecond = sec; lastSecondWords = asciiWords(sec) }
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
function notesOf (r: TimelineRun & { kind: 'transaction' }): string {
  const t = r.txn
  const version = versionNote(t)
  if (!(t.markerEpoch !== null && t.markerEpoch !== t.producerEpoch) && !t.seeded && version === '' && !r.interleaved && r.listed === undefined && t.damage === undefined) return ''
  return [t.damage !== undefined ? `outcome unknown: bytes that could not be read at ${t.damage.file}:${t.damage.position} may hold its data or marker` : '',
    t.markerEpoch !== null && t.markerEpoch !== t.producerEpoch ? `marker epoch ${t.markerEpoch}` : '',
    t.seeded ? `began at ${t.firstOffset}, before the log start (producer snapshot)` : '', version, r.interleaved ? 'interleaved with other producers' : '',
    r.listed === 'early' ? 'listed before its end, as it stood: too many later runs waited behind it; listed again where it ends' : '',
    r.listed === 'end' ? 'the transaction listed early above, where it ends' : '']
    .filter((s) => s !== '').join('; ')
}

function rowOf (r: TimelineRun): Row {
  switch (r.kind) {
    case 'plain':
      return { first: num(r.firstOffset), last: r.lastOffset === r.firstOffset ? null : num(r.lastOffset), pid: num(r.producerId), epoch: null,
        kind: 'plain', kindShort: 'plain', records: r.records, outcome: '', outcomeShort: '', tone: 'none', markerWord: null, marker: 0, ce: null,
        second: null, milli: -1, time: '', timeShort: '', notes: `${r.batches} batch${r.batches === 1 ? '' : 'es'}` }
    case 'control':
      return { first: num(r.firstOffset), last: null, pid: num(r.producerId), epoch: null, kind: `control ${r.typeName}`, kindShort: r.typeName,
        records: null, outcome: '', outcomeShort: '', tone: 'none', markerWord: null, marker: 0, ce: null, second: null, milli: -1, time: '', timeShort: '', notes: '' }
    case 'transaction': {
      const t = r.txn
      const open = t.outcome === null
      // damage may hide its marker or data (analysis/damage-marks.ts): the marker read after it is not its outcome
      const outcome = t.damage !== undefined ? 'unknown' : open ? 'OPEN (no marker yet)' : t.empty ? '' : t.outcome === 'COMMIT' ? 'committed' : 'aborted'
      const marker = t.markerOffset === null ? 0 : num(t.markerOffset)
      const lastData = t.lastDataOffset ?? t.firstOffset
      return setTime({
        first: t.empty ? marker : num(t.firstOffset), last: t.empty || lastData === t.firstOffset ? null : num(lastData), pid: num(t.producerId), epoch: t.producerEpoch,
        kind: t.empty ? 'empty transaction' : 'transactional', kindShort: t.empty ? 'empty txn' : 'txn', records: t.empty ? null : t.records,
        outcome, outcomeShort: open && t.damage === undefined ? 'OPEN' : outcome, tone: open || t.damage !== undefined ? 'open' : t.outcome === 'COMMIT' ? 'commit' : 'abort',
        markerWord: t.markerOffset === null ? null : t.outcome ?? '', marker, ce: t.coordinatorEpoch, second: null, milli: -1, time: '', timeShort: '', notes: notesOf(r),
      }, t.firstTimestamp)
    }
  }
}

/** the length of column `c`'s text in the full or short form */
function cellLength (r: Row, c: number, short: boolean): number {
  switch (c) {
    case OFFSETS: return numLength(r.first) + (r.last === null ? 0 : 2 + numLength(r.last))
    case PRODUCER: return (short ? 0 : 4) + numLength(r.pid) + (r.epoch === null ? 0 : (short ? 1 : 7) + intLength(r.epoch))
    case KIND: return short ? r.kindShort.length : r.kind.length
    case RECORDS: return r.records === null ? 0 : intLength(r.records)
    case OUTCOME: return short ? r.outcomeShort.length : r.outcome.length
    case MARKER: return r.markerWord === null ? 0 : numLength(r.marker) + (short ? 0 : r.markerWord.length + 4)
    case CE: return r.ce === null ? 0 : intLength(r.ce)
    case TIME: return r.second !== null ? (short ? 20 : 24) : short ? r.timeShort.length : r.time.length
    default: return r.notes.length
  }
}

const WORDS = new Map<string, AsciiWords>()
/** a constant text as words, encoded once */
function words (s: string): AsciiWords {
  let w = WORDS.get(s)
  if (w === undefined) { w = asciiWords(s); WORDS.set(s, w) }
  return w
}

const LEFT = COLUMNS.map((c) => c.left === true)

function putSpaces (buf: Buffer, pos: number, n: number): number {
  for (const e = pos + n; pos < e; pos++) buf[pos] = 32
  return pos
}

function putNum (dv: DataView, buf: Buffer, pos: number, v: Num): number {
  return typeof v === 'number' ? putIntWords(dv, pos, v) : putString(buf, pos, v)
}

/** a short constant as words (they may store WORD_SLACK bytes past it), a longer text byte by byte */
function putConst (dv: DataView, buf: Buffer, pos: number, s: string): number {
  return s.length <= 24 ? putWords(dv, pos, words(s)) : putString(buf, pos, s)
}

function putCell (dv: DataView, buf: Buffer, pos: number, r: Row, c: number, short: boolean): number {
  switch (c) {
    case OFFSETS:
      pos = putNum(dv, buf, pos, r.first)
      return r.last === null ? pos : putNum(dv, buf, putWords(dv, pos, DOTS), r.last)
    case PRODUCER:
      pos = putNum(dv, buf, short ? pos : putWords(dv, pos, PID), r.pid)
      return r.epoch === null ? pos : putIntWords(dv, putWords(dv, pos, short ? SLASH : EPOCH), r.epoch)
    case KIND: return putConst(dv, buf, pos, short ? r.kindShort : r.kind)
    case RECORDS: return r.records === null ? pos : putIntWords(dv, pos, r.records)
    case OUTCOME: return putConst(dv, buf, pos, short ? r.outcomeShort : r.outcome)
    case MARKER:
      if (r.markerWord === null) return pos
      return putNum(dv, buf, short ? pos : putWords(dv, putConst(dv, buf, pos, r.markerWord), AT), r.marker)
    case CE: return r.ce === null ? pos : putIntWords(dv, pos, r.ce)
    case TIME:
      if (r.second === null) return putString(buf, pos, short ? r.timeShort : r.time)
      // the second's text, then .mmmZ (full) or Z in place of its '.' (short)
      pos = putWords(dv, pos, r.second)
      if (short) { buf[pos - 1] = 90; return pos }
      buf[pos] = 48 + Math.floor(r.milli / 100); buf[pos + 1] = 48 + Math.floor(r.milli / 10) % 10; buf[pos + 2] = 48 + r.milli % 10; buf[pos + 3] = 90
      return pos + 4
    default: return putString(buf, pos, r.notes)
  }
}
const DOTS = asciiWords('..'); const PID = asciiWords('pid '); const SLASH = asciiWords('/'); const EPOCH = asciiWords(' epoch '); const AT = asciiWords(' at ')

/** chalk's open and close codes of each tone (none at level 0); the texts here hold neither */
interface ToneCodes { open: Record<Tone, string>, close: Record<Tone, string>, longest: number }

function toneCodes (chalk: ChalkInstance): ToneCodes {
  const styles = { none: (s: string) => s, open: chalk.yellow, commit: chalk.green, abort: chalk.red }
  const open = {} as Record<Tone, string>
  const close = {} as Record<Tone, string>
  for (const [k, style] of Object.entries(styles) as Array<[Tone, (s: string) => string]>) [open[k], close[k]] = style('\0').split('\0') as [string, string]
  return { open, close, longest: Math.max(...Object.values(open).map((o) => o.length)) + Math.max(...Object.values(close).map((c) => c.length)) }
}

/** the bytes of a table's rows */
class RowWriter {
  /** what a row may take: each cell is no longer than its column's width (UTF-8: 3 bytes a unit), the separators, two cells' colour codes, the word slack */
  private readonly rowRoom: number
  constructor (private readonly out: Writer, private readonly codes: ToneCodes, private readonly fit: ColumnFit, private readonly lengths: Int32Array) {
    this.rowRoom = 3 * (fit.widths.reduce((a, w) => a + w, 0) + 2 * COLUMNS.length) + 2 * 3 * codes.longest + 8
  }

  /**
   * row `ri` (its cell lengths at ri * 9 of `lengths`) after `indent`: the padding after the last text is owed
   * and never written, as trimEnd would leave it out
   */
  row (r: Row, ri: number, indent: number): void {
    const { keep, widths, shortened } = this.fit
    const lengths = this.lengths
    const open = this.codes.open[r.tone]
    const close = this.codes.close[r.tone]
    const at = this.out.reserve(this.rowRoom + indent)
    const buf = this.out.buffer
    const dv = viewOf(buf)
    let pos = putSpaces(buf, at, indent)
    let owed = 0
    let first = true
    for (let c = 0; c < COLUMNS.length; c++) {
      if (!keep[c]) continue
      if (!first) owed += 2
      first = false
      const len = lengths[ri * COLUMNS.length + c]!
      const pad = widths[c]! - len
      const left = LEFT[c]!
      if (open !== '' && (c === OUTCOME || (c === MARKER && r.markerWord !== null))) {
        // a coloured cell: the codes around the padded text, so the next cell owes nothing
        pos = putString(buf, putSpaces(buf, pos, owed), open)
        if (!left) pos = putSpaces(buf, pos, pad)
        pos = putCell(dv, buf, pos, r, c, shortened)
        if (left) pos = putSpaces(buf, pos, pad)
        pos = putString(buf, pos, close)
        owed = 0
        continue
      }
      if (len === 0) { owed += pad; continue }
      if (!left) owed += pad
      pos = putCell(dv, buf, putSpaces(buf, pos, owed), r, c, shortened)
      owed = left ? pad : 0
    }
    buf[pos++] = 10
    this.out.commit(pos)
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
  constructor (private readonly out: Writer, private readonly chalk: ChalkInstance, private readonly wide: boolean) {
    this.codes = toneCodes(chalk)
  }

  add (r: TimelineRun): void {
    this.rows.push(rowOf(r))
    if (this.rows.length >= RUNS_PER_TABLE) this.flush()
  }

  /** writes the runs held; call at the partition's end */
  flush (): void {
    if (this.rows.length === 0) return
    const n = COLUMNS.length
    const fullW = COLUMNS.map((c) => c.header.length)
    const shortW = COLUMNS.map((c) => (c.short ?? c.header).length)
    const filled = COLUMNS.map(() => false)
    if (this.full.length < this.rows.length * n) { this.full = new Int32Array(this.rows.length * n); this.short = new Int32Array(this.rows.length * n) }
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
    this.rows.forEach((r, ri) => { w.row(r, ri, 2) })
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

function versionNote (t: Transaction): string {
  const v = inferTransactionVersion(t)
  return v === null ? '' : VERSION_NOTES[v]
}
