// `tsdump txns`: transaction timeline per partition; for __transaction_state partitions, the last
// known state of each transactional id.
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import type { Finding } from '../analysis/findings.js'
import { exitCodeFor } from '../analysis/findings.js'
import { buildLane } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transaction-state.js'
import { lastTransactionStates } from '../analysis/transaction-state.js'
import type { CliContext } from './context.js'
import type { Json } from '../format/txn-json.js'
import { findingJson } from '../format/txn-json.js'
import { formatFindings, formatLane, formatTable, formatTimeline } from '../format/txn-text.js'
import { timelineJson, transactionalIdJson } from '../format/txn-timeline-json.js'
import { reconcilePaths } from './reconcile.js'
import { readTransactionLog } from './transaction-log-scan.js'
import { isoTime } from '../format/timestamp.js'
import { writeJson } from '../format/json-stream.js'

export interface TxnsOptions {
  paths: string[]
  json?: boolean
  color?: boolean
  /** lane width in characters (default 80) */
  width?: number
}

function formatStates (label: string, states: readonly TransactionalIdState[], chalk: ChalkInstance): string {
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
  return `${chalk.bold(label)}  ${states.length} transactional id${states.length === 1 ? '' : 's'}\n` +
    formatTable(['TRANSACTIONAL_ID', 'PRODUCER_ID', 'EPOCH', 'STATE', 'TIMEOUT_MS', 'LAST_UPDATE', 'OFFSET', 'PARTITIONS'], rows, chalk)
}

export async function runTxns (opts: TxnsOptions, ctx: CliContext): Promise<number> {
  const done = reconcilePaths(opts.paths, ctx, { timeline: true })
  if (done === 2) return 2
  const chalk = new Chalk({ level: opts.color === false ? 0 : ctx.colorLevel })
  const plain = new Chalk({ level: 0 })
  const out: Json[] = []
  const reported: Finding[] = []
  for (const { scanned, report } of done) {
    const path = scanned.dir.path
    if (scanned.dir.topic === '__transaction_state') {
      const { records, findings } = readTransactionLog(scanned.dir)
      const states = lastTransactionStates(records)
      const all = [...report.findings, ...findings]
      reported.push(...all)
      if (opts.json === true) {
        out.push({ topic: report.topic, partition: report.partition, path, transactionalIds: states.map(transactionalIdJson), findings: all.map(findingJson) })
      } else {
        ctx.stdout.write(formatStates(scanned.label, states, chalk) + '\n')
        ctx.stderr.write(formatFindings(scanned.label, all.filter((f) => f.severity !== 'info'), plain))
      }
      continue
    }
    reported.push(...report.findings)
    const timeline = report.timeline!
    const runs = timeline.runs
    const lane = buildLane(timeline, opts.width ?? 80)
    if (opts.json === true) {
      out.push(timelineJson(report, path, runs, lane.chars.join('')))
    } else {
      ctx.stdout.write(formatTimeline(scanned.label, report, runs, formatLane(lane.chars, lane.batchesPerChar, chalk), chalk) + '\n')
      ctx.stderr.write(formatFindings(scanned.label, report.findings.filter((f) => f.severity !== 'info'), plain))
    }
  }
  if (opts.json === true) { writeJson(ctx.stdout, { partitions: out }); ctx.stdout.write('\n') }
  return exitCodeFor(reported)
}
