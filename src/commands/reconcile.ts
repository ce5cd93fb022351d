// `tsdump reconcile`: LEO, HW, LSO and consumer-visible record counts per partition, totals per topic.
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE } from '../analysis/findings.js'
import type { ReconcileResult } from '../analysis/partition-results.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { PartitionFormat } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import type { CommandContext } from './context.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'
import type { ScannedPaths } from '../scan/partition-paths.js'
import { BrokerModel } from '../scan/broker-model.js'
import { checkFilterBounds, needsIdResolved, resolveFilterIn } from '../scan/filter-resolve.js'
import type { WorkerInternals } from './workers/partition-pool.js'
import { scanPartitions, threadsOf } from './workers/partition-pool.js'
import { modelOptions } from './lso.js'
import type { RemoteInput } from '../io/remote/spec.js'

/** reconcile()'s options (the library) */
export interface ReconcileOptions {
  /** count only the records in this range (analysis/range-filter.ts); LEO, HW, LSO stay the whole partition's */
  filter?: RangeSpec
  /** --remote-storage: remote segments read before the local ones */
  remote?: RemoteInput
  /** false: stop at framing damage as Kafka's reader does (--no-resync); by default reading resumes at the next valid batch, as the dump does */
  resync?: boolean
}

/** `tsdump reconcile`'s: the library's and the command line's */
export interface ReconcileCommandOptions extends ReconcileOptions {
  paths: string[]
  /** printer: text (default) or json */
  format?: PartitionFormat
  color?: boolean
  /** every table column, whatever the width */
  wide?: boolean
  /** worker threads for the partitions (default: the available cores, at most 2; 1 = none) */
  threads?: number
  /** tests: when workers are used, and how many ran */
  workerInternals?: WorkerInternals
}

/**
 * Scan and reconcile every partition under `paths`.
 * @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record, USAGE for crossed bounds (scan/filter-resolve.ts)
 */
export function reconcile(paths: string[], opts: ReconcileOptions = {}): ReconcileResult {
  const model = reconcileModel(paths, opts)
  const scan = model.scan(opts.filter !== undefined ? { filter: opts.filter } : {})
  return reconciled(scan, resolveFilterIn(opts.filter, model))
}

/**
 * The broker model reconcile reads: a filter's transactional id is resolved from its one read of the coordinator's
 * records, the coordinator's partitions scanned first (BrokerModel.scan).
 * @throws TsdumpError USAGE for crossed bounds
 */
function reconcileModel(paths: string[], opts: ReconcileOptions): BrokerModel {
  checkFilterBounds(opts.filter)
  return new BrokerModel(paths, {
    ...modelOptions(opts),
    ...(needsIdResolved(opts.filter) ? { transactionalId: opts.filter.transactionalId } : { coordinatorInScan: false }),
  })
}

/** reconcile's result from a scan of the paths (doctor shares its broker model's scan) */
export function reconciled(
  { unusable, unreadable, scanned }: ScannedPaths,
  filter: RangeSpec | undefined,
): ReconcileResult {
  return {
    unusable,
    ...(unreadable.length > 0 ? { unreadable } : {}),
    ...(filter !== undefined ? { filter } : {}),
    partitions: scanned.map((s) => ({
      label: s.label,
      path: s.dir.path,
      report: s.report,
      snapshots: s.snapshots,
      ...(s.range !== undefined ? { range: s.range } : {}),
    })),
  }
}

/** @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record, USAGE for crossed bounds (the command line's exit 2) */
export async function runReconcile(opts: ReconcileCommandOptions, ctx: CommandContext): Promise<number> {
  const model = reconcileModel(opts.paths, opts)
  // the coordinator's partitions are scanned on this thread, first when the filter's transactional id needs them
  const scan = await model.scanSplit(
    async (dirs, filter) =>
      await scanPartitions(dirs, {
        markerEpochs: false,
        ...threadsOf(opts),
        ...modelOptions(opts),
        ...(filter !== undefined ? { filter } : {}),
      }),
    {
      analyzer: () => ({ markerEpochs: false }),
      ...(opts.filter !== undefined ? { filter: opts.filter } : {}),
    },
  )
  const r = reconciled(scan, resolveFilterIn(opts.filter, model))
  writeUnusable([...r.unusable, ...(r.unreadable ?? [])], ctx)
  if (r.unusable.length > 0) return EXIT_USAGE
  createPartitionPrinter(opts.format ?? 'text', ctx, {
    colorLevel: opts.color === false ? 0 : ctx.colorLevel,
    wide: opts.wide === true,
  }).reconcile(r)
  return partitionExitCode(
    r.unusable,
    r.partitions.flatMap((p) => p.report.findings),
    0,
    r.unreadable,
  )
}
