// Text output of reconcile / txns / lso. Pure: values in, strings out; colour through the ChalkInstance
// passed in (COMMIT green, ABORT red, open yellow).
import type { ChalkInstance } from 'chalk'
import type { OmittedFindings } from '../analysis/finding-list.js'
import { omittedFindings } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import type { PartitionReport } from '../analysis/partition-report.js'
import type { LaneChar, TimelineRun } from '../analysis/timeline.js'
import { formatFinding, formatFindingList } from './finding-text.js'
import type { Column } from './table.js'
import { fitTable, hiddenNote } from './table.js'

export interface Cell {
  text: string
  style?: (s: string) => string
  left?: boolean
  short?: string
}

/**
 * Align cells in columns; numbers right-aligned unless `left`. Styles apply after padding. Within 80
 * columns unless `wide` (format/table.ts: short headers and cells first, then droppable columns go).
 */
export function formatTable(
  header: ReadonlyArray<string | Column>,
  rows: Cell[][],
  chalk: ChalkInstance,
  wide = false,
): string {
  const t = fitTable(
    header.map((h) => (typeof h === 'string' ? { header: h } : h)),
    rows,
    chalk,
    { wide },
  )
  return t.text + hiddenNote(t.hidden)
}

/**
 * findings of a partition, one standard line each (format/finding-text.ts); the label names the partition when there is no file.
 * Then one line per code the report only counted (`omitted`, PartitionReport.omittedFindings), info codes too: the text
 * shows no info finding, but 180k duplicate markers are worth a line.
 */
export function formatFindings(
  label: string,
  findings: readonly Finding[],
  _chalk: ChalkInstance,
  omitted: OmittedFindings = {},
): string {
  // a finding about the partition keeps its offsets (`<label>: offsets A..B:`), not the label in place of a file
  let out = formatFindingList(
    findings.map((f) => (f.file === undefined && f.partition === undefined ? { ...f, partition: label } : f)),
  )
  for (const f of omittedFindings(omitted, label)) out += formatFinding(f) + '\n'
  return out
}

const LANE_STYLE: Record<LaneChar, (c: ChalkInstance, s: string) => string> = {
  C: (c, s) => c.green(s),
  A: (c, s) => c.red(s),
  O: (c, s) => c.yellow(s),
  '|': (c, s) => c.bold(s),
  '+': (c, s) => c.cyan(s),
  '.': (_c, s) => s,
}

export function formatLane(chars: readonly LaneChar[], batchesPerChar: number, chalk: ChalkInstance): string {
  let out = ''
  for (const ch of chars) out += LANE_STYLE[ch](chalk, ch)
  // the scale goes on a line of its own, so the lane line stays within its width
  return `lane [${out}]${batchesPerChar > 1 ? `\n  (1 lane char = ${batchesPerChar} batches)` : ''}`
}

/** the first line of a partition's timeline */
export function formatTimelineHead(label: string, r: PartitionReport, chalk: ChalkInstance): string {
  return `${chalk.bold(label)}  offsets ${r.logStartOffset}..${r.logEndOffset - 1n}  HW ${r.highWatermark} (${r.highWatermarkSource})  LSO ${r.lastStableOffset}\n`
}
