// Reads a partition directory's .txnindex files, producer snapshots, the log directory's
// replication-offset-checkpoint and then its segments (headers and control records only), streaming
// every batch into a PartitionAnalyzer without keeping it. The only file access of the
// reconcile/txns/lso commands.
//
// Segments are read by a fast loop (FastSegmentScan) that handles what healthy segments hold:
// well-framed entries, v2 headers that pass readLog's plausibility checks, COMMIT/ABORT markers of the
// shape brokers write and empty control batches. It reads the header fields straight from the window
// as numbers (canonical I64) and allocates nothing per batch. At the first entry it does not handle
// (damage, a tail, an unusual control record, a batch bigger than the window ...) it stops, and readLog
// reads the rest of that file; the events before the stop position were already fed and are skipped.
// The fast loop must therefore frame exactly as scanFrames does and accept only entries for which
// readLog reports no problem.
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import type { I64 } from '../analysis/i64.js'
import { i64, i64Add } from '../analysis/i64.js'
import type { PartitionReport } from '../analysis/partition-analyzer.js'
import { PartitionAnalyzer } from '../analysis/partition-analyzer.js'
import { TxnIndexTable } from '../analysis/txn-index-check.js'
import type { BatchFacts, SnapshotInput } from '../analysis/txn-input.js'
import type { CliContext } from '../cli/context.js'
import type { EndTxnMarkerFacts } from '../decode/control-fast.js'
import { readEndTxnMarkerFast } from '../decode/control-fast.js'
import { ABORTED_TXN_SIZE } from '../decode/index-files.js'
import * as L from '../decode/layout.js'
import type { LogEvent } from '../decode/log-reader.js'
import { readLog } from '../decode/log-reader.js'
import { decodeProducerSnapshot } from '../decode/producer-snapshot.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { describeFsError, discover } from '../io/discover.js'
import { comparePartitionDirNames, namesOfKind } from '../io/segment-names.js'
import { FileSource, readSmallFile } from '../io/file-source.js'

export interface ScannedPartition {
  dir: PartitionDir
  /** `topic-partition`, else the directory path */
  label: string
  /** valid producer snapshots (for `lso`) */
  snapshots: SnapshotInput[]
  report: PartitionReport
}

export interface ScanOptions {
  /** collect runs and lane (`txns`) */
  timeline?: boolean
  /** read every segment with readLog, without the fast loop (tests that the two agree) */
  readLogOnly?: boolean
}

/** The one object the scan refills for every batch: the analyzer keeps nothing of it. */
function scratchFacts (): BatchFacts {
  return { baseOffset: 0, lastOffset: 0, recordsCount: 0, producerId: -1, producerEpoch: -1, isTransactional: false, isControl: false,
    baseTimestamp: -1, maxTimestamp: -1, control: undefined, legacy: undefined, file: undefined, position: undefined }
}

/** window of the fast loop; a control batch or legacy entry larger than this goes to readLog */
const FAST_WINDOW = 256 * 1024
/** readLog's default --max-batch-bytes (scanFrames DEFAULT_MAX_BATCH): larger entries are framing damage */
const MAX_BATCH = 1024 * 1024 * 1024
const CONTROL_TYPE_NAMES = ['ABORT', 'COMMIT']
/** from this size on, skipping a batch's body with a separate read of the next header beats reading through it */
const LARGE_BATCH = 16 * 1024

/** the int64 big-endian at `o` as a canonical I64: a BigInt only outside [-2^53, 2^53) */
function readI64 (dv: DataView, o: number): I64 {
  const hi = dv.getInt32(o)
  if (hi >= -0x200000 && hi < 0x200000) return hi * 4294967296 + dv.getUint32(o + 4)
  return i64(dv.getBigInt64(o))
}

/** The fast loop (see the file comment): one window, reused for every segment of a partition. */
class FastSegmentScan {
  private readonly win = Buffer.allocUnsafeSlow(FAST_WINDOW)
  private readonly dv = new DataView(this.win.buffer, this.win.byteOffset, this.win.byteLength)
  private readonly marker: EndTxnMarkerFacts = { type: 0, keyVersion: 0, coordinatorEpoch: 0 }
  /** the control info handed to the analyzer (which keeps nothing of it) */
  private readonly control = { type: 0, typeName: 'ABORT', coordinatorEpoch: 0 }
  private src: FileSource | undefined
  private winStart = 0
  private winLen = 0
  /**
   * bytes to read at the next refill: after a large batch that did not fit the window just a header (scanFrames
   * does the same), growing back to the window size over the entries that fit (markers between large batches stay small reads)
   */
  private probe = FAST_WINDOW

