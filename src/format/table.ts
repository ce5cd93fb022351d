// Tables that fit a terminal. Without --wide a table is kept within 80 columns: first the short forms
// of headers and cells are used, then the columns marked droppable are left out (lowest rank first)
// and the caller says which (clig.dev: the default output fits a standard terminal, --wide shows all).
// With --wide every column is printed with its full header and full cell text.
import type { ChalkInstance } from 'chalk'

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

function widthOf(widths: readonly number[], keep: readonly boolean[]): number {
  let total = 0
  let n = 0
  for (let i = 0; i < widths.length; i++)
    if (keep[i]) {
      total += widths[i]!
      n++
    }
  return total + 2 * Math.max(0, n - 1)
}

export interface FitOptions {
  wide?: boolean
  width?: number
}

/** Align `rows` under `columns`, within `width` unless `wide`. Numbers right-aligned unless `left`. */
export function fitTable(
  columns: readonly Column[],
  rows: ReadonlyArray<readonly TableCell[]>,
  chalk: ChalkInstance,
  opts: FitOptions = {},
): FittedTable {
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
  const lines = [headerLine(columns, fit, chalk), ...rows.map((r) => rowLine(r, columns, fit))]
  return { text: lines.join('\n') + '\n', hidden: fit.hidden, shortened: fit.shortened }
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
export function fitColumns(
  columns: readonly Column[],
  fullW: readonly number[],
  shortW: readonly number[],
  filled: readonly boolean[],
  opts: FitOptions,
): ColumnFit {
  const width = opts.width ?? TABLE_WIDTH
  const wide = opts.wide === true
  // a droppable column with nothing in it says nothing (NOTES without notes)
  const keep = columns.map((c, i) => wide || c.dropRank === undefined || filled[i]!)
  const empty = keep.map((k) => !k)
  const shortened = !wide && widthOf(fullW, keep) > width
  const widths = shortened ? shortW : fullW
  if (shortened) {
    // columns of one rank go together (COMMIT and ABORT counts are one idea)
    const ranks = [...new Set(columns.map((c) => c.dropRank).filter((r): r is number => r !== undefined))].sort(
      (a, b) => a - b,
    )
    for (const rank of ranks) {
      if (widthOf(widths, keep) <= width) break
      columns.forEach((c, i) => {
        if (c.dropRank === rank) keep[i] = false
      })
    }
  }
  return { keep, widths, shortened, hidden: columns.filter((_c, i) => !keep[i] && !empty[i]).map((c) => c.header) }
}

/** the header line (headers left-aligned; styles apply after padding so colour codes do not count) */
export function headerLine(columns: readonly Column[], fit: ColumnFit, chalk: ChalkInstance): string {
  return columns
    .map((c, i) => ({ c, i }))
    .filter(({ i }) => fit.keep[i])
    .map(({ c, i }) => chalk.bold((fit.shortened ? (c.short ?? c.header) : c.header).padEnd(fit.widths[i]!)))
    .join('  ')
    .trimEnd()
}

/** a row's line: every cell padded and styled, joined, trimmed at the end */
export function rowLine(
  r: readonly TableCell[],
  columns: readonly Column[],
  { keep, widths, shortened }: ColumnFit,
): string {
  const cells: string[] = []
  for (let i = 0; i < r.length && i < columns.length; i++) {
    const c = r[i]
    if (!keep[i] || c === undefined) continue
    const s = shortened ? (c.short ?? c.text) : c.text
    const padded = (c.left ?? columns[i]!.left === true) ? s.padEnd(widths[i]!) : s.padStart(widths[i]!)
    cells.push(c.style !== undefined ? c.style(padded) : padded)
  }
  return cells.join('  ').trimEnd()
}

/** The line under a table that left columns out. */
export function hiddenNote(hidden: readonly string[]): string {
  return hidden.length === 0
    ? ''
    : `(--wide shows ${hidden.length} more column${hidden.length === 1 ? '' : 's'}: ${hidden.join(', ')})\n`
}
