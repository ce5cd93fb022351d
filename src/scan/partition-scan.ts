// Reads a partition directory's .txnindex files, producer snapshots, the log directory's
// replication-offset-checkpoint and then its segments (headers and control records only), streaming
// every batch into a PartitionAnalyzer without keeping it. The only file access of the reconcile/txns/lso commands.
//
// Each segment is framed once (scanFrames, header-only for large batches); each frame goes to the fast
// feed (batch-feed.ts) and, when it declines, through readFrame (readLog's general path).
import * as path from 'node:path'
import type { Finding, FindingCode } from '../analysis/findings.js'
import { finding, locatePartitionFindings } from '../analysis/findings.js'
import { FindingList } from '../analysis/finding-list.js'
import { corruptFinding, decodeFinding, tailFinding } from '../analysis/log-findings.js'
import { RemoteSegmentSeen, remoteOffsetFindings } from '../analysis/remote-offsets.js'
import type { PartitionReport } from '../analysis/partition-analyzer.js'
import type { SnapshotInput } from '../analysis/partition-input.js'
import { PartitionAnalyzer } from '../analysis/partition-analyzer.js'
import type { AnalyzerHook, AnalyzerInternals } from '../analysis/partition-report.js'
import { FastBatchFeed, PARTITION_SCAN_WINDOW } from './batch-feed.js'
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import type { RangeCounted, RangeSpec } from '../analysis/range-filter.js'
import { RangeFilter } from '../analysis/range-filter.js'
import type { BatchFacts } from '../analysis/batch-facts.js'
import { refillableFacts } from '../analysis/batch-facts.js'
import type { Frame } from '../decode/frame.js'
import type { LogEvent, ReadOptions } from '../decode/log-reader.js'
import { readFrame } from '../decode/log-reader.js'
import { FrameScanner } from '../decode/frame-scanner.js'
import { BatchView } from '../decode/batch-view.js'
import * as L from '../decode/layout.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { logStartOffset, recordsFromLogStart } from '../analysis/log-start.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { openKafkaFile } from '../io/remote/open.js'
import { remotePlanned } from './remote-segments.js'
import { remoteNotReadFinding } from './remote-not-read.js'
import { heldRemoteMetadata, remoteMetadataScanned, withRemoteMetadataTap } from './remote-metadata-read.js'
import { checkpointEntries, readSnapshots, readTxnIndexes } from './partition-side-files.js'
import { openRemoteLogs, watched } from './remote-log-open.js'
import { InputError } from '../io/input-error.js'
import { namesIn } from '../io/dir-listing.js'
import type { RemoteInput } from '../io/remote/spec.js'

export interface ScannedPartition {
  dir: PartitionDir
  /** `topic-partition`, else the directory path */
  label: string
  /** valid producer snapshots (for `lso`) */
  snapshots: SnapshotInput[]
  report: PartitionReport
  /** with PartitionScanOptions.filter: what was in range */
  range?: RangeCounted
}

export interface PartitionScanOptions {
  /**
   * The hook into each partition's analyzer (report's RunSink, txns' streamed timeline and no marker epochs),
   * made once the partition's directory (its topic and partition) is known.
   */
  analyzer?: (dir: PartitionDir) => AnalyzerHook
  /**
   * --start-offset, --from-time, --producer-id ...: every batch is still analysed (visibility over a range depends on
   * markers after it and transactions open before it), but a data batch counts only its records in range
   */
  filter?: RangeSpec
  /** told about every batch before the analyzer is (`transactions`: where each run's batches and markers are) */
  batch?: (s: BatchFacts) => void
  /** a tap on a partition's frames, given each segment's source (an internal topic's records read in the same pass) */
  frames?: (
    dir: PartitionDir,
  ) =>
    | ((frames: Pick<FrameScanner, 'next'>, src: SegmentSource, file: KafkaFile) => Pick<FrameScanner, 'next'>)
    | undefined
  /** --remote-storage: a directory or s3://bucket/prefix whose segments are read before the local ones */
  remote?: RemoteInput
  /** each segment's source as the framing reads it (`dump --isolation-level` holds those bytes for its own read) */
  source?: (src: SegmentSource, file: KafkaFile) => SegmentSource
  /**
   * after framing damage, go on at the next valid batch as the dump does (default true); false stops at the
   * damage as Kafka's reader does (--no-resync)
   */
  resync?: boolean
}

