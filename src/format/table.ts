// Tables that fit a terminal. Without --wide a table is kept within 80 columns: first the short forms
// of headers and cells are used, then the columns marked droppable are left out (lowest rank first)
// and the caller says which (clig.dev: the default output fits a standard terminal, --wide shows all).
// With --wide every column is printed with its full header and full cell text.
import type { ChalkInstance } from 'chalk'
import type { Writer } from './writer.js'
import { StringWriter } from './writer.js'

export const TABLE_WIDTH = 80

export interface Column {
  header: string
  /** header used when the full table is too wide */
  short?: string
  left?: boolean
  /** may be left out to fit; lower ranks go first */
  dropRank?: number
}

export interface TableCell {
  text: string
  /** alignment of this cell, overriding its column's */
  left?: boolean
  /** shorter text for the narrow form (e.g. an ISO time without milliseconds) */
  short?: string
  style?: (s: string) => string
}

export interface FittedTable {
  text: string
  /** full headers of the columns left out to fit */
  hidden: string[]
  /** the short forms of headers and cells were used */
  shortened: boolean
}

function widthOf (widths: readonly number[], keep: readonly boolean[]): number {
  let total = 0
  let n = 0
  for (let i = 0; i < widths.length; i++) if (keep[i]) { total += widths[i]!; n++ }
  return total + 2 * Math.max(0, n - 1)
}

/** whether trimEnd would take something off `s` (its last character is white space or a line end) */
function endsWithSpace (s: string): boolean {
  if (s.length === 0) return false
  const c = s.charCodeAt(s.length - 1)
  return c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 160 && /\s/.test(s[s.length - 1]!)
}

export interface FitOptions {
  wide?: boolean
  width?: number
  /** written before every line (a table under a partition's header line) */
  indent?: string
  /** false: the rows only (a table continued in chunks) */
  header?: boolean
}

/** Align `rows` under `columns`, within `width` unless `wide`. Numbers right-aligned unless `left`. */
export function fitTable (columns: readonly Column[], rows: ReadonlyArray<readonly TableCell[]>, chalk: ChalkInstance, opts: FitOptions = {}): FittedTable {
  const w = new StringWriter()
  const fit = writeTable(w, columns, rows, chalk, opts)
  return { text: w.text, ...fit }
}

/**
 * fitTable written straight into `out`'s buffer: `txns` writes a table per 25 runs of a partition with
 * millions, where joining each line's strings (then encoding them) was most of its formatting cost.
 */
export function writeTable (out: Writer, columns: readonly Column[], rows: ReadonlyArray<readonly TableCell[]>, chalk: ChalkInstance,
  opts: FitOptions = {}): Omit<FittedTable, 'text'> {
  const indent = opts.indent ?? ''
  const n = columns.length
  // one pass over the cells: each column's widest full and short text, and whether it holds any text
  const fullW: number[] = columns.map((c) => c.header.length)
  const shortW: number[] = columns.map((c) => (c.short ?? c.header).length)
  const filled: boolean[] = columns.map(() => false)
  for (const r of rows) {
    for (let i = 0; i < n; i++) {
      const c = r[i]
      if (c === undefined) continue
      const t = c.text
      if (t.length > fullW[i]!) fullW[i] = t.length
      const s = c.short ?? t
      if (s.length > shortW[i]!) shortW[i] = s.length
      if (t !== '') filled[i] = true
    }
  }
  const fit = fitColumns(columns, fullW, shortW, filled, opts)
  const { keep, widths, shortened, hidden } = fit
  const b = new LineBytes(out)
  if (opts.header !== false) b.text(indent + headerLine(columns, fit, chalk) + '\n')
  for (const r of rows) {
    const mark = b.mark()
    if (!rowBytes(b, indent, r, columns, keep, widths, shortened)) {
      b.reset(mark)
      b.text(indent + rowLine(r, columns, keep, widths, shortened) + '\n')
    }
  }
  b.done()
  return { hidden, shortened }
}

export interface ColumnFit {
  /** the columns shown */
  keep: boolean[]
  /** each column's width in the form used */
  widths: readonly number[]
  /** the short forms are used */
  shortened: boolean
  /** full headers of the columns left out to fit (not those left out for being empty) */
  hidden: string[]
}

/**
 * The table rule, from each column's widest full and short text and whether any cell holds text: the short
 * forms when the full table is wider than the width, then droppable columns out by rank.
 */
export function fitColumns (columns: readonly Column[], fullW: readonly number[], shortW: readonly number[], filled: readonly boolean[], opts: FitOptions): ColumnFit {
  const width = opts.width ?? TABLE_WIDTH
  const wide = opts.wide === true
  // a droppable column with nothing in it says nothing (NOTES without notes)
  const keep = columns.map((c, i) => wide || c.dropRank === undefined || filled[i]!)
  const empty = keep.map((k) => !k)
  const shortened = !wide && widthOf(fullW, keep) > width
  const widths = shortened ? shortW : fullW
  if (shortened) {
    // columns of one rank go together (COMMIT and ABORT counts are one idea)
    const ranks = [...new Set(columns.map((c) => c.dropRank).filter((r): r is number => r !== undefined))].sort((a, b) => a - b)
    for (const rank of ranks) {
      if (widthOf(widths, keep) <= width) break
      columns.forEach((c, i) => { if (c.dropRank === rank) keep[i] = false })
    }
  }
  return { keep, widths, shortened, hidden: columns.filter((_c, i) => !keep[i] && !empty[i]).map((c) => c.header) }
}

