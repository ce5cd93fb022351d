// `tsdump reconcile`: LEO, HW, LSO and consumer-visible record counts per partition, totals per topic.
import { Chalk } from 'chalk'
import { hasErrors } from '../analysis/findings.js'
import type { PartitionReport } from '../analysis/reconcile.js'
import type { CliContext } from '../cli/context.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { reconcileJson } from '../format/txn-json.js'
import { formatFindings, formatReconcile } from '../format/txn-text.js'
import type { ScannedPartition, ScanOptions } from './partition-scan.js'
import { resolvePartitions, scanPartition } from './partition-scan.js'

export interface ReconcileOptions {
  paths: string[]
  json?: boolean
  color?: boolean
  /** every table column, whatever the width */
  wide?: boolean
}

export interface Reconciled { scanned: ScannedPartition, report: PartitionReport }

/** Scan and reconcile every partition under `paths`, one at a time; 2 on unusable input. */
export function reconcilePaths (paths: string[], ctx: CliContext, opts: ScanOptions = {}): Reconciled[] | 2 {
  const parts = resolvePartitions(paths, ctx)
  if (parts === 2) return 2
  const cps = new Map<string, OffsetCheckpoint | null>()
  return parts.map((p) => {
    const scanned = scanPartition(p, cps, opts)
    return { scanned, report: scanned.report }
  })
}

export async function runReconcile (opts: ReconcileOptions, ctx: CliContext): Promise<number> {
  const done = reconcilePaths(opts.paths, ctx)
  if (done === 2) return 2
  const chalk = new Chalk({ level: opts.color === false ? 0 : ctx.colorLevel })
  if (opts.json === true) {
    ctx.stdout.write(JSON.stringify(reconcileJson(done.map((d) => ({ report: d.report, path: d.scanned.dir.path })))) + '\n')
  } else {
    ctx.stdout.write(formatReconcile(done.map((d) => d.report), done.map((d) => d.scanned.label), chalk, opts.wide === true))
    const errChalk = new Chalk({ level: 0 })
    for (const d of done) ctx.stderr.write(formatFindings(d.scanned.label, d.report.findings.filter((f) => f.severity !== 'info'), errChalk))
  }
  return done.some((d) => hasErrors(d.report.findings)) ? 1 : 0
}
