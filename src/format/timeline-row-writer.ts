// A `txns` table row (format/timeline-table.ts) as bytes: the columns, a row's cells with their numbers kept as
// numbers, each cell's length in the full and short form, and RowWriter, which writes the cells into the
// writer's buffer as words (ascii.ts) with the padding and colour codes. Split out of timeline-table.ts.
import type { ChalkInstance } from 'chalk'
import type { AsciiWords } from './ascii.js'
import { asciiWords, intLength, putIntWords, putWords, viewOf } from './ascii.js'
import type { Column, ColumnFit } from './table.js'
import { putString } from './record-line-ascii.js'
import type { Writer } from './writer.js'

export const COLUMNS: Column[] = [
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
const OFFSETS = 0
const PRODUCER = 1
const KIND = 2
const RECORDS = 3
const OUTCOME = 4
const MARKER = 5
const CE = 6
const TIME = 7
const NOTES = 8

/** an int64 as the table writes it: a number while exact, else its decimal text (json-int64.ts int64, the one rule) */
export type Num = number | string
export function numLength(v: Num): number {
  return typeof v === 'number' ? intLength(v) : v.length
}

/** colours of the outcome and marker cells */
export type Tone = 'none' | 'open' | 'commit' | 'abort'

/** one run's cells, numbers kept as numbers */
export interface Row {
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

/** the length of column `c`'s text in the full or short form */
export function cellLength(r: Row, c: number, short: boolean): number {
  switch (c) {
    case OFFSETS:
      return numLength(r.first) + (r.last === null ? 0 : 2 + numLength(r.last))
    case PRODUCER:
      return (short ? 0 : 4) + numLength(r.pid) + (r.epoch === null ? 0 : (short ? 1 : 7) + intLength(r.epoch))
    case KIND:
      return short ? r.kindShort.length : r.kind.length
    case RECORDS:
      return r.records === null ? 0 : intLength(r.records)
    case OUTCOME:
      return short ? r.outcomeShort.length : r.outcome.length
    case MARKER:
      return r.markerWord === null ? 0 : numLength(r.marker) + (short ? 0 : r.markerWord.length + 4)
    case CE:
      return r.ce === null ? 0 : intLength(r.ce)
    case TIME:
      return r.second !== null ? (short ? 20 : 24) : short ? r.timeShort.length : r.time.length
    default:
      return r.notes.length
  }
}

const WORDS = new Map<string, AsciiWords>()
/** a constant text as words, encoded once */
function words(s: string): AsciiWords {
  let w = WORDS.get(s)
  if (w === undefined) {
    w = asciiWords(s)
    WORDS.set(s, w)
  }
  return w
}

const LEFT = COLUMNS.map((c) => c.left === true)

function putSpaces(buf: Buffer, pos: number, n: number): number {
  for (const e = pos + n; pos < e; pos++) buf[pos] = 32
  return pos
}

function putNum(dv: DataView, buf: Buffer, pos: number, v: Num): number {
  return typeof v === 'number' ? putIntWords(dv, pos, v) : putString(buf, pos, v)
}

/** a short constant as words (they may store WORD_SLACK bytes past it), a longer text byte by byte */
function putConst(dv: DataView, buf: Buffer, pos: number, s: string): number {
  return s.length <= 24 ? putWords(dv, pos, words(s)) : putString(buf, pos, s)
}

function putCell(dv: DataView, buf: Buffer, pos: number, r: Row, c: number, short: boolean): number {
  switch (c) {
    case OFFSETS:
      pos = putNum(dv, buf, pos, r.first)
      return r.last === null ? pos : putNum(dv, buf, putWords(dv, pos, DOTS), r.last)
    case PRODUCER:
      pos = putNum(dv, buf, short ? pos : putWords(dv, pos, PID), r.pid)
      return r.epoch === null ? pos : putIntWords(dv, putWords(dv, pos, short ? SLASH : EPOCH), r.epoch)
    case KIND:
      return putConst(dv, buf, pos, short ? r.kindShort : r.kind)
    case RECORDS:
      return r.records === null ? pos : putIntWords(dv, pos, r.records)
    case OUTCOME:
      return putConst(dv, buf, pos, short ? r.outcomeShort : r.outcome)
    case MARKER:
      if (r.markerWord === null) return pos
      return putNum(dv, buf, short ? pos : putWords(dv, putConst(dv, buf, pos, r.markerWord), AT), r.marker)
    case CE:
      return r.ce === null ? pos : putIntWords(dv, pos, r.ce)
    case TIME:
      if (r.second === null) return putString(buf, pos, short ? r.timeShort : r.time)
      // the second's text, then .mmmZ (full) or Z in place of its '.' (short)
      pos = putWords(dv, pos, r.second)
      if (short) {
        buf[pos - 1] = 90
        return pos
      }
      buf[pos] = 48 + Math.floor(r.milli / 100)
      buf[pos + 1] = 48 + (Math.floor(r.milli / 10) % 10)
      buf[pos + 2] = 48 + (r.milli % 10)
      buf[pos + 3] = 90
      return pos + 4
    default:
      return putString(buf, pos, r.notes)
  }
}
const DOTS = asciiWords('..')
const PID = asciiWords('pid ')
const SLASH = asciiWords('/')
const EPOCH = asciiWords(' epoch ')
const AT = asciiWords(' at ')

/** chalk's open and close codes of each tone (none at level 0); the texts here hold neither */
export interface ToneCodes {
  open: Record<Tone, string>
  close: Record<Tone, string>
  longest: number
}

export function toneCodes(chalk: ChalkInstance): ToneCodes {
  const styles = { none: (s: string) => s, open: chalk.yellow, commit: chalk.green, abort: chalk.red }
  const open = {} as Record<Tone, string>
  const close = {} as Record<Tone, string>
  for (const [k, style] of Object.entries(styles) as Array<[Tone, (s: string) => string]>)
    [open[k], close[k]] = style('\0').split('\0') as [string, string]
  return {
    open,
    close,
    longest:
      Math.max(...Object.values(open).map((o) => o.length)) + Math.max(...Object.values(close).map((c) => c.length)),
  }
}

/** the bytes of a table's rows */
export class RowWriter {
  /** what a row may take: each cell is no longer than its column's width (UTF-8: 3 bytes a unit), the separators, two cells' colour codes, the word slack */
  private readonly rowRoom: number
  constructor(
    private readonly out: Writer,
    private readonly codes: ToneCodes,
    private readonly fit: ColumnFit,
    private readonly lengths: Int32Array,
  ) {
    this.rowRoom = 3 * (fit.widths.reduce((a, w) => a + w, 0) + 2 * COLUMNS.length) + 2 * 3 * codes.longest + 8
  }

  /**
   * row `ri` (its cell lengths at ri * 9 of `lengths`) after `indent`: the padding after the last text is owed
   * and never written, as trimEnd would leave it out
   */
  row(r: Row, ri: number, indent: number): void {
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
      if (len === 0) {
        owed += pad
        continue
      }
      if (!left) owed += pad
      pos = putCell(dv, buf, putSpaces(buf, pos, owed), r, c, shortened)
      owed = left ? pad : 0
    }
    buf[pos++] = 10
    this.out.commit(pos)
  }
}
