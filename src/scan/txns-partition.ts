// `txns` on one partition: its transaction timeline (or, for a __transaction_state partition, the last
// known state of each transactional id) streamed to a TxnsStream. The same code runs on the main thread
// (commands/txns.ts) and in a txns worker (commands/workers/txns-worker.ts), whose stream posts what it is given.
//
// A timeline partition is read once, headers only, at any size: its runs are held until the scan's end gives
// the timeline's first line (log end, LSO) and the batch count that sizes the lane, the first HELD_RUNS in memory
// and the rest, with the lane past its window, in scratch files (scan/txns-spill.ts). One with a filter (it
// picks batches in a first pass) is read twice: the first pass (the reconcile analysis) gives the first line,
// the batch count and the range, the second streams the runs as they complete. Neither pass keeps the
// per-producer marker epochs (only `lso` reads them), so a producer without an open transaction costs nothing.
import type { Finding } from '../analysis/findings.js'
import { FindingList } from '../analysis/finding-list.js'
import type { TransactionStatePartition, TxnsStream } from '../analysis/partition-results.js'
import { LaneBuilder } from '../analysis/timeline.js'
import type { TimelineRun } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import type { RangeCounted, RangeSpec } from '../analysis/range-filter.js'
import { runInRange } from '../analysis/range-filter.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { scanPartition } from './partition-scan.js'
import type { IdWatch } from './transaction-state-read.js'
import { TransactionStateReader } from './transaction-state-read.js'
import { scanTransactionStatePartition } from './transaction-state-partition.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import { checkFilterBounds, needsIdResolved } from './filter-resolve.js'
import { internalPartitionsFor } from './internal-partitions.js'
import { coordinatorPartitionCountOf } from './metadata-partitions.js'
import { IdProducerIds, transactionalIdAnswer } from './transactional-id.js'

const STATE_TOPIC = '__transaction_state'
import type { TimedOutAbort } from '../analysis/transaction-join/timed-out.js'
import { TxnsSpill } from './txns-spill.js'

/**
 * One partition's timeline (or transactional-id states) streamed to `to`; returns its findings. `early`: the
 * __transaction_state partitions read already (txnsCoordinatorFirst), by path.
 */
export function txnsPartition(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  width: number,
  to: TxnsStream,
  filter?: RangeSpec,
  resync = true,
  early?: ReadonlyMap<string, TransactionStatePartition>,
): readonly Finding[] {
  const r = resync ? {} : { resync: false }
  if (dir.topic === '__transaction_state') {
    const p = early?.get(dir.path) ?? transactionStatesOf(dir, checkpoints, filter, resync)
    to.transactionStates(p)
    return p.findings
  }
  if (filter === undefined) return oneScan(dir, checkpoints, width, to, r)
  const { lane, range } = firstPass(dir, checkpoints, width, to, filter, r)
  // the second pass's report (the same numbers) ends the partition
  const sink =
    range === undefined || filter === undefined
      ? (r: TimelineRun) => {
          to.run(r)
        }
      : (r: TimelineRun) => {
          if (runInRange(r, range, filter)) to.run(r)
        }
  const second = scanPartition(dir, checkpoints, {
    analyzer: () => ({ timeline: { sink, lane }, markerEpochs: false }),
    ...r,
  })
  to.timelineEnd({ label: second.label, path: dir.path, report: second.report }, lane.result())
  return second.report.findings
}

/**
 * A __transaction_state partition in one pass: the partition's facts and the coordinator's records; a filter keeps
 * its ids' states, and their coordinator timeout aborts only (a transactional id is compared as such, so that its
 * producer ids need not be known yet). `watch` is told the records of its id.
 */
export function transactionStatesOf(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  filter?: RangeSpec,
  resync = true,
  watch?: IdWatch,
): TransactionStatePartition {
  const keep = (a: TimedOutAbort): boolean => filter === undefined || stateInFilter(a, filter)
  const {
    scanned: s,
    read: { states: newest, findings: logFindings },
  } = scanTransactionStatePartition(dir, checkpoints, resync ? {} : { resync: false }, keep, watch)
  const states = newest.filter((x) => filter === undefined || stateInFilter(x, filter))
  const all = new FindingList()
  all.absorb({ listed: s.report.findings, omitted: s.report.omittedFindings })
  // the framing damage the partition scan reported already is not said twice
  const said = new Set(s.report.findings.map((f) => `${f.code} ${f.file ?? ''} ${f.position ?? ''}`))
  all.absorb({
    listed: logFindings.listed.filter((f) => !said.has(`${f.code} ${f.file ?? ''} ${f.position ?? ''}`)),
    omitted: logFindings.omitted,
  })
  return {
    label: s.label,
    path: dir.path,
    report: s.report,
    kind: 'transactional-ids' as const,
    states,
    findings: all.listed,
    omittedFindings: all.omitted,
  }
}

