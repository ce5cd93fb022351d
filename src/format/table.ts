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

function widthOf (headers: readonly string[], rows: ReadonlyArray<readonly string[]>, keep: readonly boolean[]): number {
  let total = 0
  let n = 0
  headers.forEach((h, i) => {
    if (!keep[i]) return
    let w = h.length
    for (const r of rows) w = Math.max(w, (r[i] ?? '').length)
    total += w
    n++
  })
  return total + 2 * Math.max(0, n - 1)
}

/** Align `rows` under `columns`, within `width` unless `wide`. Numbers right-aligned unless `left`. */
export function fitTable (columns: readonly Column[], rows: ReadonlyArray<readonly TableCell[]>, chalk: ChalkInstance,
  opts: { wide?: boolean, width?: number } = {}): FittedTable {
  const width = opts.width ?? TABLE_WIDTH
  const keep = columns.map(() => true)
  let headers = columns.map((c) => c.header)
  let texts = rows.map((r) => r.map((c) => c.text))
  // a droppable column with nothing in it says nothing (NOTES without notes)
  if (opts.wide !== true) columns.forEach((c, i) => { if (c.dropRank !== undefined && texts.every((r) => (r[i] ?? '') === '')) keep[i] = false })
  const empty = keep.map((k) => !k)
  const shortened = opts.wide !== true && widthOf(headers, texts, keep) > width
  if (shortened) {
    headers = columns.map((c) => c.short ?? c.header)
    texts = rows.map((r) => r.map((c) => c.short ?? c.text))
    // columns of one rank go together (COMMIT and ABORT counts are one idea)
    const ranks = [...new Set(columns.map((c) => c.dropRank).filter((r): r is number => r !== undefined))].sort((a, b) => a - b)
    for (const rank of ranks) {
      if (widthOf(headers, texts, keep) <= width) break
      columns.forEach((c, i) => { if (c.dropRank === rank) keep[i] = false })
    }
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...texts.map((r) => (r[i] ?? '').length)))
  // headers are left-aligned, as before; styles apply after padding so colour codes do not count
  const line = (cells: readonly string[], left: (i: number) => boolean, style: (i: number, s: string) => string): string =>
    cells.map((s, i) => ({ s, i })).filter(({ i }) => keep[i]).map(({ s, i }) => {
      const w = widths[i] ?? 0
      return style(i, left(i) ? s.padEnd(w) : s.padStart(w))
    }).join('  ').trimEnd()
  const out = [line(headers, () => true, (_i, s) => chalk.bold(s))]
  rows.forEach((r, ri) => out.push(line(texts[ri]!, (i) => r[i]?.left ?? columns[i]?.left === true, (i, s) => r[i]?.style?.(s) ?? s)))
  return { text: out.join('\n') + '\n', hidden: columns.filter((_c, i) => !keep[i] && !empty[i]).map((c) => c.header), shortened }
}

/** The line under a table that left columns out. */
export function hiddenNote (hidden: readonly string[]): string {
  return hidden.length === 0 ? '' : `(--wide shows ${hidden.length} more column${hidden.length === 1 ? '' : 's'}: ${hidden.join(', ')})\n`
}
