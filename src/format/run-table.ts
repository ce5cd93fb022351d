// The table of a transaction's partition runs in `tsdump transactions`' text (format/transactions-text.ts): the
// rule of format/table.ts fitTable (full headers and cells unless wider than the width, then the short ones; no
// column droppable), written straight from the runs' fields, one line per run, without a cell object per field.
import type { ChalkInstance } from 'chalk'
import type { PartitionRun } from '../analysis/transaction-join/types.js'
import type { Column } from './table.js'
import { headerLine } from './table.js'
import { WORD_SLACK, intLength, putAscii, putIntWords, viewOf } from './ascii.js'
import type { Writer } from './writer.js'
import { toNumber } from '../bytes/int64.js'

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

// The same table written as bytes into the output buffer (writeRunTable): a million transactions' tables built as
// cell strings, padded, joined and trimmed were a tenth of the command's garbage. Two passes over the runs' fields
// (the widths, then the lines), nothing made per cell.

const NONE_OPEN = 'none (open)'
/** the header's bytes by the widths it was padded to, as `headers` holds its text */
const headerBytes = new Map<number | string, Buffer>()
/** each run's six cell lengths, reused from one table to the next */
let lengths = new Int32Array(6 * 16)

/** whether `s` is ASCII (a byte per character) */
function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false
  return true
}

/** each run's first and last data offset and its marker's, as measure() took them, for putCell */
let offsets = new Float64Array(3 * 16)

/** an offset as the table writes it: a number, or NaN past 2^53 (then the string path writes the table) */
function offsetNumber(v: bigint): number {
  const n = toNumber(v)
  return Number.isSafeInteger(n) ? n : Number.NaN
}

/** the runs' cell lengths into `lengths`; false when one cannot be written here (a topic not ASCII, an offset past 2^53) */
function measure(runs: readonly PartitionRun[]): boolean {
  if (lengths.length < N * runs.length) lengths = new Int32Array(N * runs.length * 2)
  if (offsets.length < 3 * runs.length) offsets = new Float64Array(3 * runs.length * 2)
  const len = lengths
  const at3 = offsets
  for (let j = 0; j < runs.length; j++) {
    const r = runs[j]!
    if (!isAscii(r.topic)) return false
    const k = N * j
    len[k] = r.topic.length + 1 + intLength(r.partition)
    const first = offsetNumber(r.firstOffset)
    if (Number.isNaN(first)) return false
    at3[3 * j] = first
    if (r.lastDataOffset === null) len[k + 1] = 1
    else if (r.lastDataOffset === r.firstOffset) len[k + 1] = intLength(first)
    else {
      const last = offsetNumber(r.lastDataOffset)
      if (Number.isNaN(last)) return false
      at3[3 * j + 1] = last
      len[k + 1] = intLength(first) + 2 + intLength(last)
    }
    len[k + 2] = intLength(r.records)
    const m = r.marker
    if (m === null) {
      len[k + 3] = NONE_OPEN.length
      len[k + 4] = 0
      len[k + 5] = 0
    } else {
      const at = offsetNumber(m.offset)
      if (Number.isNaN(at) || !isAscii(m.type)) return false
      at3[3 * j + 2] = at
      len[k + 3] = m.type.length
      len[k + 4] = intLength(at)
      len[k + 5] = m.coordinatorEpoch === null ? 0 : intLength(m.coordinatorEpoch)
    }
  }
  return true
}

/** `n` spaces at pos */
function putSpaces(buf: Buffer, pos: number, n: number): number {
  for (let i = 0; i < n; i++) buf[pos++] = 32
  return pos
}

