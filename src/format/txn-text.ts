// Text output of reconcile / txns / lso. Pure: values in, strings out; colour through the ChalkInstance
// passed in (COMMIT green, ABORT red, open yellow).
import type { ChalkInstance } from 'chalk'
import type { Finding } from '../analysis/findings.js'
import type { PartitionReport } from '../analysis/reconcile.js'
import type { LaneChar, TimelineRun } from '../analysis/timeline.js'
import type { Transaction } from '../analysis/transactions.js'
import { topicTotals } from './txn-json.js'
import { formatFinding } from './finding-text.js'

export interface Cell { text: string, style?: (s: string) => string, left?: boolean }

/** Align cells in columns; numbers right-aligned unless `left`. Styles apply after padding. */
export function formatTable (header: string[], rows: Cell[][], chalk: ChalkInstance): string {
  const all: Cell[][] = [header.map((h) => ({ text: h, left: true, style: (s: string) => chalk.bold(s) })), ...rows]
  const widths: number[] = []
  for (const r of all) r.forEach((c, i) => { widths[i] = Math.max(widths[i] ?? 0, c.text.length) })
  return all.map((r) => r.map((c, i) => {
    const w = widths[i] ?? 0
    const padded = c.left === true ? c.text.padEnd(w) : c.text.padStart(w)
    return c.style !== undefined ? c.style(padded) : padded
  }).join('  ').trimEnd()).join('\n') + '\n'
}

function num (n: number | bigint, style?: (s: string) => string): Cell {
  return style !== undefined && n !== 0 && n !== 0n ? { text: String(n), style } : { text: String(n) }
}

export function formatReconcile (reports: readonly PartitionReport[], labels: readonly string[], chalk: ChalkInstance): string {
  const header = ['PARTITION', 'LEO', 'HW', 'LSO', 'READ_COMMITTED', 'READ_UNCOMMITTED', 'ABORTED', 'PENDING', 'COMMIT', 'ABORT', 'OPEN_TXNS']
  const rows = reports.map((r, i): Cell[] => [
    { text: labels[i] ?? '', left: true },
    num(r.logEndOffset),
    { text: `${r.highWatermark}${r.highWatermarkSource === 'logEndOffset' ? '*' : ''}` },
    r.lastStableOffset < r.highWatermark ? { text: String(r.lastStableOffset), style: chalk.yellow } : num(r.lastStableOffset),
    num(r.readCommitted), num(r.readUncommitted), num(r.abortedRecords, chalk.red), num(r.pendingRecords, chalk.yellow),
    num(r.controlBatches.COMMIT ?? 0, chalk.green), num(r.controlBatches.ABORT ?? 0, chalk.red), num(r.openTransactions.length, chalk.yellow),
  ])
  let out = formatTable(header, rows, chalk)
  const totals = topicTotals(reports)
  if (totals.length > 0) {
    out += '\n' + formatTable(['TOPIC', 'PARTITIONS', 'READ_COMMITTED', 'READ_UNCOMMITTED'],
      totals.map((t) => [{ text: t.topic, left: true }, num(t.partitions), num(t.readCommitted), num(t.readUncommitted)]), chalk)
  }
  if (reports.some((r) => r.highWatermarkSource === 'logEndOffset')) out += '\n* no replication-offset-checkpoint entry: high watermark = log end offset\n'
  const others = new Set(reports.flatMap((r) => Object.keys(r.controlBatches)).filter((k) => k !== 'COMMIT' && k !== 'ABORT'))
  if (others.size > 0) {
    out += `other control batches: ${reports.map((r, i) => {
      const parts = Object.entries(r.controlBatches).filter(([k, v]) => k !== 'COMMIT' && k !== 'ABORT' && v > 0).map(([k, v]) => `${k} ${v}`)
      return parts.length > 0 ? `${labels[i] ?? ''} (${parts.join(', ')})` : ''
    }).filter((s) => s !== '').join('; ')}\n`
  }
  return out
}