  constructor (private readonly a: PartitionAnalyzer, private readonly s: BatchFacts) {}

  /**
   * Feed the entries of `src` while they are ordinary.
   * @returns the position of the first entry not handled (src.size when all were) and whether a legacy entry was fed
   */
  scan (src: FileSource, file: string): { stop: number, legacy: boolean } {
    this.src = src
    this.winStart = this.winLen = 0
    this.probe = FAST_WINDOW
    this.s.file = file
    const end = src.size
    let legacy = false
    let pos = 0
    while (pos < end) {
      // scanFrames: a tail at <= 17 bytes left; frameProblem; an entry past the end
      if (end - pos <= L.HEADER_SIZE_UP_TO_MAGIC || !this.ensure(pos, L.HEADER_SIZE_UP_TO_MAGIC)) break
      const o = pos - this.winStart
      const size = this.dv.getInt32(o + L.SIZE_OFFSET)
      const magic = this.dv.getInt8(o + L.MAGIC_OFFSET)
      const total = L.LOG_OVERHEAD + size
      if (size < L.MIN_RECORD_OVERHEAD || magic < 0 || magic > 2 || total > MAX_BATCH || total > end - pos) break
      if (magic < 2) {
        if (!this.legacy(pos, total)) break
        legacy = true
      } else if (size < L.MIN_V2_BATCH_LENGTH || !this.batch(pos, total)) {
        break
      }
      pos += total
      const spilled = pos > this.winStart + this.winLen
      this.probe = !spilled ? Math.min(FAST_WINDOW, this.probe * 2) : total >= LARGE_BATCH ? L.RECORD_BATCH_OVERHEAD : FAST_WINDOW
    }
    this.src = undefined
    return { stop: pos, legacy }
  }

  /** make [pos, pos + n) addressable (n <= FAST_WINDOW); false when the file ends first */
  private ensure (pos: number, n: number): boolean {
    if (pos >= this.winStart && pos + n <= this.winStart + this.winLen) return true
    this.winStart = pos
    this.winLen = this.src!.readInto(this.win, pos, Math.min(Math.max(this.probe, n), this.src!.size - pos))
    return n <= this.winLen
  }

  /** a magic 0/1 entry as partition-scan's feed passes it (readLog reads it whole) */
  private legacy (pos: number, total: number): boolean {
    if (total > FAST_WINDOW || !this.ensure(pos, total)) return false
    const s = this.s
    s.baseOffset = readI64(this.dv, pos - this.winStart); s.lastOffset = s.baseOffset; s.recordsCount = 1; s.producerId = -1; s.producerEpoch = -1
    s.isTransactional = false; s.isControl = false; s.baseTimestamp = -1; s.maxTimestamp = -1; s.control = undefined; s.legacy = true
    s.position = pos
    this.a.add(s)
    return true
  }

