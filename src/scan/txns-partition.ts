// `txns` on one partition: its transaction timeline (or, for a __transaction_state partition, the last
// known state of each transactional id) streamed to a TxnsStream. The same code runs on the main thread
// (commands/txns.ts) and in a txns worker (commands/workers/txns-worker.ts), whose stream posts what it is given.
//
// A small timeline partition (ONE_SCAN_LOG_BYTES) is read once, headers only, its runs held (at most HELD_RUNS)
// until the scan's end gives the timeline's first line (log end, LSO) and the batch count that sizes the lane.
// A larger one, or one with a filter (it picks batches in a first pass) or remote segments, is read
// twice: the first pass (the reconcile analysis) gives the first line and the batch count, the second
// streams the runs as they complete. So memory follows the open transactions and the
// lane's width, not the number of transactions. Neither pass keeps the per-producer marker
// epochs (only `lso` reads them), so a producer without an open transaction costs nothing.
import type { Finding } from '../analysis/findings.js'
import { FindingList } from '../analysis/finding-list.js'
import type { TxnsStream } from '../analysis/partition-results.js'
import { HeldLane, HoldExceeded, LaneBuilder } from '../analysis/timeline.js'
import type { TimelineRun } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import type { RangeCounted, RangeSpec } from '../analysis/range-filter.js'
import { runInRange } from '../analysis/range-filter.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { sizeOf } from '../io/dir-listing.js'
import { scanPartition } from './partition-scan.js'
import { scanTransactionStatePartition } from './transaction-state-read.js'

/** One partition's timeline (or transactional-id states) streamed to `to`; returns its findings. */
export function txnsPartition (dir: PartitionDir, checkpoints: Map<string, OffsetCheckpoint | null>, width: number, to: TxnsStream, filter?: RangeSpec, resync = true): readonly Finding[] {
  const r = resync ? {} : { resync: false }
  if (dir.topic === '__transaction_state') {
    // one pass: the partition's facts and the coordinator's records
    const { scanned: s, read: { states: newest, findings: logFindings } } = scanTransactionStatePartition(dir, checkpoints, r)
    const states = newest.filter((x) => filter === undefined || stateInFilter(x, filter))
    const all = new FindingList()
    all.absorb({ listed: s.report.findings, omitted: s.report.omittedFindings })
    // the framing damage the partition scan reported already is not said twice
    const said = new Set(s.report.findings.map((f) => `${f.code} ${f.file ?? ''} ${f.position ?? ''}`))
    all.absorb({ listed: logFindings.listed.filter((f) => !said.has(`${f.code} ${f.file ?? ''} ${f.position ?? ''}`)), omitted: logFindings.omitted })
    const p = { label: s.label, path: dir.path, report: s.report, kind: 'transactional-ids' as const, states, findings: all.listed, omittedFindings: all.omitted }
    to.transactionStates(p)
    return p.findings
  }
  if (filter === undefined && oneScanFits(dir)) {
    const one = oneScan(dir, checkpoints, width, to, r)
    if (one !== null) return one
  }
  const { lane, range } = firstPass(dir, checkpoints, width, to, filter, r)
  // the second pass's report (the same numbers) ends the partition
  const sink = range === undefined || filter === undefined ? (r: TimelineRun) => { to.run(r) } : (r: TimelineRun) => { if (runInRange(r, range, filter)) to.run(r) }
  const second = scanPartition(dir, checkpoints, { analyzer: () => ({ timeline: { sink, lane }, markerEpochs: false }), ...r })
  to.timelineEnd({ label: second.label, path: dir.path, report: second.report }, lane.result())
  return second.report.findings
}

/** runs and lane characters one scan holds until the partition's end (beyond: two scans) */
const HELD_RUNS = 4096
const HELD_BATCHES = 1 << 20
/**
 * A run is a batch or more, a batch 61 bytes or more: logs of at most HELD_RUNS × 61 bytes are read once. Larger
 * ones are not tried: runs held past a scavenge are promoted, and 50 partitions of 1,600 runs (380 KB) each took
 * txns from 70 to 95 MiB peak RSS held (80 when a scan was given up at 1,024 runs), for no measurable CPU.
 */
const ONE_SCAN_LOG_BYTES = HELD_RUNS * 61

/** small logs on local files (a remote segment is opened before the scan) */
function oneScanFits (dir: PartitionDir): boolean {
  let bytes = 0
  for (const f of dir.files) {
    if (f.remote !== undefined) return false
    if (f.kind === 'log') bytes += sizeOf(f.path) ?? Infinity
  }
  return bytes <= ONE_SCAN_LOG_BYTES
}

/** The partition in one scan, its runs held until the first line is known; null when it holds more than that. */
function oneScan (dir: PartitionDir, checkpoints: Map<string, OffsetCheckpoint | null>, width: number, to: TxnsStream, r: { resync?: boolean }): readonly Finding[] | null {
  const runs: TimelineRun[] = []
  const lane = new HeldLane(HELD_BATCHES)
  const sink = (run: TimelineRun): void => {
    if (runs.length === HELD_RUNS) throw new HoldExceeded()
    runs.push(run)
  }
  let s: ReturnType<typeof scanPartition>
  try {
    s = scanPartition(dir, checkpoints, { analyzer: () => ({ timeline: { sink, lane }, markerEpochs: false }), ...r })
  } catch (e) {
    if (e instanceof HoldExceeded) return null
    throw e
  }
  const p = { label: s.label, path: dir.path, report: s.report }
  to.timelineStart(p)
  for (const run of runs) to.run(run)
  to.timelineEnd(p, lane.fold(s.report.batches, width))
  return s.report.findings
}

/**
 * The first pass: the timeline's first line, and the lane sized by the batch count. Its report, with its
 * per-producer tables (tens of MB for 1 M producer ids), is let go before the second pass builds its own.
 */
function firstPass (dir: PartitionDir, checkpoints: Map<string, OffsetCheckpoint | null>, width: number, to: TxnsStream, filter: RangeSpec | undefined, r: { resync?: boolean }): { lane: LaneBuilder, range?: RangeCounted } {
  // with a filter this pass also finds which batches are in range (a time range needs the log read in order)
  const s = scanPartition(dir, checkpoints, { analyzer: () => ({ markerEpochs: false }), ...(filter !== undefined ? { filter } : {}), ...r })
  to.timelineStart({ label: s.label, path: dir.path, report: s.report })
  return { lane: new LaneBuilder(s.report.batches, width), ...(s.range !== undefined ? { range: s.range } : {}) }
}

/** a transactional id's state on a __transaction_state partition, under --transactional-id / --producer-id */
function stateInFilter (s: TransactionalIdState, f: RangeSpec): boolean {
  if (f.transactionalId !== undefined) return s.transactionalId === f.transactionalId
  return f.producerIds === undefined || (s.producerId !== null && f.producerIds.includes(s.producerId))
}
