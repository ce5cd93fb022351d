// `tsdump txns`: transaction timeline per partition; for __transaction_state partitions, the last
// known state of each transactional id.
//
// Each partition is read twice, headers only: the first pass (the reconcile analysis) gives what the
// timeline's first line shows (log end, LSO) and the batch count that sizes the lane; the second
// streams the runs to the printer as they complete. So memory follows the open transactions and the
// lane's width, not the number of transactions (issue #15). Neither pass keeps the per-producer marker
// epochs (only `lso` reads them), so a producer without an open transaction costs nothing.
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE } from '../analysis/findings.js'
import { FindingList } from '../analysis/finding-list.js'
import type { TimelinePartition, TxnsResult } from '../analysis/partition-results.js'
import { LaneBuilder } from '../analysis/timeline.js'
import type { TimelineRun } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transaction-state.js'
import type { RangeCounted, RangeSpec } from '../analysis/range-filter.js'
import { runInRange } from '../analysis/range-filter.js'
import type { PartitionFormat, TxnsStream } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import type { CliContext } from './context.js'
import { resolvePartitions, scanPartition } from '../scan/partition-scan.js'
import { partitionExitCode, writeUnusable } from './reconcile.js'
import { transactionLogStates } from '../scan/transaction-log-scan.js'
import type { PartitionScanInternals } from './workers/partition-pool.js'
import { streamTxnsInWorkers, txnsWorkerCount } from './workers/txns-pool.js'

export interface TxnsOptions {
  paths: string[]
  format?: PartitionFormat
  color?: boolean
  /** lane width in characters (default 70: the lane line fits 80 columns) */
  width?: number
  /** every table column, whatever the width */
  wide?: boolean
  /** only the runs of these producers / overlapping this range (analysis/range-filter.ts runInRange) */
  filter?: RangeSpec
  /** threads (default 1: no workers): commands/workers/txns-pool.ts */
  threads?: number
  /** tests: when workers are used, and how many ran */
  scanInternals?: PartitionScanInternals
}

/** Streams the timeline (or transactional-id states) of each partition to `to`; returns the findings' exit code. */
function streamTxns (partitions: readonly PartitionDir[], width: number, to: TxnsStream, filter?: RangeSpec): number {
  const checkpoints = new Map<string, OffsetCheckpoint | null>()
  const findings: Finding[] = []
  for (const dir of partitions) {
    for (const f of txnsPartition(dir, checkpoints, width, to, filter)) findings.push(f) // no spread: 180k arguments overflowed the stack (issue #14)
  }
  to.end()
  return partitionExitCode([], findings)
}

/**
 * One partition's timeline (or transactional-id states) streamed to `to`; returns its findings. The same
 * code here and in a txns worker (commands/workers/txns-pool.ts), whose `to` posts what it is given.
 */
export function txnsPartition (dir: PartitionDir, checkpoints: Map<string, OffsetCheckpoint | null>, width: number, to: TxnsStream, filter?: RangeSpec): readonly Finding[] {
  if (dir.topic === '__transaction_state') {
    const s = scanPartition(dir, checkpoints)
    const { states: newest, findings: logFindings } = transactionLogStates(dir)
    const states = newest.filter((x) => filter === undefined || stateInFilter(x, filter))
    const all = new FindingList()
    all.absorb({ listed: s.report.findings, omitted: s.report.omittedFindings })
    all.absorb(logFindings)
    const p = { label: s.label, path: dir.path, report: s.report, kind: 'transactional-ids' as const, states, findings: all.listed, omittedFindings: all.omitted }
    to.transactionStates(p)
    return p.findings
  }
  const { lane, range } = firstPass(dir, checkpoints, width, to, filter)
  // the second pass's report (the same numbers) ends the partition
  const sink = range === undefined || filter === undefined ? (r: TimelineRun) => { to.run(r) } : (r: TimelineRun) => { if (runInRange(r, range, filter)) to.run(r) }
  const second = scanPartition(dir, checkpoints, { analyzer: () => ({ timeline: { sink, lane }, markerEpochs: false }) })
  to.timelineEnd({ label: second.label, path: dir.path, report: second.report }, lane.result())
  return second.report.findings
}

/**
 * The first pass: the timeline's first line, and the lane sized by the batch count. Its report, with its
 * per-producer tables (tens of MB for 1 M producer ids), is let go before the second pass builds its own.
 */
function firstPass (dir: PartitionDir, checkpoints: Map<string, OffsetCheckpoint | null>, width: number, to: TxnsStream, filter?: RangeSpec): { lane: LaneBuilder, range?: RangeCounted } {
  // with a filter this pass also finds which batches are in range (a time range needs the log read in order)
  const s = scanPartition(dir, checkpoints, { analyzer: () => ({ markerEpochs: false }), ...(filter !== undefined ? { filter } : {}) })
  to.timelineStart({ label: s.label, path: dir.path, report: s.report })
  return { lane: new LaneBuilder(s.report.batches, width), ...(s.range !== undefined ? { range: s.range } : {}) }
}

/** a transactional id's state on a __transaction_state partition, under --transactional-id / --producer-id */
function stateInFilter (s: TransactionalIdState, f: RangeSpec): boolean {
  if (f.transactionalId !== undefined) return s.transactionalId === f.transactionalId
  return f.producerIds === undefined || (s.producerId !== null && f.producerIds.includes(s.producerId))
}

/** The transaction timeline of every partition under `paths` (transactional-id states for __transaction_state), collected. */
export function txns (paths: string[], opts: { width?: number, filter?: RangeSpec } = {}): TxnsResult {
  const { partitions, unusable } = resolvePartitions(paths)
  const result: TxnsResult = { unusable, partitions: [] }
  if (unusable.length > 0) return result
  let runs: TimelineRun[] = []
  streamTxns(partitions, opts.width ?? 70, {
    timelineStart: () => { runs = [] },
    run: (r) => { runs.push(r) },
    timelineEnd: (p, lane) => { result.partitions.push({ ...p, kind: 'timeline', runs, lane } satisfies TimelinePartition) },
    transactionStates: (p) => { result.partitions.push(p) },
    end: () => {},
  }, opts.filter)
  return result
}

export async function runTxns (opts: TxnsOptions, ctx: CliContext): Promise<number> {
  const { partitions, unusable } = resolvePartitions(opts.paths)
  writeUnusable(unusable, ctx)
  if (unusable.length > 0) return EXIT_USAGE
  const printer = createPartitionPrinter(opts.format ?? 'text', ctx, opts.color === false ? 0 : ctx.colorLevel, { wide: opts.wide === true })
  const workers = txnsWorkerCount(partitions, opts.threads, opts.scanInternals)
  if (workers === 0) return streamTxns(partitions, opts.width ?? 70, printer.txnsStream(), opts.filter)
  opts.scanInternals?.onWorkers?.(workers)
  const to = printer.txnsStream()
  const width = opts.width ?? 70
  // __transaction_state partitions are read here, in their turn (the same code as the sequential loop)
  const checkpoints = new Map<string, OffsetCheckpoint | null>()
  return await streamTxnsInWorkers(partitions, { width, ...(opts.filter !== undefined ? { filter: opts.filter } : {}) }, to, workers,
    (dir) => txnsPartition(dir, checkpoints, width, to, opts.filter))
}