  /** a v2 batch for which readLog reports no problem; false (nothing fed) for any other */
  private batch (pos: number, total: number): boolean {
    if (!this.ensure(pos, L.RECORD_BATCH_OVERHEAD)) return false
    const dv = this.dv
    let o = pos - this.winStart
    const attributes = dv.getInt16(o + L.ATTRIBUTES_OFFSET)
    const count = dv.getInt32(o + L.RECORDS_COUNT_OFFSET)
    const delta = dv.getInt32(o + L.LAST_OFFSET_DELTA_OFFSET)
    // readLog's checkHeader
    if (count < 0 || delta < 0 || ((attributes & L.COMPRESSION_CODEC_MASK) === 0 && count > (total - L.RECORD_BATCH_OVERHEAD) / 7)) return false
    const s = this.s
    const isControl = (attributes & L.CONTROL_FLAG_MASK) !== 0
    if (!isControl) {
      s.control = undefined
    } else if (count === 0) {
      s.control = null // compaction can leave empty control batches (KAFKA-7467); readLog reports no problem
    } else {
      if (total > FAST_WINDOW || !this.ensure(pos, total)) return false
      o = pos - this.winStart
      if (!readEndTxnMarkerFast(this.win, o, o + total, this.marker)) return false
      this.control.type = this.marker.type
      this.control.typeName = CONTROL_TYPE_NAMES[this.marker.type]!
      this.control.coordinatorEpoch = this.marker.coordinatorEpoch
      s.control = this.control
    }
    s.baseOffset = readI64(dv, o)
    s.lastOffset = i64Add(s.baseOffset, delta)
    s.recordsCount = count
    s.producerId = readI64(dv, o + L.PRODUCER_ID_OFFSET)
    s.producerEpoch = dv.getInt16(o + L.PRODUCER_EPOCH_OFFSET)
    s.isTransactional = (attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0
    s.isControl = isControl
    s.baseTimestamp = readI64(dv, o + L.BASE_TIMESTAMP_OFFSET)
    s.maxTimestamp = readI64(dv, o + L.MAX_TIMESTAMP_OFFSET)
    s.legacy = undefined
    s.position = pos
    this.a.add(s)
    return true
  }
}

/** Event position (every LogEvent has one). */
function eventPosition (ev: LogEvent): number { return ev.position }

function feed (ev: LogEvent, file: string, findings: Finding[], a: PartitionAnalyzer, s: BatchFacts): boolean {
  switch (ev.kind) {
    case 'batch': {
      const h = ev.header
      s.baseOffset = h.baseOffset; s.lastOffset = h.lastOffset; s.recordsCount = h.recordsCount; s.producerId = h.producerId
      s.producerEpoch = h.producerEpoch; s.isTransactional = h.isTransactional; s.isControl = h.isControl
      s.baseTimestamp = h.baseTimestamp; s.maxTimestamp = h.maxTimestamp; s.file = file; s.position = h.position
      s.control = h.isControl ? ev.control : undefined
      s.legacy = undefined
      for (let i = 0; i < ev.problems.length; i++) {
        const p = ev.problems[i]!
        findings.push({ severity: 'error', code: p.code, file, position: p.position, message: p.message })
      }
      a.add(s)
      return false
    }
    case 'legacy': {
      // a legacy entry's offset field is its (last inner) offset; inner messages of compressed wrappers are not counted
      const offset = ev.bytes.readBigInt64BE(0)
      s.baseOffset = offset; s.lastOffset = offset; s.recordsCount = 1; s.producerId = -1n; s.producerEpoch = -1; s.isTransactional = false
      s.isControl = false; s.baseTimestamp = -1n; s.maxTimestamp = -1n; s.control = undefined; s.legacy = true; s.file = file; s.position = ev.position
      a.add(s)
      return true
    }
    case 'tail':
      if (ev.reason === 'zeros') findings.push({ severity: 'info', code: 'ZERO_TAIL', file, position: ev.position, message: `${ev.length} zero bytes after the last batch (preallocated segment)` })
      else findings.push({ severity: 'error', code: 'TRUNCATED_TAIL', file, position: ev.position, message: `${ev.length} bytes at the end do not form a complete batch${ev.declaredSize !== undefined ? ` (declared size ${ev.declaredSize})` : ''}` })
      return false
    case 'corrupt':
      findings.push({ severity: 'error', code: ev.code, file, position: ev.position, message: ev.message })
      return false
  }
}

function listDir (dir: string): string[] {
  try { return fs.readdirSync(dir) } catch { return [] }
}

function readTxnIndexes (dir: string, names: string[], findings: Finding[]): TxnIndexTable {
  const out = new TxnIndexTable()
  for (const { name: n } of namesOfKind(names, 'txnindex')) {
    const file = path.join(dir, n)
    try {
      const buf = readSmallFile(file)
      out.addFile(file, buf)
      if (buf.length % ABORTED_TXN_SIZE !== 0) findings.push({ severity: 'warning', code: 'TXNINDEX_PARTIAL_ENTRY', file, position: buf.length - (buf.length % ABORTED_TXN_SIZE), message: `${buf.length % ABORTED_TXN_SIZE} bytes after the last complete entry` })
    } catch (e) {
      findings.push({ severity: 'error', code: 'UNREADABLE_FILE', file, message: describeFsError(e) })
    }
  }
  return out
}

function readSnapshots (dir: string, names: string[], findings: Finding[]): SnapshotInput[] {
  const out: SnapshotInput[] = []
  for (const { name: n, baseOffset } of namesOfKind(names, 'snapshot')) {
    const file = path.join(dir, n)
    try {
      const s = decodeProducerSnapshot(readSmallFile(file))
      if (!s.crcValid || s.schemaError !== undefined) {
        findings.push({ severity: 'warning', code: 'SNAPSHOT_INVALID', file, message: `producer snapshot not used: ${s.schemaError ?? `crc stored ${s.crc} != computed ${s.crcComputed}`}` })
        continue
      }
      out.push({ offset: baseOffset, file, producers: s.entries.map((e) => ({ producerId: e.producerId, producerEpoch: e.producerEpoch,
        coordinatorEpoch: e.coordinatorEpoch, currentTxnFirstOffset: e.currentTxnFirstOffset, lastTimestamp: e.timestamp, lastOffset: e.lastOffset })) })
    } catch (e) {
      findings.push({ severity: 'warning', code: 'UNREADABLE_FILE', file, message: describeFsError(e) })
    }
  }
  return out
}

/**
 * Scan and analyse one partition in one pass over its segments (headers and control records only).
 * The txnindex files, snapshots and checkpoint are read first: the analysis needs them while streaming.
 * I/O errors on segments become findings.
 */
export function scanPartition (dir: PartitionDir, checkpoints: Map<string, OffsetCheckpoint | null>, opts: ScanOptions = {}): ScannedPartition {
  const findings: Finding[] = []
  const logs: KafkaFile[] = dir.files.filter((f) => f.kind === 'log')
  const names = listDir(dir.path)
  const txnIndexAvailable = names.some((n) => /\.(txnindex|index)$/.test(n))
  const indexFindings: Finding[] = []
  const txnIndex = txnIndexAvailable ? readTxnIndexes(dir.path, names, indexFindings) : null
  const snapshotFindings: Finding[] = []
  const snapshots = readSnapshots(dir.path, names, snapshotFindings)
  const bases = logs.map((f) => f.baseOffset).filter((b): b is bigint => b !== null)
  let cp = checkpoints.get(dir.logDir)
  if (cp === undefined) { cp = readOffsetCheckpoint(dir.logDir, 'replication-offset-checkpoint'); checkpoints.set(dir.logDir, cp) }
  const label = dir.topic !== null ? `${dir.topic}-${dir.partition}` : dir.path
  const hw = dir.topic !== null ? cp?.get(label) ?? null : null
  const analyzer = new PartitionAnalyzer({ topic: dir.topic, partition: dir.partition, logStartOffset: bases[0] ?? null, snapshots,
    checkpointHighWatermark: hw, txnIndex, ...(opts.timeline === true ? { timeline: true } : {}) })
  const scratch = scratchFacts()
  const fastScan = opts.readLogOnly === true ? undefined : new FastSegmentScan(analyzer, scratch)
  let legacy = false
  for (const f of logs) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      findings.push({ severity: 'error', code: 'UNREADABLE_FILE', file: f.path, message: describeFsError(e) })
      continue
    }
    try {
      const fast = fastScan?.scan(src, f.path) ?? { stop: 0, legacy: false }
      if (fast.legacy) legacy = true
      if (fast.stop < src.size) {
        for (const ev of readLog(src, { headersOnly: true, verifyCrc: false })) {
          if (eventPosition(ev) < fast.stop) continue // fed by the fast loop
          if (feed(ev, f.path, findings, analyzer, scratch)) legacy = true
        }
      }
    } finally { src.close() }
  }
  if (legacy) {
    findings.push({ severity: 'info', code: 'LEGACY_ENTRIES', message: 'magic 0/1 entries are counted as one non-transactional record each (compressed wrappers may hold more)' })
  }
  if (!txnIndexAvailable) findings.push({ severity: 'info', code: 'TXNINDEX_NOT_CHECKED', message: `no .index or .txnindex files beside the segments in ${dir.path}: aborted transactions not cross-checked` })
  for (const f of indexFindings) findings.push(f)
  for (const f of snapshotFindings) findings.push(f)
  const lastSegmentBaseOffset = bases.length === 0 ? null : bases.reduce((a, b) => (b > a ? b : a))
  const report = analyzer.finish(lastSegmentBaseOffset, findings)
  return { dir, label, snapshots, report }
}

/**
 * Resolve paths to partitions that have .log files. On unusable input writes the reasons to stderr
 * and returns the exit code 2.
 */
export function resolvePartitions (paths: string[], ctx: CliContext): PartitionDir[] | 2 {
  if (paths.includes('-')) {
    // a partition's analysis needs its directory (txnindex, snapshots, checkpoint), which a pipe has not
    ctx.stderr.write('tsdump: -: standard input is read by the dump only (tsdump -); reconcile, txns and lso need the partition directory\n')
    return 2
  }
  const d = discover(paths)
  for (const p of d.problems) ctx.stderr.write(`tsdump: ${p.path}: ${p.message}\n`)
  if (d.problems.length > 0) return 2
  // reports list partitions in topic, then numeric partition order, however the shell expanded the paths
  const parts = d.partitions.filter((p) => p.files.some((f) => f.kind === 'log'))
    .sort((a, b) => comparePartitionDirNames(path.basename(path.resolve(a.path)), path.basename(path.resolve(b.path))))
  if (parts.length === 0) {
    ctx.stderr.write(`tsdump: no .log segment files found in ${paths.join(', ')}\n`)
    return 2
  }
  return parts
}
