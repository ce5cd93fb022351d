// Text printer of reconcile / txns / lso: tables and stories on stdout (colour at the chosen level),
// the findings that are not info on stderr, uncoloured, partition by partition.
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import type { Finding } from '../analysis/findings.js'
import type { LsoPartition, LsoResult, PartitionResult, ReconcileResult, TransactionStatePartition, TxnsResult } from '../analysis/partition-results.js'
import type { Lane, TimelineRun } from '../analysis/timeline.js'
import type { ColorLevel, PartitionPrinter, PrinterOutput, TxnsStream } from './printer.js'
import { replayTxns } from './txns-stream.js'
import { isoTime } from './timestamp.js'
import { formatFindings, formatLane, formatReconcile, formatRun, formatTable, formatTimelineHead } from './txn-text.js'

function formatStates (p: TransactionStatePartition, chalk: ChalkInstance): string {
  const states = p.states
  const stateStyle = (s: string | null): ((x: string) => string) | undefined =>
    s === 'CompleteCommit' || s === 'PrepareCommit' ? chalk.green : s === 'CompleteAbort' || s === 'PrepareAbort' ? chalk.red : s === 'Ongoing' ? chalk.yellow : undefined
  const rows = states.map((s) => {
    const style = stateStyle(s.state)
    return [
      { text: s.transactionalId, left: true }, { text: s.producerId === null ? '-' : String(s.producerId) }, { text: s.producerEpoch === null ? '-' : String(s.producerEpoch) },
      { text: s.deleted ? '<DELETE>' : s.state ?? '', left: true, ...(style !== undefined ? { style } : {}) },
      { text: s.transactionTimeoutMs === null ? '-' : String(s.transactionTimeoutMs) },
      { text: s.lastUpdateTimestamp === null ? '-' : isoTime(s.lastUpdateTimestamp), left: true },
      { text: String(s.offset) }, { text: s.partitions.join(',') || '-', left: true },
    ]
  })
  return `${chalk.bold(p.label)}  ${states.length} transactional id${states.length === 1 ? '' : 's'}\n` +
    formatTable(['TRANSACTIONAL_ID', 'PRODUCER_ID', 'EPOCH', 'STATE', 'TIMEOUT_MS', 'LAST_UPDATE', 'OFFSET', 'PARTITIONS'], rows, chalk)
}

function ts (v: bigint | null): string { return v === null ? 'unknown' : `${v} (${isoTime(v)})` }

function formatBlocked (b: LsoPartition, timeoutMin: number, chalk: ChalkInstance): string {
  const r = b.report
  const label = chalk.bold(b.label)
  const t = b.blocking
  if (t === null) return `${label}: LSO ${r.lastStableOffset} = HW ${r.highWatermark}, nothing is blocked\n`
  const age = t.ageMs === null ? 'unknown' : `${(Number(t.ageMs) / 60000).toFixed(1)} min`
  const verdict = t.state === 'awaiting-high-watermark'
    ? chalk.green('ended; its marker is not below the high watermark yet')
    : t.hanging ? chalk.red(`HANGING (older than ${timeoutMin} min)`) : chalk.yellow(`open, within ${timeoutMin} min`)
  const lines = [
    `${label}: LSO ${r.lastStableOffset} < HW ${r.highWatermark} (${r.highWatermarkSource}), ${t.recordsWaiting} records waiting`,
    `  blocking transaction: producerId ${t.producerId} producerEpoch ${t.producerEpoch} coordinatorEpoch ${t.coordinatorEpoch === null ? 'unknown' : `${t.coordinatorEpoch} (from the ${t.coordinatorEpochSource})`}`,
    `  first offset ${t.firstOffset}${t.seeded ? ' (before the log start, from a producer snapshot)' : ''}, last data offset ${t.lastOffset ?? 'unknown'}, ${t.records} records`,
    `  first timestamp ${ts(t.firstTimestamp)}, last timestamp ${ts(t.lastTimestamp)}`,
    `  age ${age} before the newest batch (${ts(t.newestTimestamp)}): ${verdict}`,
  ]
  for (const s of b.ids) lines.push(`  transactional id ${s.transactionalId}: ${s.deleted ? 'deleted' : `state ${s.state}, epoch ${s.producerEpoch}, partitions [${s.partitions.join(',')}]`}`)
  if (r.openTransactions.length > 1) lines.push(`  ${r.openTransactions.length - 1} more open transaction(s) behind it`)
  if (t.state === 'open') {
    lines.push('  to abort it:')
    for (const c of b.commands) lines.push(`    ${c}`)
  }
  return lines.join('\n') + '\n'
}

export class TextPartitionPrinter implements PartitionPrinter {
  private readonly chalk: ChalkInstance
  private readonly plain = new Chalk({ level: 0 })

  constructor (private readonly out: PrinterOutput, color: ColorLevel) {
    this.chalk = new Chalk({ level: color })
  }

  private findings (label: string, findings: readonly Finding[]): void {
    this.out.stderr.write(formatFindings(label, findings.filter((f) => f.severity !== 'info'), this.plain))
  }

  reconcile (r: ReconcileResult): void {
    this.out.stdout.write(formatReconcile(r.partitions.map((p) => p.report), r.partitions.map((p) => p.label), this.chalk))
    for (const p of r.partitions) this.findings(p.label, p.report.findings)
  }

  txns (r: TxnsResult): void { replayTxns(this.txnsStream(), r) }

  txnsStream (): TxnsStream {
    const { stdout } = this.out
    const chalk = this.chalk
    let runs = 0
    return {
      timelineStart: (p: PartitionResult) => { runs = 0; stdout.write(formatTimelineHead(p.label, p.report, chalk)) },
      run: (x: TimelineRun) => { runs++; stdout.write(`  ${formatRun(x, chalk)}\n`) },
      timelineEnd: (p: PartitionResult, lane: Lane) => {
        stdout.write(`${runs === 0 ? '  (no batches)\n' : ''}  ${formatLane(lane.chars, lane.batchesPerChar, chalk)}\n\n`)
        this.findings(p.label, p.report.findings)
      },
      transactionStates: (p: TransactionStatePartition) => {
        stdout.write(formatStates(p, chalk) + '\n')
        this.findings(p.label, p.findings)
      },
      end: () => {},
    }
  }

  lso (r: LsoResult): void {
    for (const b of r.partitions) this.out.stdout.write(formatBlocked(b, r.maxTransactionTimeoutMinutes, this.chalk))
    const c = r.coordinator
    if (c !== null) {
      this.out.stdout.write(`transactional id ${c.transactionalId} is coordinated by __transaction_state-${c.partition}` +
        ` (abs(hashCode ${c.hashCode}) % ${c.partitionCount})\n`)
    }
    for (const b of r.partitions) this.findings(b.label, b.report.findings)
  }
}