/** findings of a partition, one standard line each (format/finding-text.ts); the label names the partition when there is no file */
export function formatFindings (label: string, findings: readonly Finding[], _chalk: ChalkInstance): string {
  return findings.map((f) => formatFinding(f.file === undefined ? { ...f, file: label } : f) + '\n').join('')
}

function range (a: bigint, b: bigint): string { return a === b ? `${a}` : `${a}..${b}` }

function ending (t: Transaction, chalk: ChalkInstance): string {
  if (t.outcome === null) return chalk.yellow('OPEN (no marker yet)')
  const word = t.outcome === 'COMMIT' ? chalk.green('committed') : chalk.red('aborted'.padEnd(9))
  const marker = t.outcome === 'COMMIT' ? chalk.green('COMMIT') : chalk.red('ABORT')
  const epoch = t.markerEpoch !== null && t.markerEpoch !== t.producerEpoch ? ` (marker epoch ${t.markerEpoch})` : ''
  const coord = t.coordinatorEpoch !== null ? ` coordinatorEpoch ${t.coordinatorEpoch}` : ''
  return t.empty ? `${marker} at ${t.markerOffset}${coord}` : `${word}  ${marker} at ${t.markerOffset}${epoch}${coord}`
}

/** One line per run, like the story "committed 0..5, COMMIT at 6, aborted 7..14, ABORT at 15". */
export function formatRun (r: TimelineRun, chalk: ChalkInstance): string {
  switch (r.kind) {
    case 'plain':
      return [range(r.firstOffset, r.lastOffset).padEnd(14), `pid ${r.producerId}`.padEnd(20), 'plain'.padEnd(16),
        `${r.records} records`.padEnd(12), `${r.batches} batch${r.batches === 1 ? '' : 'es'}`].join(' ').trimEnd()
    case 'control':
      return [String(r.firstOffset).padEnd(14), `pid ${r.producerId}`.padEnd(20), `control ${r.typeName}`].join(' ')
    case 'transaction': {
      const t = r.txn
      const who = `pid ${t.producerId} epoch ${t.producerEpoch}`.padEnd(20)
      if (t.empty) return [String(t.markerOffset).padEnd(14), who, 'empty transaction'.padEnd(16), ''.padEnd(12), ending(t, chalk)].join(' ')
      const last = t.lastDataOffset ?? t.firstOffset
      const notes = [t.seeded ? `began at ${t.firstOffset}, before the log start (producer snapshot)` : '', r.interleaved ? 'interleaved with other producers' : '',
        r.listed === 'early' ? 'listed before its end, as it stood: too many later runs waited behind it; listed again where it ends' : '',
        r.listed === 'end' ? 'the transaction listed early above, where it ends' : '']
        .filter((s) => s !== '').map((s) => `  [${s}]`).join('')
      return [range(t.firstOffset, last).padEnd(14), who, 'transactional'.padEnd(16), `${t.records} records`.padEnd(12), ending(t, chalk)].join(' ') + notes
    }
  }
}

const LANE_STYLE: Record<LaneChar, (c: ChalkInstance, s: string) => string> = {
  C: (c, s) => c.green(s), A: (c, s) => c.red(s), O: (c, s) => c.yellow(s), '|': (c, s) => c.bold(s), '+': (c, s) => c.cyan(s), '.': (_c, s) => s,
}

export function formatLane (chars: readonly LaneChar[], batchesPerChar: number, chalk: ChalkInstance): string {
  let out = ''
  for (const ch of chars) out += LANE_STYLE[ch](chalk, ch)
  return `lane [${out}]${batchesPerChar > 1 ? ` (1 char = ${batchesPerChar} batches)` : ''}`
}

/** the first line of a partition's timeline */
export function formatTimelineHead (label: string, r: PartitionReport, chalk: ChalkInstance): string {
  return `${chalk.bold(label)}  offsets ${r.logStartOffset}..${r.logEndOffset - 1n}  HW ${r.highWatermark} (${r.highWatermarkSource})  LSO ${r.lastStableOffset}\n`
}