/** cell i of run r, the j-th measured, at pos (its text only, unpadded) */
function putCell(dv: DataView, buf: Buffer, pos: number, r: PartitionRun, j: number, i: number): number {
  switch (i) {
    case 0:
      pos = putAscii(buf, pos, r.topic)
      buf[pos++] = 45
      return putIntWords(dv, pos, r.partition)
    case 1:
      if (r.lastDataOffset === null) {
        buf[pos] = 45
        return pos + 1
      }
      pos = putIntWords(dv, pos, offsets[3 * j]!)
      if (r.lastDataOffset === r.firstOffset) return pos
      buf[pos++] = 46
      buf[pos++] = 46
      return putIntWords(dv, pos, offsets[3 * j + 1]!)
    case 2:
      return putIntWords(dv, pos, r.records)
    case 3:
      return putAscii(buf, pos, r.marker === null ? NONE_OPEN : r.marker.type)
    case 4:
      return r.marker === null ? pos : putIntWords(dv, pos, offsets[3 * j + 2]!)
    default:
      return r.marker === null || r.marker.coordinatorEpoch === null
        ? pos
        : putIntWords(dv, pos, r.marker.coordinatorEpoch)
  }
}

/**
 * runTableLines' lines written to `out`, each after `indent` (ASCII) and ending in a newline: true, or false with
 * nothing written when a run holds what only the string path writes (a topic not ASCII, an offset past 2^53)
 */
export function writeRunTable(
  out: Writer,
  runs: readonly PartitionRun[],
  chalk: ChalkInstance,
  wide: boolean,
  width: number,
  indent: string,
): boolean {
  if (!measure(runs)) return false
  const len = lengths
  // the widths as runTableLines sets them (full and short), kept in two small arrays
  let total = 2 * (N - 1)
  let shortTotal = 0
  for (let i = 0; i < N; i++) {
    let w = FULL[i]!
    let s = SHORT[i]!
    for (let j = 0; j < runs.length; j++) {
      const n = len[N * j + i]!
      if (n > w) w = n
      if (n > s) s = n
    }
    FULL_W[i] = w
    SHORT_W[i] = s
    total += w
    shortTotal += s
  }
  const shortened = !wide && total > width
  const widths = shortened ? SHORT_W : FULL_W
  const lineBytes = indent.length + (shortened ? shortTotal + 2 * (N - 1) : total) + 1
  const header = headerOf(widths, shortened, chalk)
  let pos = out.reserve(indent.length + header.length + 1 + runs.length * lineBytes + WORD_SLACK)
  const buf = out.buffer
  const dv = viewOf(buf)
  pos = putAscii(buf, pos, indent)
  pos += header.copy(buf, pos)
  buf[pos++] = 10
  for (let j = 0; j < runs.length; j++) {
    const r = runs[j]!
    pos = putAscii(buf, pos, indent)
    for (let i = 0; i < N; i++) {
      if (i > 0) pos = putSpaces(buf, pos, 2)
      const pad = widths[i]! - len[N * j + i]!
      if (LEFT[i]) pos = putSpaces(buf, putCell(dv, buf, pos, r, j, i), pad)
      else pos = putCell(dv, buf, putSpaces(buf, pos, pad), r, j, i)
    }
    // trimEnd: the padding of the last cells when they are empty or left-aligned
    while (buf[pos - 1] === 32) pos--
    buf[pos++] = 10
  }
  out.commit(pos)
  return true
}

const FULL_W = new Int32Array(N)
const SHORT_W = new Int32Array(N)

/** the header line's bytes for these widths (made as runTableLines makes its text, kept as `headers` keeps it) */
function headerOf(widths: Int32Array, shortened: boolean, chalk: ChalkInstance): Buffer {
  // the shape as one number while every width is below 128 (7 bits each, 45 bits in all), else as text
  let key: number | string = chalk.level * 2 + (shortened ? 1 : 0)
  for (let i = 0; i < N; i++) {
    const w = widths[i]!
    if (w >= 128) {
      key = `${chalk.level}${shortened ? 's' : 'f'}${Array.from(widths).join(',')}`
      break
    }
    key = key * 128 + w
  }
  let b = headerBytes.get(key)
  if (b === undefined) {
    const w = Array.from(widths)
    // copy: the header's text as bytes, once per shape
    b = Buffer.from(
      headerLine(RUN_COLUMNS, { keep: RUN_COLUMNS.map(() => true), widths: w, shortened, hidden: [] }, chalk),
    )
    if (headerBytes.size >= 1024) headerBytes.clear()
    headerBytes.set(key, b)
  }
  return b
}
