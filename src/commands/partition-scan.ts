// Reads a partition directory's .txnindex files, producer snapshots, the log directory's
// replication-offset-checkpoint and then its segments (headers and control records only), streaming
// every batch into a PartitionAnalyzer without keeping it. The only file access of the
// reconcile/txns/lso commands.
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import type { PartitionReport } from '../analysis/partition-analyzer.js'
import { PartitionAnalyzer } from '../analysis/partition-analyzer.js'
import { TxnIndexTable } from '../analysis/txn-index-check.js'
import type { BatchFacts, SnapshotInput } from '../analysis/txn-input.js'
import type { CliContext } from '../cli/context.js'
import { ABORTED_TXN_SIZE } from '../decode/index-files.js'
import type { LogEvent } from '../decode/log-reader.js'
import { readLog } from '../decode/log-reader.js'
import { decodeProducerSnapshot } from '../decode/producer-snapshot.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { describeFsError, discover } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'

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
}

/** The one object the scan refills for every batch: the analyzer keeps nothing of it. */
function scratchFacts (): BatchFacts {
  return { baseOffset: 0n, lastOffset: 0n, recordsCount: 0, producerId: -1n, producerEpoch: -1, isTransactional: false, isControl: false,
    baseTimestamp: -1n, maxTimestamp: -1n, control: undefined, legacy: undefined, file: undefined, position: undefined }
}

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

function readWhole (file: string): Buffer {
  const src = new FileSource(file)
  try { return src.readAt(0, src.size) } finally { src.close() }
}

function listDir (dir: string): string[] {
  try { return fs.readdirSync(dir) } catch { return [] }
}

function readTxnIndexes (dir: string, names: string[], findings: Finding[]): TxnIndexTable {
  const out = new TxnIndexTable()
  for (const n of names.filter((x) => /^\d{20}\.txnindex$/.test(x)).sort()) {
    const file = path.join(dir, n)
    try {
      const buf = readWhole(file)
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
  for (const n of names.filter((x) => /^\d{20}\.snapshot$/.test(x))) {
    const file = path.join(dir, n)
    try {
      const s = decodeProducerSnapshot(readWhole(file))
      if (!s.crcValid || s.schemaError !== undefined) {
        findings.push({ severity: 'warning', code: 'SNAPSHOT_INVALID', file, message: `producer snapshot not used: ${s.schemaError ?? `crc stored ${s.crc} != computed ${s.crcComputed}`}` })
        continue
      }
      out.push({ offset: BigInt(n.slice(0, 20)), file, producers: s.entries.map((e) => ({ producerId: e.producerId, producerEpoch: e.producerEpoch,
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
  let legacy = false
  for (const f of logs) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      findings.push({ severity: 'error', code: 'UNREADABLE_FILE', file: f.path, message: describeFsError(e) })
      continue
    }
    try {
      for (const ev of readLog(src, { headersOnly: true, verifyCrc: false })) if (feed(ev, f.path, findings, analyzer, scratch)) legacy = true
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
  const d = discover(paths)
  for (const p of d.problems) ctx.stderr.write(`tsdump: ${p.path}: ${p.message}\n`)
  if (d.problems.length > 0) return 2
  const parts = d.partitions.filter((p) => p.files.some((f) => f.kind === 'log'))
  if (parts.length === 0) {
    ctx.stderr.write(`tsdump: no .log segment files found in ${paths.join(', ')}\n`)
    return 2
  }
  return parts
}
