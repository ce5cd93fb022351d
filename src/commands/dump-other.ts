// .txnindex and producer .snapshot dumps.
import type { CliContext } from './context.js'
import { ABORTED_TXN_SIZE, decodeTxnIndex } from '../decode/index-files.js'
import { decodeProducerSnapshot, firstSequence } from '../decode/producer-snapshot.js'
import type { KafkaFile } from '../io/discover.js'
import { readSmallFile } from '../io/file-source.js'
import { formatSnapshotEntry, formatTxnIndexEntry } from '../format/dump-text.js'
import { toJson } from '../format/json-int64.js'
import type { DumpOptions } from './dump-options.js'
import type { FindingLog } from './findings.js'

export function dumpTxnIndex (file: KafkaFile, opts: DumpOptions, cli: CliContext, log: FindingLog): void {
  const buf = readSmallFile(file.path)
  for (const e of decodeTxnIndex(buf)) {
    // An all-zero entry is a preallocated tail, not an aborted transaction of producer 0.
    if (e.version === 0 && e.producerId === 0n && e.firstOffset === 0n && e.lastOffset === 0n && e.lastStableOffset === 0n && !opts.compat) break
    if ((e.version >> 8) > 0) {
      log.add({ severity: 'error', code: 'TXNINDEX_BAD_VERSION', file: file.path, position: e.index * ABORTED_TXN_SIZE,
        message: `entry ${e.index}: unexpected aborted transaction version ${e.version >> 8}` })
      if (opts.compat) return
    }
    if (!opts.compat && (e.lastOffset < e.firstOffset)) {
      log.add({ severity: 'error', code: 'TXNINDEX_BAD_RANGE', file: file.path, position: e.index * ABORTED_TXN_SIZE,
        message: `entry ${e.index}: lastOffset ${e.lastOffset} is before firstOffset ${e.firstOffset}` })
    }
    if (opts.json) {
      cli.stdout.write(toJson({ type: 'txnindex-entry', file: file.path, version: e.version >> 8, producerId: e.producerId,
        firstOffset: e.firstOffset, lastOffset: e.lastOffset, lastStableOffset: e.lastStableOffset }) + '\n')
    } else {
      cli.stdout.write(formatTxnIndexEntry(e) + '\n')
    }
  }
  const rest = buf.length % ABORTED_TXN_SIZE
  if (rest !== 0 && !opts.compat) {
    log.add({ severity: 'warning', code: 'TXNINDEX_PARTIAL_ENTRY', file: file.path, position: buf.length - rest,
      message: `${rest} bytes at the end do not make a whole ${ABORTED_TXN_SIZE}-byte entry (ignored, as the broker does)` })
  }
}

export function dumpProducerSnapshot (file: KafkaFile, opts: DumpOptions, cli: CliContext, log: FindingLog): void {
  const buf = readSmallFile(file.path)
  const snap = decodeProducerSnapshot(buf)
  if (snap.schemaError !== undefined) {
    log.add({ severity: 'error', code: 'SNAPSHOT_SCHEMA', file: file.path, position: snap.schemaErrorPosition ?? 0,
      message: `Snapshot failed schema validation: ${snap.schemaError}` })
    return
  }
  if (!snap.crcValid) {
    log.add({ severity: 'error', code: 'SNAPSHOT_CRC', file: file.path, position: 2,
      message: `Snapshot is corrupt (CRC is no longer valid). Stored crc: ${snap.crc}. Computed crc: ${snap.crcComputed}` })
    return
  }
  for (const e of snap.entries) {
    if (opts.json) {
      cli.stdout.write(toJson({ type: 'snapshot-entry', file: file.path, producerId: e.producerId, producerEpoch: e.producerEpoch,
        coordinatorEpoch: e.coordinatorEpoch, currentTxnFirstOffset: e.currentTxnFirstOffset, lastTimestamp: e.timestamp,
        firstSequence: firstSequence(e), lastSequence: e.lastSequence, lastOffset: e.lastOffset, offsetDelta: e.offsetDelta }) + '\n')
    } else {
      cli.stdout.write(formatSnapshotEntry(e) + '\n')
    }
  }
}
