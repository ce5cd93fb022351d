// `tsdump txns`: transaction timeline per partition; for __transaction_state partitions, the last
// known state of each transactional id.
import type { TxnsResult } from '../analysis/partition-results.js'
import { buildLane } from '../analysis/timeline.js'
import { lastTransactionStates } from '../analysis/transaction-state.js'
import { EXIT_USAGE } from '../analysis/findings.js'
import type { PartitionFormat } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import type { CliContext } from './context.js'
import { partitionExitCode, scanPaths, writeUnusable } from './reconcile.js'
import { readTransactionLog } from './transaction-log-scan.js'

export interface TxnsOptions {
  paths: string[]
  format?: PartitionFormat
  color?: boolean
  /** lane width in characters (default 70: the lane line fits 80 columns) */
  width?: number
  /** every table column, whatever the width */
  wide?: boolean
}

/** The transaction timeline of every partition under `paths` (transactional-id states for __transaction_state). */
export function txns (paths: string[], opts: { width?: number } = {}): TxnsResult {
  const { unusable, scanned } = scanPaths(paths, { timeline: true })
  return {
    unusable,
    partitions: scanned.map((s) => {
      const dir = s.dir
      const base = { label: s.label, path: dir.path, report: s.report }
      if (dir.topic === '__transaction_state') {
        const { records, findings } = readTransactionLog(dir)
        return { ...base, kind: 'transactional-ids' as const, states: lastTransactionStates(records), findings: [...s.report.findings, ...findings] }
      }
      const timeline = s.report.timeline!
      return { ...base, kind: 'timeline' as const, runs: timeline.runs, lane: buildLane(timeline, opts.width ?? 70) }
    }),
  }
}

export async function runTxns (opts: TxnsOptions, ctx: CliContext): Promise<number> {
  const r = txns(opts.paths, opts.width !== undefined ? { width: opts.width } : {})
  writeUnusable(r.unusable, ctx)
  if (r.unusable.length > 0) return EXIT_USAGE
  createPartitionPrinter(opts.format ?? 'text', ctx, opts.color === false ? 0 : ctx.colorLevel, { wide: opts.wide === true }).txns(r)
  return partitionExitCode(r.unusable, r.partitions.flatMap((p) => p.kind === 'timeline' ? p.report.findings : p.findings))
}
