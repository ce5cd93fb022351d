// `tsdump txns`: transaction timeline per partition; for __transaction_state partitions, the last
// known state of each transactional id.
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import { hasErrors } from '../analysis/findings.js'
import { buildLane } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transaction-state.js'
import { lastTransactionStates } from '../analysis/transaction-state.js'
import type { CliContext } from '../cli/context.js'
import type { Json } from '../format/txn-json.js'
import { findingJson } from '../format/txn-json.js'
import { formatFindings, formatLane, formatTable, formatTimeline } from '../format/txn-text.js'
import type { Column } from '../format/table.js'
import { timelineJson, transactionalIdJson } from '../format/txn-timeline-json.js'
import { reconcilePaths } from './reconcile.js'
import { readTransactionLog } from './transaction-log-scan.js'
import { isoTime } from '../format/timestamp.js'
import { writeJson } from '../format/json-stream.js'

export interface TxnsOptions {
  paths: string[]
  json?: boolean
  color?: boolean
  /** lane width in characters (default 70: the lane line fits 80 columns) */
  width?: number
  /** every table column, whatever the width */
  wide?: boolean
}

// narrow form: short headers, ISO time to the second, then the offset and the timeout go
const STATE_COLUMNS: Column[] = [{ header: 'TRANSACTIONAL_ID' }, { header: 'PRODUCER_ID', short: 'PID' }, { header: 'EPOCH' }, { header: 'STATE' },
  { header: 'TIMEOUT_MS', short: 'TIMEOUT', dropRank: 2 }, { header: 'LAST_UPDATE', short: 'LAST_UPDATE (UTC)' }, { header: 'OFFSET', dropRank: 1 }, { header: 'PARTITIONS' }]

function formatStates (label: string, states: readonly TransactionalIdState[], chalk: ChalkInstance, wide: boolean): string {
  const stateStyle = (s: string | null): ((x: string) => string) | undefined =>
    s === 'CompleteCommit' || s === 'PrepareCommit' ? chalk.green : s === 'CompleteAbort' || s === 'PrepareAbort' ? chalk.red : s === 'Ongoing' ? chalk.yellow : undefined
  const rows = states.map((s) => {
    const style = stateStyle(s.state)
    return [
      { text: s.transactionalId, left: true }, { text: s.producerId === null ? '-' : String(s.producerId) }, { text: s.producerEpoch === null ? '-' : String(s.producerEpoch) },
      { text: s.deleted ? '<DELETE>' : s.state ?? '', left: true, ...(style !== undefined ? { style } : {}) },
      { text: s.transactionTimeoutMs === null ? '-' : String(s.transactionTimeoutMs) },
      s.lastUpdateTimestamp === null ? { text: '-', left: true } : { text: isoTime(s.lastUpdateTimestamp), short: isoTime(s.lastUpdateTimestamp).replace(/\.\d{3}Z$/, 'Z'), left: true },
      { text: String(s.offset) }, { text: s.partitions.join(',') || '-', left: true },
    ]
  })
  return `${chalk.bold(label)}  ${states.length} transactional id${states.length === 1 ? '' : 's'}\n` +
    formatTable(STATE_COLUMNS, rows, chalk, wide)
}

export async function runTxns (opts: TxnsOptions, ctx: CliContext): Promise<number> {
  const done = reconcilePaths(opts.paths, ctx, { timeline: true })
  if (done === 2) return 2
  const chalk = new Chalk({ level: opts.color === false ? 0 : ctx.colorLevel })
  const plain = new Chalk({ level: 0 })
  const out: Json[] = []
  let errors = false
  for (const { scanned, report } of done) {
    const path = scanned.dir.path
    if (scanned.dir.topic === '__transaction_state') {
      const { records, findings } = readTransactionLog(scanned.dir)
      const states = lastTransactionStates(records)
      const all = [...report.findings, ...findings]
      errors ||= hasErrors(all)
      if (opts.json === true) {
        out.push({ topic: report.topic, partition: report.partition, path, transactionalIds: states.map(transactionalIdJson), findings: all.map(findingJson) })
      } else {
        ctx.stdout.write(formatStates(scanned.label, states, chalk, opts.wide === true) + '\n')
        ctx.stderr.write(formatFindings(scanned.label, all.filter((f) => f.severity !== 'info'), plain))
      }
      continue
    }
    errors ||= hasErrors(report.findings)
    const timeline = report.timeline!
    const runs = timeline.runs
    const lane = buildLane(timeline, opts.width ?? 70)
    if (opts.json === true) {
      out.push(timelineJson(report, path, runs, lane.chars.join('')))
    } else {
      ctx.stdout.write(formatTimeline(scanned.label, report, runs, formatLane(lane.chars, lane.batchesPerChar, chalk), chalk, opts.wide === true) + '\n')
      ctx.stderr.write(formatFindings(scanned.label, report.findings.filter((f) => f.severity !== 'info'), plain))
    }
  }
  if (opts.json === true) { writeJson(ctx.stdout, { partitions: out }); ctx.stdout.write('\n') }
  return errors ? 1 : 0
}
