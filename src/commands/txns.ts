// `tsdump txns`: transaction timeline per partition; for __transaction_state partitions, the last
// known state of each transactional id. Each partition is streamed by scan/txns-partition.ts, here or
// in worker threads (commands/workers/txns-pool.ts), to the printer's TxnsStream.
import type { Finding } from '../analysis/findings.js'
import { EXIT_FINDINGS, EXIT_USAGE } from '../analysis/findings.js'
import type { TimelinePartition, TxnsResult, TxnsStream } from '../analysis/partition-results.js'
import type { TimelineRun } from '../analysis/timeline.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { PartitionFormat } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import type { CommandContext } from './context.js'
import type { ResolvedPartitions } from '../scan/partition-paths.js'
import { resolvePartitions } from '../scan/partition-paths.js'
import type { TransactionStatePartition } from '../analysis/partition-results.js'
import type { ScannedTimeline } from '../scan/txns-partition.js'
import { timelinesAhead, txnsCoordinatorFirst, txnsPartition } from '../scan/txns-partition.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'
import type { WorkerInternals } from './workers/partition-pool.js'
import { streamTxnsInWorkers, txnsWorkerCount } from './workers/txns-pool.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { YoungGenerationHold } from '../io/young-generation.js'

/** txns()'s options (the library) */
export interface TxnsOptions {
  /** lane width in characters (default 70: the lane line fits 80 columns) */
  width?: number
  /** only the runs of these producers / overlapping this range (analysis/range-filter.ts runInRange) */
  filter?: RangeSpec
  /** --remote-storage: remote segments read before the local ones */
  remote?: RemoteInput
  /** false: stop at framing damage as Kafka's reader does (--no-resync); by default reading resumes at the next valid batch, as the dump does */
  resync?: boolean
}

/** `tsdump txns`'s: the library's and the command line's */
export interface TxnsCommandOptions extends TxnsOptions {
  paths: string[]
  format?: PartitionFormat
  color?: boolean
  /** every table column, whatever the width */
  wide?: boolean
  /** threads (default 1: no workers): commands/workers/txns-pool.ts */
  threads?: number
  /** tests: when workers are used, and how many ran */
  workerInternals?: WorkerInternals
}

/**
 * The printer's stream, V8's young generation held at its bound as it is told (io/young-generation.ts): after
 * each partition's scan and as runs are written; given back at the end
 */
function heldYoung(to: TxnsStream): TxnsStream {
  const hold = new YoungGenerationHold()
  return {
    timelineEnd: (p, lane) => {
      to.timelineEnd(p, lane)
    },
    end: () => {
      to.end()
      hold.release()
    },
    timelineStart: (p) => {
      hold.check()
      to.timelineStart(p)
    },
    run: (r) => {
      hold.tick()
      to.run(r)
    },
    transactionStates: (p) => {
      hold.check()
      to.transactionStates(p)
    },
  }
}

/** Streams the timeline (or transactional-id states) of each partition to `to`; returns the findings' exit code. */
function streamTxns(
  partitions: readonly PartitionDir[],
  width: number,
  to: TxnsStream,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  read: {
    filter: RangeSpec | undefined
    early: ReadonlyMap<string, TransactionStatePartition>
    ahead: ReadonlyMap<string, ScannedTimeline>
  },
  resync = true,
): number {
  const findings: Finding[] = []
  for (const dir of partitions) {
    const ahead = read.ahead.get(dir.path)
    const own =
      ahead !== undefined
        ? ahead.emit(to, width)
        : txnsPartition(dir, checkpoints, width, to, read.filter, resync, read.early)
    for (const f of own) findings.push(f) // no spread: a partition's findings can be more arguments than the stack holds
  }
  to.end()
  return partitionExitCode([], findings)
}

/**
 * The transaction timeline of every partition under `paths` (transactional-id states for __transaction_state), collected.
 * @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record, USAGE for crossed bounds (scan/filter-resolve.ts)
 */
