// Reads a partition directory's segments (headers and control records only), .txnindex files,
// producer snapshots and the log directory's replication-offset-checkpoint into the pure
// PartitionInput of src/analysis. The only file access of the reconcile/txns/lso commands.
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import type { BatchSummary, PartitionInput, SnapshotInput, TxnIndexEntry } from '../analysis/txn-input.js'
import type { CliContext } from '../cli/context.js'
import { ABORTED_TXN_SIZE, decodeTxnIndex } from '../decode/index-files.js'
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
  input: PartitionInput
}

function summarize (ev: LogEvent, file: string, findings: Finding[], out: BatchSummary[]): void {
  switch (ev.kind) {
    case 'batch': {
      const h = ev.header
      const s: BatchSummary = {
        baseOffset: h.baseOffset, lastOffset: h.lastOffset, recordsCount: h.recordsCount, producerId: h.producerId,
        producerEpoch: h.producerEpoch, isTransactional: h.isTransactional, isControl: h.isControl,
        baseTimestamp: h.baseTimestamp, maxTimestamp: h.maxTimestamp, file, position: h.position,
      }
      if (h.isControl) {
        s.control = ev.control === null ? null
          : { type: ev.control.type, typeName: ev.control.typeName, ...(ev.control.coordinatorEpoch !== undefined ? { coordinatorEpoch: ev.control.coordinatorEpoch } : {}) }
      }
      for (const p of ev.problems) findings.push({ severity: 'error', code: p.code, file, position: p.position, message: p.message })
      out.push(s)
      return
    }
    case 'legacy': {
      // a legacy entry's offset field is its (last inner) offset; inner messages of compressed wrappers are not counted
      const offset = ev.bytes.readBigInt64BE(0)
      out.push({ baseOffset: offset, lastOffset: offset, recordsCount: 1, producerId: -1n, producerEpoch: -1, isTransactional: false,
        isControl: false, baseTimestamp: -1n, maxTimestamp: -1n, legacy: true, file, position: ev.position })
      return
    }
    case 'tail':
      if (ev.reason === 'zeros') findings.push({ severity: 'info', code: 'ZERO_TAIL', file, position: ev.position, message: `${ev.length} zero bytes after the last batch (preallocated segment)` })
      else findings.push({ severity: 'error', code: 'TRUNCATED_TAIL', file, position: ev.position, message: `${ev.length} bytes at the end do not form a complete batch${ev.declaredSize !== undefined ? ` (declared size ${ev.declaredSize})` : ''}` })
      return
    case 'corrupt':
      findings.push({ severity: 'error', code: ev.code, file, position: ev.position, message: ev.message })
  }
}

function readWhole (file: string): Buffer {
  const src = new FileSource(file)
  try { return src.readAt(0, src.size) } finally { src.close() }
}

function listDir (dir: string): string[] {
  try { return fs.readdirSync(dir) } catch { return [] }
}

function readTxnIndexes (dir: string, names: string[], findings: Finding[]): TxnIndexEntry[] {
  const out: TxnIndexEntry[] = []
  for (const n of names.filter((x) => /^\d{20}\.txnindex$/.test(x)).sort()) {
    const file = path.join(dir, n)
    try {
      const buf = readWhole(file)
      for (const e of decodeTxnIndex(buf)) {
        out.push({ producerId: e.producerId, firstOffset: e.firstOffset, lastOffset: e.lastOffset, lastStableOffset: e.lastStableOffset, file, position: e.index * ABORTED_TXN_SIZE })
      }
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

/** Scan one partition. I/O errors on segments become findings. */
export function scanPartition (dir: PartitionDir, checkpoints: Map<string, OffsetCheckpoint | null>): ScannedPartition {
  const findings: Finding[] = []
  const batches: BatchSummary[] = []
  const logs: KafkaFile[] = dir.files.filter((f) => f.kind === 'log')
  for (const f of logs) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      findings.push({ severity: 'error', code: 'UNREADABLE_FILE', file: f.path, message: describeFsError(e) })
      continue
    }
    try {
      for (const ev of readLog(src, { headersOnly: true, verifyCrc: false })) summarize(ev, f.path, findings, batches)
    } finally { src.close() }
  }
  if (batches.some((b) => b.legacy === true)) {
    findings.push({ severity: 'info', code: 'LEGACY_ENTRIES', message: 'magic 0/1 entries are counted as one non-transactional record each (compressed wrappers may hold more)' })
  }
  const names = listDir(dir.path)
  const txnIndexAvailable = names.some((n) => /\.(txnindex|index)$/.test(n))
  if (!txnIndexAvailable) findings.push({ severity: 'info', code: 'TXNINDEX_NOT_CHECKED', message: `no .index or .txnindex files beside the segments in ${dir.path}: aborted transactions not cross-checked` })
  const txnIndex = txnIndexAvailable ? readTxnIndexes(dir.path, names, findings) : []
  const snapshots = readSnapshots(dir.path, names, findings)
  const bases = logs.map((f) => f.baseOffset).filter((b): b is bigint => b !== null)
  const logStartOffset = bases[0] ?? batches[0]?.baseOffset ?? 0n
  const lastSegmentBaseOffset = bases.reduce((a, b) => (b > a ? b : a), logStartOffset)
  let cp = checkpoints.get(dir.logDir)
  if (cp === undefined) { cp = readOffsetCheckpoint(dir.logDir, 'replication-offset-checkpoint'); checkpoints.set(dir.logDir, cp) }
  const label = dir.topic !== null ? `${dir.topic}-${dir.partition}` : dir.path
  const hw = dir.topic !== null ? cp?.get(label) ?? null : null
  return {
    dir, label,
    input: { topic: dir.topic, partition: dir.partition, logStartOffset, lastSegmentBaseOffset, batches, txnIndex, txnIndexAvailable,
      snapshots, checkpointHighWatermark: hw, scanFindings: findings },
  }
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
