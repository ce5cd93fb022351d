// The table of a transaction's partition runs in `tsdump transactions`' text (format/transactions-text.ts): the
// rule of format/table.ts fitTable (full headers and cells unless wider than the width, then the short ones; no
// column droppable), written straight from the runs' fields, one line per run, without a cell object per field.
import type { ChalkInstance } from 'chalk'
import type { PartitionRun } from '../analysis/transaction-join/types.js'
import type { Column } from './table.js'
import { headerLine } from './table.js'

export const RUN_COLUMNS: Column[] = [
  { header: 'PARTITION', left: true },
  { header: 'OFFSETS', left: true },
  { header: 'RECORDS', short: 'RECS' },
  { header: 'MARKER', left: true },
  { header: 'MARKER_AT', short: 'AT' },
  { header: 'COORDINATOR_EPOCH', short: 'CE' },
]
const N = RUN_COLUMNS.length
const FULL = RUN_COLUMNS.map((c) => c.header.length)
const SHORT = RUN_COLUMNS.map((c) => (c.short ?? c.header).length)
const LEFT = RUN_COLUMNS.map((c) => c.left === true)

/** header lines by the widths they were padded to (a few shapes repeat through a million transactions) */
const headers = new Map<string, string>()

function runCells(r: PartitionRun): string[] {
  return [
    `${r.topic}-${r.partition}`,
    r.lastDataOffset === null
      ? '-'
      : r.lastDataOffset === r.firstOffset
        ? String(r.firstOffset)
        : `${r.firstOffset}..${r.lastDataOffset}`,
    String(r.records),
    r.marker === null ? 'none (open)' : r.marker.type,
    r.marker === null ? '' : String(r.marker.offset),
    r.marker?.coordinatorEpoch === null || r.marker === null ? '' : String(r.marker.coordinatorEpoch),
  ]
}

/** the runs' table lines (header first), within `width` unless `wide` */
export function runTableLines(
  runs: readonly PartitionRun[],
  chalk: ChalkInstance,
  wide: boolean,
  width: number,
): string[] {
  const rows = runs.map(runCells)
  const full = FULL.slice()
  const short = SHORT.slice()
  for (const r of rows)
    for (let i = 0; i < N; i++) {
      const n = r[i]!.length
      if (n > full[i]!) full[i] = n
      if (n > short[i]!) short[i] = n
    }
  let total = 2 * (N - 1)
  for (const w of full) total += w
  const shortened = !wide && total > width
  const widths = shortened ? short : full
  const key = `${chalk.level}${shortened ? 's' : 'f'}${widths.join(',')}`
  let header = headers.get(key)
  if (header === undefined) {
    header = headerLine(RUN_COLUMNS, { keep: RUN_COLUMNS.map(() => true), widths, shortened, hidden: [] }, chalk)
    if (headers.size >= 1024) headers.clear()
    headers.set(key, header)
  }
  const out = [header]
  for (const r of rows) {
    let line = ''
    for (let i = 0; i < N; i++) {
      const s = r[i]!
      line += (i === 0 ? '' : '  ') + (LEFT[i] ? s.padEnd(widths[i]!) : s.padStart(widths[i]!))
    }
    out.push(line.trimEnd())
  }
  return out
}