/** the header line (headers left-aligned; styles apply after padding so colour codes do not count) */
export function headerLine (columns: readonly Column[], fit: ColumnFit, chalk: ChalkInstance): string {
  return columns.map((c, i) => ({ c, i })).filter(({ i }) => fit.keep[i])
    .map(({ c, i }) => chalk.bold((fit.shortened ? c.short ?? c.header : c.header).padEnd(fit.widths[i]!))).join('  ').trimEnd()
}

/** bytes written into a Writer's buffer, reserved a chunk at a time (done() commits them) */
export class LineBytes {
  /** where the next byte goes in `buf`; a caller that wrote there itself (after room()) moves it on */
  pos: number
  private end: number
  buf: Buffer
  constructor (private readonly out: Writer) {
    this.pos = out.reserve(CHUNK)
    this.end = this.pos + CHUNK
    this.buf = out.buffer
  }

  /** at least `n` bytes from `at` in `buf` */
  room (n: number): void {
    if (this.end - this.pos >= n) return
    this.out.commit(this.pos)
    const m = Math.max(n, CHUNK)
    this.pos = this.out.reserve(m)
    this.end = this.pos + m
    this.buf = this.out.buffer
  }

  /** a position to go back to, within the current chunk (the row started here) */
  mark (): number {
    this.room(ROW_ROOM)
    return this.pos
  }

  /** back to `mark`, when nothing was committed since (rows are written within ROW_ROOM) */
  reset (mark: number): void { this.pos = mark }

  spaces (n: number): void {
    this.room(n)
    const b = this.buf
    let p = this.pos
    for (const e = p + n; p < e; p++) b[p] = 32
    this.pos = p
  }

  text (s: string): void {
    this.room(s.length * 3)
    const b = this.buf
    const start = this.pos
    let p = start
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i)
      if (c >= 0x80) { this.pos = start + b.write(s, start, 'utf8'); return }
      b[p++] = c
    }
    this.pos = p
  }

  done (): void { this.out.commit(this.pos) }
}

const CHUNK = 64 * 1024
/** what one row may take before it must be written through the general path: mark() keeps that much room */
const ROW_ROOM = 16 * 1024

/**
 * A row's line, without the white space at its end: padding is owed and written only when text follows
 * it. false when a cell's own text ends in white space, or the row is longer than ROW_ROOM: rowLine then
 * writes the row (trimEnd of the joined cells).
 */
function rowBytes (b: LineBytes, indent: string, r: readonly TableCell[], columns: readonly Column[], keep: readonly boolean[],
  widths: readonly number[], shortened: boolean): boolean {
  let owed = 0
  let first = true
  let size = indent.length * 3 + 1 // the line end
  if (indent !== '') b.text(indent)
  for (let i = 0; i < r.length && i < columns.length; i++) {
    if (!keep[i]) continue
    const c = r[i]
    if (c === undefined) continue
    let s = shortened ? c.short ?? c.text : c.text
    if (!first) owed += 2
    first = false
    const pad = widths[i]! - s.length
    const left = c.left ?? columns[i]!.left === true
    if (c.style !== undefined) {
      const padded = left ? s.padEnd(widths[i]!) : s.padStart(widths[i]!)
      const styled = c.style(padded)
      // a style that changes nothing (no colour) leaves the padding owed, as trimEnd would take it
      if (styled !== padded) {
        if (endsWithSpace(styled)) return false
        s = styled
        size += owed + s.length * 3
        if (size > ROW_ROOM) return false
        if (owed > 0) b.spaces(owed)
        b.text(s)
        owed = 0
        continue
      }
    }
    if (s === '') { owed += pad; continue }
    if (endsWithSpace(s)) return false
    if (!left) owed += pad
    size += owed + s.length * 3
    if (size > ROW_ROOM) return false
    if (owed > 0) b.spaces(owed)
    b.text(s)
    owed = left ? pad : 0
  }
  b.text('\n')
  return true
}

/** the general form of a row's line: every cell padded and styled, joined, trimmed at the end */
function rowLine (r: readonly TableCell[], columns: readonly Column[], keep: readonly boolean[], widths: readonly number[], shortened: boolean): string {
  const cells: string[] = []
  for (let i = 0; i < r.length && i < columns.length; i++) {
    const c = r[i]
    if (!keep[i] || c === undefined) continue
    const s = shortened ? c.short ?? c.text : c.text
    const padded = (c.left ?? columns[i]!.left === true) ? s.padEnd(widths[i]!) : s.padStart(widths[i]!)
    cells.push(c.style !== undefined ? c.style(padded) : padded)
  }
  return cells.join('  ').trimEnd()
}

/** The line under a table that left columns out. */
export function hiddenNote (hidden: readonly string[]): string {
  return hidden.length === 0 ? '' : `(--wide shows ${hidden.length} more column${hidden.length === 1 ? '' : 's'}: ${hidden.join(', ')})\n`
}
