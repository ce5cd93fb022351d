// `tsdump reconcile`: LEO, HW, LSO and consumer-visible record counts per partition, totals per topic.
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, exitCodeFor } from '../analysis/findings.js'
import type { ReconcileResult } from '../analysis/partition-results.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { PartitionFormat } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import type { CommandContext } from './context.js'
import { writeUnusable } from './partition-command.js'
import type { ScannedPaths } from '../scan/partition-paths.js'
import type { ScannedPartition } from '../scan/partition-scan.js'
import { BrokerModel } from '../scan/broker-model.js'
import { checkFilterBounds, needsIdResolved, resolveFilterIn } from '../scan/filter-resolve.js'
import type { WorkerInternals } from './workers/partition-pool.js'
import { scanPartitionsEach, threadsOf } from './workers/partition-pool.js'
import { modelOptions } from './lso.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { SpillQueue } from '../io/spill-queue.js'

/** the text's rows and its stderr findings each held in memory up to this, the rest in a scratch file */
const HELD_BYTES = 1024 * 1024

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

/**
 * Each partition written as soon as its scan is done (and those before it): the command holds what the printer keeps
 * for the end (format/reconcile-text.ts, reconcile-json.ts), not the partitions' reports.
 * @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record, USAGE for crossed bounds (the command line's exit 2)
 */
export async function runReconcile(opts: ReconcileCommandOptions, ctx: CommandContext): Promise<number> {
  const model = reconcileModel(opts.paths, opts)
  const { unusable, unreadable } = model.resolved()
  writeUnusable([...unusable, ...unreadable], ctx)
  if (unusable.length > 0) return EXIT_USAGE
  // the queues the text holds its rows and findings in: their scratch files deleted however the run ends
  const held: SpillQueue[] = []
  const out = createPartitionPrinter(opts.format ?? 'text', ctx, {
    colorLevel: opts.color === false ? 0 : ctx.colorLevel,
    wide: opts.wide === true,
  }).reconcileStream(opts.filter !== undefined, () => {
    const q = new SpillQueue(HELD_BYTES)
    held.push(q)
    return q
  })
  let found = EXIT_OK
  const each = (s: ScannedPartition): void => {
    out.partition({
      label: s.label,
      path: s.dir.path,
      report: s.report,
      snapshots: s.snapshots,
      ...(s.range !== undefined ? { range: s.range } : {}),
    })
    found = Math.max(found, exitCodeFor(s.report.findings))
  }
  try {
    // the coordinator's partitions are scanned on this thread, first when the filter's transactional id needs them
    await model.scanSplitEach(
      async (dirs, filter, _here, each) =>
        await scanPartitionsEach(
          dirs,
          {
            markerEpochs: false,
            ...threadsOf(opts),
            ...modelOptions(opts),
            ...(filter !== undefined ? { filter } : {}),
          },
          each,
        ),
      each,
      {
        analyzer: () => ({ markerEpochs: false }),
        ...(opts.filter !== undefined ? { filter: opts.filter } : {}),
      },
    )
    out.end(resolveFilterIn(opts.filter, model))
  } finally {
    for (const q of held) q.close()
  }
  return Math.min(Math.max(found, exitCodeFor(unreadable)), EXIT_FINDINGS)
}