/** Not user options: tests run readLog alone to compare it with the fast loop (the fast/general contract), and look inside the analyzer. */
export interface PartitionScanInternals {
  readLogOnly?: boolean
  analyzer?: AnalyzerInternals
}

/** every segment: one framing pass, large batches header-only; declined frames without a CRC check (headers are what the analysis needs) */
const SCAN = { headersOnly: true, window: PARTITION_SCAN_WINDOW, resync: true } as const
const SCAN_NO_RESYNC = { ...SCAN, resync: false } as const
const READ = { verifyCrc: false } as const
/** control batches are small and decide transactions: their CRC is checked (a damaged marker is not trusted) */
const READ_CONTROL = { verifyCrc: true } as const
/** a legacy entry's offset field, read in place (it is where a v2 batch has its baseOffset) */
const legacyView = new BatchView()

/** what the scan feeds: each batch, and where bytes could not be read (the analyzer, or a command's tap in front of it) */
type Fed = Pick<PartitionAnalyzer, 'add' | 'damaged'>

function feed(ev: LogEvent, file: string, findings: FindingList, a: Fed, s: BatchFacts, remote: boolean): boolean {
  switch (ev.kind) {
    case 'batch': {
      const h = ev.header
      s.baseOffset = h.baseOffset
      s.lastOffset = h.lastOffset
      s.recordsCount = h.recordsCount
      s.producerId = h.producerId
      s.producerEpoch = h.producerEpoch
      s.isTransactional = h.isTransactional
      s.isControl = h.isControl
      s.baseTimestamp = h.baseTimestamp
      s.maxTimestamp = h.maxTimestamp
      s.file = file
      s.position = h.position
      // a control batch whose CRC fails is counted UNREADABLE: its type and epoch may be the damage's
      s.control = h.isControl && ev.crcValid !== false ? ev.control : undefined
      s.legacy = undefined
      for (let i = 0; i < ev.problems.length; i++) findings.push(decodeFinding(ev.problems[i]!, file))
      // a damaged header or control record: its producer id, offsets or marker type cannot be trusted
      if (ev.problems.some((p) => p.code !== 'ZSTD_WINDOW_TOO_LARGE')) a.damaged({ file, position: h.position }, false)
      a.add(s)
      return false
    }
    case 'legacy': {
      // a legacy entry's offset field is its (last inner) offset; inner messages of compressed wrappers are not counted
      const offset = legacyView.of(ev.bytes, ev.position).int64(L.OFFSET_OFFSET)
      s.baseOffset = offset
      s.lastOffset = offset
      s.recordsCount = 1
      s.producerId = -1n
      s.producerEpoch = -1
      s.isTransactional = false
      s.isControl = false
      s.baseTimestamp = -1n
      s.maxTimestamp = -1n
      s.control = undefined
      s.legacy = true
      s.file = file
      s.position = ev.position
      a.add(s)
      return true
    }
    case 'tail':
      findings.push(tailFinding(ev, file, remote))
      // a torn last batch may be a marker; zeros are a preallocated or zero-filled tail, no data
      if (ev.reason !== 'zeros') a.damaged({ file, position: ev.position }, true)
      return false
    case 'corrupt':
      findings.push(corruptFinding(ev, file))
      a.damaged({ file, position: ev.position }, true)
      return false
  }
}

/**
 * Every entry of one segment into the analyzer: the fast read, else readLog's general path. Its own small function
 * rather than a loop inside scanPartition: V8 optimises it alone, and so it runs faster (bench/RESULTS.md).
 * @returns whether a legacy entry was fed
 */
function scanSegment(
  frames: Pick<FrameScanner, 'next'>,
  file: string,
  fast: FastBatchFeed | undefined,
  findings: FindingList,
  to: Fed,
  scratch: BatchFacts,
  remote: boolean,
): boolean {
  let legacy = false
  for (let ev = frames.next(); ev !== undefined; ev = frames.next()) {
    if (ev.kind === 'frame' && fast?.read(ev, file) === true) {
      to.add(scratch)
      continue
    }
    if (
      feed(
        ev.kind === 'frame' ? readFrame(ev, ev.magic >= 2 && ev.complete && ev.isControl ? READ_CONTROL : READ) : ev,
        file,
        findings,
        to,
        scratch,
        remote,
      )
    )
      legacy = true
  }
  return legacy
}

