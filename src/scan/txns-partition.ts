// `txns` on one partition: its transaction timeline (or, for a __transaction_state partition, the last
// known state of each transactional id) streamed to a TxnsStream. The same code runs on the main thread
// (commands/txns.ts) and in a txns worker (commands/workers/txns-worker.ts), whose stream posts what it is given.
//
// A timeline partition is read once, headers only, at any size: its runs are held until the scan's end gives
// the timeline's first line (log end, LSO) and the batch count that sizes the lane, the first HELD_RUNS in memory
// and the rest, with the lane past its window, in scratch files (scan/txns-spill.ts). With a filter the same pass
// finds the batches in range; the runs of its producers are held alike and listed at the end, those that overlap
// the range. The scan keeps no per-producer marker epochs (only `lso` reads them), so a producer without an open
// transaction costs nothing.
import type { Finding } from '../analysis/findings.js'
import { FindingList } from '../analysis/finding-list.js'
import type { TransactionStatePartition, TxnsStream } from '../analysis/partition-results.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import type { RangeCounted, RangeSpec } from '../analysis/range-filter.js'
import { RangeFilter, runInRange } from '../analysis/range-filter.js'
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { scanPartition } from './partition-scan.js'
import type { ResolvedPartitions } from './partition-paths.js'
import { remoteMetadataFirst } from './partition-paths.js'
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
  return oneScan(dir, checkpoints, width, to, r, filter)
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

/**
 * The partition in one scan, its runs held (spilled past HELD_RUNS) until the first line is known. With a filter the
 * range is found in the same pass (a RangeFilter told every batch, as a filtered scan's is) and the runs are kept of
 * the producers asked for, then listed when they overlap it: the range's end is known only at the scan's end.
 */
function oneScan(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  width: number,
  to: TxnsStream,
  r: { resync?: boolean },
  filter?: RangeSpec,
): readonly Finding[] {
  return scanTimeline(dir, checkpoints, r, filter).emit(to, width)
}

/** a partition's timeline scanned, its runs held: `emit` writes it (once) and lets its scratch files go */
export interface ScannedTimeline {
  emit(to: TxnsStream, width: number): readonly Finding[]
  /** its scratch files let go, unwritten */
  discard(): void
}

/**
 * oneScan's scan, its writing left for later: a partition scanned ahead of its turn (the remote metadata's, whose
 * scans read the metadata the other partitions' scans need first: scan/remote-metadata-read.ts)
 */
export function scanTimeline(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  r: { resync?: boolean },
  filter?: RangeSpec,
  seen?: Set<bigint>,
): ScannedTimeline {
  const spill = new TxnsSpill()
  const range = filter === undefined ? undefined : new RangeFilter(filter)
  const producers = filter?.producerIds === undefined ? null : new Set(filter.producerIds)
  let s: ReturnType<typeof scanPartition>
  try {
    s = scanPartition(dir, checkpoints, {
      analyzer: () => ({
        timeline: {
          sink: (run) => {
            if (producers === null || producers.has(run.kind === 'transaction' ? run.txn.producerId : run.producerId))
              spill.run(run)
          },
          lane: spill.lane,
        },
        markerEpochs: false,
      }),
      ...(range !== undefined
        ? {
            batch: (b) => {
              seen?.add(toBigInt(b.producerId))
              range.batch(b)
            },
          }
        : {}),
      ...r,
    })
  } catch (e) {
    spill.close()
    throw e
  }
  return {
    emit: (to, width) => {
      try {
        // the head's offsets (log start and end, HW, LSO) do not depend on a filter's record counts: the scan's own
        const p = { label: s.label, path: dir.path, report: s.report }
        to.timelineStart(p)
        const counted = range === undefined ? undefined : rangeCounted(range)
        spill.replay((run) => {
          if (counted === undefined || runInRange(run, counted, filter!)) to.run(run)
        })
        to.timelineEnd(p, spill.lane.fold(s.report.batches, width))
        return s.report.findings
      } finally {
        spill.close()
      }
    },
    discard: () => {
      spill.close()
    },
  }
}

/** the partitions timelinesAhead scanned, `resolve`d once the filter's transactional id is (or discarded) */
export interface TimelinesAhead {
  /** by path, each written in its turn, scanned with `filter` (the filter txnsCoordinatorFirst resolved) */
  resolve(filter: RangeSpec | undefined): Map<string, ScannedTimeline>
  /** their scratch files let go (the command stops before writing them) */
  discard(): void
}

/**
 * The __remote_log_metadata partitions among `resolved`'s whose scans are to read the metadata (remoteMetadataFirst),
 * scanned now, ahead of the others, whose scans ask for it as they start: before the coordinator's partitions
 * txnsCoordinatorFirst reads for a transactional id, whose scans ask for it too (each file read once). Their
 * producers are not known yet then: they are scanned with none (the broker model's coordinatorFirst does the same),
 * which lets in what the id's would where they hold no batch of one of its producers (the metadata manager's producer
 * is not a transactional id's); one that does is scanned again with them, to stay exact.
 * @throws TsdumpError USAGE for crossed bounds (scan/filter-resolve.ts)
 */
export function timelinesAhead(
  resolved: ResolvedPartitions,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  filter: RangeSpec | undefined,
  resync = true,
): TimelinesAhead {
  checkFilterBounds(filter)
  const r = resync ? {} : { resync: false }
  const dirs = remoteMetadataFirst(resolved)
  const unresolved = needsIdResolved(filter)
  const seen = new Map(dirs.map((d) => [d.path, new Set<bigint>()]))
  const scanFilter = unresolved ? { ...filter, producerIds: [] } : filter
  const ahead = new Map<string, ScannedTimeline>()
  try {
    for (const dir of dirs) ahead.set(dir.path, scanTimeline(dir, checkpoints, r, scanFilter, seen.get(dir.path)))
  } catch (e) {
    for (const t of ahead.values()) t.discard()
    throw e
  }
  return {
    resolve: (f) => {
      if (!unresolved) return ahead
      for (const dir of dirs) {
        if (f?.producerIds?.some((id) => seen.get(dir.path)!.has(id)) !== true) continue
        ahead.get(dir.path)!.discard()
        ahead.set(dir.path, scanTimeline(dir, checkpoints, r, f))
      }
      return ahead
    },
    discard: () => {
      for (const t of ahead.values()) t.discard()
    },
  }
}

/** what the filter let in, as a filtered partition scan reports it */
function rangeCounted(range: RangeFilter): RangeCounted {
  const bound = (v: I64 | null): bigint | null => (v === null ? null : toBigInt(v))
  return { firstOffset: bound(range.firstOffset), lastOffset: bound(range.lastOffset), batches: range.batches }
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
