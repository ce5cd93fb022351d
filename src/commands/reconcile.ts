// `tsdump reconcile`: LEO, HW, LSO and consumer-visible record counts per partition, totals per topic.
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE, exitCodeFor } from '../analysis/findings.js'
import type { ReconcileResult } from '../analysis/partition-results.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionFormat } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import { formatFinding } from '../format/finding-text.js'
import type { CliContext } from './context.js'
import type { ScannedPartition, ScanOptions } from '../scan/partition-scan.js'
import { resolvePartitions, scanPartition } from '../scan/partition-scan.js'
import type { PartitionScanInternals, PartitionScanRequest } from './workers/partition-pool.js'
import { scanPartitions } from './workers/partition-pool.js'

export interface ReconcileOptions {
  paths: string[]
  /** printer: text (default) or json */
  format?: PartitionFormat
  color?: boolean
  /** every table column, whatever the width */
  wide?: boolean
  /** count only the records in this range (analysis/range-filter.ts); LEO, HW, LSO stay the whole partition's */
  filter?: RangeSpec
  /** worker threads for the partitions (default: the available cores, at most 2; 1 = none) */
  threads?: number
  /** tests: when workers are used, and how many ran */
  scanInternals?: PartitionScanInternals
}

export function threadsOf (o: { threads?: number, scanInternals?: PartitionScanInternals }): Pick<PartitionScanRequest, 'threads' | 'internals'> {
  return { ...(o.threads !== undefined ? { threads: o.threads } : {}), ...(o.scanInternals !== undefined ? { internals: o.scanInternals } : {}) }
}

/** Scan every partition under `paths`, one at a time (the partitions keep their directory listing). */
export function scanPaths (paths: string[], opts: ScanOptions = {}): { unusable: Finding[], scanned: ScannedPartition[] } {
  const { partitions, unusable } = resolvePartitions(paths)
  const cps = new Map<string, OffsetCheckpoint | null>()
  return { unusable, scanned: partitions.map((p) => scanPartition(p, cps, opts)) }
}

/** Scan and reconcile every partition under `paths`. */
export function reconcile (paths: string[], opts: ScanOptions = {}): ReconcileResult {
  return reconciled(scanPaths(paths, opts), opts.filter)
}

function reconciled ({ unusable, scanned }: { unusable: Finding[], scanned: ScannedPartition[] }, filter: RangeSpec | undefined): ReconcileResult {
  return { unusable, ...(filter !== undefined ? { filter } : {}),
    partitions: scanned.map((s) => ({ label: s.label, path: s.dir.path, report: s.report, snapshots: s.snapshots, ...(s.range !== undefined ? { range: s.range } : {}) })) }
}

/** scanPaths with the partitions spread over worker threads (commands/workers/partition-pool.ts) */
export async function scanPathsInWorkers (paths: string[], req: PartitionScanRequest): Promise<{ unusable: Finding[], scanned: ScannedPartition[] }> {
  const { partitions, unusable } = resolvePartitions(paths)
  return { unusable, scanned: unusable.length > 0 ? [] : await scanPartitions(partitions, req) }
}

/** exit code of a partition command: unusable input 2, else the findings' rule (plus `extra`) */
export function partitionExitCode (unusable: readonly Finding[], findings: readonly Finding[], extra = 0): number {
  return unusable.length > 0 ? EXIT_USAGE : Math.max(extra, exitCodeFor(findings))
}

/** in the one finding format (`tsdump: error: <path>: position 0: … [UNREADABLE]`), as `dump` prints them */
export function writeUnusable (unusable: readonly Finding[], ctx: CliContext): void {
  for (const u of unusable) ctx.stderr.write(formatFinding(u) + '\n')
}

export async function runReconcile (opts: ReconcileOptions, ctx: CliContext): Promise<number> {
  const r = reconciled(await scanPathsInWorkers(opts.paths, { markerEpochs: false, ...threadsOf(opts), ...(opts.filter !== undefined ? { filter: opts.filter } : {}) }), opts.filter)
  writeUnusable(r.unusable, ctx)
  if (r.unusable.length > 0) return EXIT_USAGE
  createPartitionPrinter(opts.format ?? 'text', ctx, opts.color === false ? 0 : ctx.colorLevel, { wide: opts.wide === true }).reconcile(r)
  return partitionExitCode(r.unusable, r.partitions.flatMap((p) => p.report.findings))
}