/** The partition in one scan, its runs held (spilled past HELD_RUNS) until the first line is known. */
function oneScan(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  width: number,
  to: TxnsStream,
  r: { resync?: boolean },
): readonly Finding[] {
  const spill = new TxnsSpill()
  try {
    const s = scanPartition(dir, checkpoints, {
      analyzer: () => ({
        timeline: {
          sink: (run) => {
            spill.run(run)
          },
          lane: spill.lane,
        },
        markerEpochs: false,
      }),
      ...r,
    })
    const p = { label: s.label, path: dir.path, report: s.report }
    to.timelineStart(p)
    spill.replay((run) => {
      to.run(run)
    })
    to.timelineEnd(p, spill.lane.fold(s.report.batches, width))
    return s.report.findings
  } finally {
    spill.close()
  }
}

/**
 * The first pass: the timeline's first line, and the lane sized by the batch count. Its report, with its
 * per-producer tables (tens of MB for 1 M producer ids), is let go before the second pass builds its own.
 */
function firstPass(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  width: number,
  to: TxnsStream,
  filter: RangeSpec | undefined,
  r: { resync?: boolean },
): { lane: LaneBuilder; range?: RangeCounted } {
  // with a filter this pass also finds which batches are in range (a time range needs the log read in order)
  const s = scanPartition(dir, checkpoints, {
    analyzer: () => ({ markerEpochs: false }),
    ...(filter !== undefined ? { filter } : {}),
    ...r,
  })
  to.timelineStart({ label: s.label, path: dir.path, report: s.report })
  return { lane: new LaneBuilder(s.report.batches, width), ...(s.range !== undefined ? { range: s.range } : {}) }
}

/** a transactional id's state on a __transaction_state partition, under --transactional-id / --producer-id */
function stateInFilter(s: Pick<TransactionalIdState, 'transactionalId' | 'producerId'>, f: RangeSpec): boolean {
  if (f.transactionalId !== undefined) return s.transactionalId === f.transactionalId
  return f.producerIds === undefined || (s.producerId !== null && f.producerIds.includes(s.producerId))
}

/**
 * A filter's transactional id resolved from the coordinator's records, each __transaction_state file read once: the
 * partitions among those txns lists are read first (their output held in `early` for their turn: it depends on
 * the id, not on its producer ids), those beside them read alone; then the timelines are read with the id's
 * producer ids. @throws TsdumpError NOT_FOUND (scan/filter-resolve.ts), USAGE for crossed bounds
 */
export function txnsCoordinatorFirst(
  paths: readonly string[],
  partitions: readonly PartitionDir[],
  checkpoints: Map<string, OffsetCheckpoint | null>,
  filter: RangeSpec | undefined,
  resync = true,
): { filter: RangeSpec | undefined; early: Map<string, TransactionStatePartition> } {
  checkFilterBounds(filter)
  const early = new Map<string, TransactionStatePartition>()
  if (!needsIdResolved(filter)) return { filter, early }
  const watch = new IdProducerIds(filter.transactionalId)
  for (const dir of partitions)
    if (dir.topic === STATE_TOPIC) early.set(dir.path, transactionStatesOf(dir, checkpoints, filter, resync, watch))
  const { dirs, logDirs } = internalPartitionsFor(STATE_TOPIC, partitions)
  for (const dir of dirs) if (!early.has(dir.path)) new TransactionStateReader(dir, undefined, watch).readAlone()
  const r = transactionalIdAnswer(watch, {
    dirs,
    logDirs,
    count: () => coordinatorPartitionCountOf(STATE_TOPIC, paths),
  })
  if ('error' in r) throw new TsdumpError('NOT_FOUND', r.error)
  return { filter: { ...filter, producerIds: r.producerIds }, early }
}
