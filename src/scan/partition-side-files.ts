// A partition directory's side files, read before its segments (the analysis needs them while streaming): the
// .txnindex files (local and remote), the producer snapshots and the log dir's log-start-offset-checkpoint.
// Split out of partition-scan.ts, which reads the segments.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { TxnIndexTable } from '../decode/txn-index-table.js'
import type { SnapshotInput, SnapshotProducer } from '../analysis/partition-input.js'
import { ProducerInts } from '../analysis/producer-map.js'
import { ABORTED_TXN_SIZE, firstZeroTxnEntry } from '../decode/index-files.js'
import { entryWindowBuffers } from '../decode/entry-windows.js'
import { readProducerSnapshot, snapshotValid } from '../decode/producer-snapshot.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { KafkaFile, PartitionCheckpoints, PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { namesOfKind } from '../io/segment-names.js'
import { FileSource } from '../io/file-source.js'
import { openKafkaFile } from '../io/remote/open.js'
import { InputError } from '../io/input-error.js'

export function readTxnIndexes(dir: string, names: string[], remote: KafkaFile[], findings: Finding[]): TxnIndexTable {
  const out = new TxnIndexTable()
  const files: KafkaFile[] = [
    ...remote,
    ...namesOfKind(names, 'txnindex').map(({ name: n }) => ({
      path: path.join(dir, n),
      name: n,
      kind: 'txnindex' as const,
      baseOffset: null,
    })),
  ]
  for (const f of files) {
    const file = f.path
    try {
      const size = readTxnIndex(f, out)
      if (size % ABORTED_TXN_SIZE !== 0)
        findings.push({
          severity: 'warning',
          code: 'TXNINDEX_PARTIAL_ENTRY',
          file,
          position: size - (size % ABORTED_TXN_SIZE),
          message: `${size % ABORTED_TXN_SIZE} bytes after the last complete entry`,
        })
    } catch (e) {
      findings.push(finding(e instanceof InputError ? e.code : 'UNREADABLE', describeFsError(e), { file, position: 0 }))
    }
  }
  return out
}

/**
 * A .txnindex file's entries into the table, read in windows (any size; the table keeps the windows, 34 bytes
 * an entry, up to the first all-zero entry, where the dump stops too); returns the file's size.
 */
function readTxnIndex(f: KafkaFile, into: TxnIndexTable): number {
  const src = openKafkaFile(f)
  try {
    for (const { window, first } of entryWindowBuffers(src, ABORTED_TXN_SIZE)) {
      const zero = firstZeroTxnEntry(window)
      into.addFile(f.path, zero < 0 ? window : window.subarray(0, zero * ABORTED_TXN_SIZE), first * ABORTED_TXN_SIZE)
      if (zero >= 0) break
    }
    return src.size
  } finally {
    src.close()
  }
}

export function readSnapshots(dir: string, names: string[], findings: Finding[]): SnapshotInput[] {
  const out: SnapshotInput[] = []
  for (const { name: n, baseOffset } of namesOfKind(names, 'snapshot')) {
    const file = path.join(dir, n)
    try {
      const s = readSnapshot(file, baseOffset, findings)
      if (s !== null) out.push(s)
    } catch (e) {
      findings.push(finding(e instanceof InputError ? e.code : 'UNREADABLE', describeFsError(e), { file, position: 0 }))
    }
  }
  return out
}

/**
 * One producer snapshot, read once in windows (any size): its open transactions as objects, every producer's
 * coordinator epoch in a ProducerInts (a million producers: tens of MB, not an object each). null: not usable.
 */
function readSnapshot(file: string, offset: bigint, findings: Finding[]): SnapshotInput | null {
  const src = new FileSource(file)
  try {
    const open: SnapshotProducer[] = []
    const coordinatorEpochs = new ProducerInts()
    // the entries taken from the CRC's own read of them, and dropped below when the CRC fails
    const s = readProducerSnapshot(src, {
      onEntry: (e) => {
        // a producer listed twice (never written by Kafka): its first entry counts
        if (coordinatorEpochs.get(e.producerId) === undefined) coordinatorEpochs.set(e.producerId, e.coordinatorEpoch)
        if (e.currentTxnFirstOffset !== null) {
          open.push({
            producerId: e.producerId,
            producerEpoch: e.producerEpoch,
            coordinatorEpoch: e.coordinatorEpoch,
            currentTxnFirstOffset: e.currentTxnFirstOffset,
            lastTimestamp: e.timestamp,
            lastOffset: e.lastOffset,
          })
        }
      },
    })
    // the same codes as `dump` gives the file; the analysis goes on without the snapshot
    if (s.schemaError !== undefined) {
      findings.push(
        finding('SNAPSHOT_SCHEMA', `producer snapshot not used: ${s.schemaError.message}`, {
          file,
          position: s.schemaError.position,
        }),
      )
      return null
    }
    if (!snapshotValid(s)) {
      findings.push(
        finding('SNAPSHOT_CRC', `producer snapshot not used: crc stored ${s.crc} != computed ${s.crcComputed}`, {
          file,
          position: 2,
        }),
      )
      return null
    }
    return { offset, file, open, coordinatorEpochs }
  } finally {
    src.close()
  }
}

/**
 * Each partition's entries of its log dir's replication-offset-checkpoint and log-start-offset-checkpoint, each file
 * read once for all the partitions in it: the scans, here or in a worker thread, and the notes on remote offsets take
 * them from the partition instead of reading the files again.
 */
export function attachCheckpoints(partitions: readonly PartitionDir[]): void {
  const byLogDir = new Map<string, PartitionDir[]>()
  for (const p of partitions) {
    if (p.topic === null || p.partition === null) continue
    const list = byLogDir.get(p.logDir) ?? []
    list.push(p)
    byLogDir.set(p.logDir, list)
  }
  for (const [logDir, list] of byLogDir) {
    const labels = new Set(list.map((p) => `${p.topic}-${p.partition}`))
    const hw = readOffsetCheckpoint(logDir, 'replication-offset-checkpoint', labels)
    const start = readOffsetCheckpoint(logDir, 'log-start-offset-checkpoint', labels)
    for (const p of list) {
      const label = `${p.topic}-${p.partition}`
      p.checkpoints = { highWatermark: hw?.get(label) ?? null, logStart: start?.get(label) ?? null }
    }
  }
}

/**
 * The log dir's log-start-offset-checkpoint, read once per log dir (cached beside the replication checkpoint, under
 * the file's path: the replication checkpoint's key is the log dir itself).
 */
export function logStartCheckpoint(
  logDir: string,
  cache: Map<string, OffsetCheckpoint | null>,
): OffsetCheckpoint | null {
  const key = path.join(logDir, 'log-start-offset-checkpoint')
  let cp = cache.get(key)
  if (cp === undefined) {
    cp = readOffsetCheckpoint(logDir, 'log-start-offset-checkpoint')
    cache.set(key, cp)
  }
  return cp
}

/** the partition's checkpoint entries, for a partition whose paths were not resolved by resolvePartitions */
export function checkpointEntries(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
): PartitionCheckpoints {
  if (dir.topic === null) return { highWatermark: null, logStart: null }
  let cp = checkpoints.get(dir.logDir)
  if (cp === undefined) {
    cp = readOffsetCheckpoint(dir.logDir, 'replication-offset-checkpoint')
    checkpoints.set(dir.logDir, cp)
  }
  const label = `${dir.topic}-${dir.partition}`
  return {
    highWatermark: cp?.get(label) ?? null,
    logStart: logStartCheckpoint(dir.logDir, checkpoints)?.get(label) ?? null,
  }
}