/** scanSegment a frame at a time: a pause after each event fed (partitionScanSteps) */
function* stepSegment(
  ...[frames, file, fast, findings, to, scratch, remote]: Parameters<typeof scanSegment>
): Generator<void, boolean> {
  let legacy = false
  for (let ev = frames.next(); ev !== undefined; ev = frames.next()) {
    if (ev.kind === 'frame' && fast?.read(ev, file) === true) to.add(scratch)
    else if (feed(ev.kind === 'frame' ? readFrame(ev, readOptions(ev)) : ev, file, findings, to, scratch, remote))
      legacy = true
    yield
  }
  return legacy
}

/** control batches decide transactions: their CRC is checked */
const readOptions = (ev: Frame): ReadOptions => (ev.magic >= 2 && ev.complete && ev.isControl ? READ_CONTROL : READ)

/**
 * Scan and analyse one partition in one pass over its segments (headers and control records only).
 * The txnindex files, snapshots and checkpoint are read first: the analysis needs them while streaming.
 * I/O errors on segments become findings.
 */
export function scanPartition(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  opts: PartitionScanOptions = {},
  internals: PartitionScanInternals = {},
): ScannedPartition {
  const r = partitionScanSteps(dir, checkpoints, opts, internals, false).next()
  if (r.done !== true) throw new Error('the partition scan paused unasked')
  return r.value
}

/**
 * scanPartition, paused after each event it fed (`stepwise`): the `frames` tap saw the event, and a frame stays
 * valid until the next step. `replicas` walks the copies of a partition side by side this way, each read once.
 */