export function txns(paths: string[], opts: TxnsOptions = {}): TxnsResult {
  const resolved = resolvePartitions(paths, opts.remote)
  const { partitions, unusable, unreadable } = resolved
  const result: TxnsResult = { unusable, ...(unreadable.length > 0 ? { unreadable } : {}), partitions: [] }
  const checkpoints = new Map<string, OffsetCheckpoint | null>()
  const read = readFirst(paths, resolved, checkpoints, opts.filter, opts.resync !== false)
  if (unusable.length > 0) return result
  let runs: TimelineRun[] = []
  streamTxns(
    partitions,
    opts.width ?? 70,
    {
      timelineStart: () => {
        runs = []
      },
      run: (r) => {
        runs.push(r)
      },
      timelineEnd: (p, lane) => {
        result.partitions.push({ ...p, kind: 'timeline', runs, lane } satisfies TimelinePartition)
      },
      transactionStates: (p) => {
        result.partitions.push(p)
      },
      end: () => {},
    },
    checkpoints,
    read,
    opts.resync !== false,
  )
  return result
}

/**
 * What is read before the partitions in their order: the remote metadata's partitions (their scans read the metadata
 * every other scan asks for as it starts, the coordinator's too), then a filter's transactional id resolved from the
 * coordinator's partitions (txnsCoordinatorFirst); each file read once.
 * @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record, USAGE for crossed bounds
 */
function readFirst(
  paths: readonly string[],
  resolved: ResolvedPartitions,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  filter: RangeSpec | undefined,
  resync: boolean,
): ReturnType<typeof txnsCoordinatorFirst> & { ahead: ReadonlyMap<string, ScannedTimeline> } {
  const ahead = timelinesAhead(resolved, checkpoints, filter, resync)
  try {
    const first = txnsCoordinatorFirst(paths, resolved.partitions, checkpoints, filter, resync)
    return { ...first, ahead: ahead.resolve(first.filter) }
  } catch (e) {
    ahead.discard()
    throw e
  }
}

/** @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record (the command line's exit 2) */
export async function runTxns(opts: TxnsCommandOptions, ctx: CommandContext): Promise<number> {
  const resolved = resolvePartitions(opts.paths, opts.remote)
  const { partitions, unusable, unreadable } = resolved
  // a filter's transactional id from the coordinator's partitions, read first and once (before any output)
  const checkpoints = new Map<string, OffsetCheckpoint | null>()
  const read = readFirst(opts.paths, resolved, checkpoints, opts.filter, opts.resync !== false)
  const filter = read.filter
  writeUnusable([...unusable, ...unreadable], ctx)
  if (unusable.length > 0) return EXIT_USAGE
  const printer = createPartitionPrinter(opts.format ?? 'text', ctx, {
    colorLevel: opts.color === false ? 0 : ctx.colorLevel,
    wide: opts.wide === true,
  })
  const workers = txnsWorkerCount(partitions, opts.threads, opts.workerInternals)
  // a partition directory that could not be read (the others were) is a finding: at least exit 1
  const atLeast = (code: number): number => (unreadable.length > 0 ? Math.max(code, EXIT_FINDINGS) : code)
  if (workers === 0)
    return atLeast(
      streamTxns(
        partitions,
        opts.width ?? 70,
        heldYoung(printer.txnsStream()),
        checkpoints,
        read,
        opts.resync !== false,
      ),
    )
  opts.workerInternals?.onWorkers?.(workers)
  const to = printer.txnsStream()
  const width = opts.width ?? 70
  // __transaction_state partitions are read here, in their turn (the same code as the sequential loop)
  return atLeast(
    await streamTxnsInWorkers(
      partitions,
      {
        width,
        ...(filter !== undefined ? { filter } : {}),
        ...(opts.resync === false ? { resync: false } : {}),
      },
      to,
      workers,
      (dir) =>
        read.ahead.get(dir.path)?.emit(to, width) ??
        txnsPartition(dir, checkpoints, width, to, filter, opts.resync !== false, read.early),
      (dir) => read.ahead.has(dir.path),
    ),
  )
}