export function* partitionScanSteps(
  given: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  opts: PartitionScanOptions = {},
  internals: PartitionScanInternals = {},
  stepwise = true,
): Generator<void, ScannedPartition> {
  const { dir, kept } = remotePlanned(given) // --remote-storage: `kept` is what the hooks and the result hold
  // bounded per code: a segment of damaged batches gives one finding each
  const findings = new FindingList()
  const logs: KafkaFile[] = dir.files.filter((f) => f.kind === 'log')
  const names = namesIn(dir.path)
  // a remote segment that cannot be opened (nor its first bytes read) is not read: its .txnindex entries must not count either
  const opened = openRemoteLogs(logs, findings)
  const remoteTxnIndexes = dir.files.filter(
    (f) => f.remote !== undefined && f.kind === 'txnindex' && !opened.failed.has(f.baseOffset),
  )
  const txnIndexAvailable = names.some((n) => /\.(txnindex|index)$/.test(n))
  const indexFindings: Finding[] = []
  const txnIndex = txnIndexAvailable ? readTxnIndexes(dir.path, names, remoteTxnIndexes, indexFindings) : null
  const snapshotFindings: Finding[] = []
  const snapshots = readSnapshots(dir.path, names, snapshotFindings)
  const bases = logs.map((f) => f.baseOffset).filter((b): b is bigint => b !== null)
  const { highWatermark: hw, logStart } = dir.checkpoints ?? checkpointEntries(dir, checkpoints)
  const start = logStartOffset(bases[0] ?? null, logStart)
  const label = dir.topic !== null ? `${dir.topic}-${dir.partition}` : dir.path
  const analyzer = new PartitionAnalyzer(
    {
      topic: dir.topic,
      partition: dir.partition,
      logStartOffset: start?.offset ?? null,
      snapshots,
      checkpointHighWatermark: hw,
      txnIndex,
      ...opts.analyzer?.(kept),
    },
    internals.analyzer,
  )
  const scratch = refillableFacts()
  const range = opts.filter === undefined ? undefined : new RangeFilter(opts.filter)
  // records below a log start moved by DeleteRecords or retention are gone for consumers: not counted
  const counted = start?.source !== 'log-start-offset-checkpoint' ? analyzer : fromLogStart(analyzer, start.offset)
  const fed = range === undefined ? counted : weighing(counted, range)
  const tap = opts.batch
  const to: Fed =
    tap === undefined
      ? fed
      : {
          add: (s: BatchFacts) => {
            tap(s)
            fed.add(s)
          },
          damaged: (d, lost) => {
            fed.damaged(d, lost)
          },
        }
  const fast = internals.readLogOnly === true ? undefined : new FastBatchFeed(scratch)
  let legacy = false
  const tapped = withRemoteMetadataTap(opts.frames?.(kept), given, opts.resync !== false)
  for (const f of logs) {
    if (opened.failed.has(f.baseOffset) && f.remote !== undefined) continue
    let src: SegmentSource
    try {
      src = opened.sources.get(f) ?? heldRemoteMetadata(given, f) ?? openKafkaFile(f)
    } catch (e) {
      findings.push(
        finding(
          e instanceof InputError ? e.code : f.remote !== undefined ? 'REMOTE_UNREADABLE' : 'UNREADABLE',
          describeFsError(e),
          { file: f.path, position: 0 },
        ),
      )
      continue
    }
    try {
      const expected = f.remote?.expect
      const seen = expected === undefined ? undefined : new RemoteSegmentSeen()
      const frames = new FrameScanner(opts.source?.(src, f) ?? src, opts.resync === false ? SCAN_NO_RESYNC : SCAN)
      const fr = seen === undefined ? frames : watched(frames, seen)
      const segment = tapped === undefined ? fr : tapped(fr, src, f)
      const remote = f.remote !== undefined
      if (
        stepwise
          ? yield* stepSegment(segment, f.path, fast, findings, to, scratch, remote)
          : scanSegment(segment, f.path, fast, findings, to, scratch, remote)
      )
        legacy = true
      if (seen !== undefined) for (const x of remoteOffsetFindings(seen, expected!, f.path)) findings.push(x)
    } catch (e) {
      // the segment shrank while it was read: say so with its size now, and go on with the next one
      if (!(e instanceof InputError)) throw e
      findings.push(finding(e.code, e.message, { file: f.path, position: e.position }))
    } finally {
      src.close()
    }
  }
  for (const n of dir.remoteNotes ?? []) {
    findings.push(
      finding(n.code as FindingCode, n.message, {
        ...(n.file !== undefined
          ? { file: n.file, ...(n.position !== undefined ? { position: n.position } : {}) }
          : {}),
        ...(n.firstOffset !== undefined
          ? { firstOffset: n.firstOffset, lastOffset: n.lastOffset ?? n.firstOffset }
          : {}),
      }),
    )
  }
  if (dir.remoteNotRead !== undefined) findings.push(remoteNotReadFinding(dir.remoteNotRead))
  if (legacy)
    findings.push({
      severity: 'info',
      code: 'LEGACY_ENTRIES',
      message: 'magic 0/1 entries are counted as one non-transactional record each (compressed wrappers may hold more)',
    })
  if (!txnIndexAvailable)
    findings.push({
      severity: 'info',
      code: 'TXNINDEX_NOT_CHECKED',
      message: `no .index or .txnindex files beside the segments in ${dir.path}: aborted transactions not cross-checked`,
    })
  for (const f of indexFindings) findings.push(f)
  for (const f of snapshotFindings) findings.push(f)
  const lastSegmentBaseOffset = bases.length === 0 ? null : bases.reduce((a, b) => (b > a ? b : a))
  const report = analyzer.finish(lastSegmentBaseOffset, findings)
  remoteMetadataScanned(given, report.findings)
  locatePartitionFindings(report.findings, label, report.firstScannedOffset, report.logEndOffset)
  if (range === undefined) return { dir: kept, label, snapshots, report }
  const bound = (v: I64 | null): bigint | null => (v === null ? null : toBigInt(v))
  return {
    dir: kept,
    label,
    snapshots,
    report,
    range: { firstOffset: bound(range.firstOffset), lastOffset: bound(range.lastOffset), batches: range.batches },
  }
}

/** The analyzer fed each data batch with only its records at or above the log start counted (analysis/log-start.ts). */
function fromLogStart(a: PartitionAnalyzer, start: bigint): Fed {
  return {
    damaged: (d, lost) => {
      a.damaged(d, lost)
    },
    add: (s: BatchFacts) => {
      if (!s.isControl && BigInt(s.baseOffset) < start)
        s.recordsCount = recordsFromLogStart(start, BigInt(s.baseOffset), BigInt(s.lastOffset), s.recordsCount)
      a.add(s)
    },
  }
}

/** The analyzer fed through the filter: each batch as it is, a data batch with only its records in range counted. */
function weighing(a: Fed, range: RangeFilter): Fed {
  return {
    damaged: (d, lost) => {
      a.damaged(d, lost)
    },
    add: (s: BatchFacts) => {
      const v = range.batch(s)
      if (!s.isControl) s.recordsCount = range.weigh(v, s, s.recordsCount)
      a.add(s)
    },
  }
}
