// .txnindex and producer .snapshot dumps.
import { ABORTED_TXN_SIZE, decodeTxnIndex, firstZeroTxnEntry } from '../../decode/index-files.js'
import { producerSnapshotEntries, readProducerSnapshot, snapshotValid } from '../../decode/producer-snapshot.js'
import type { KafkaFile } from '../../io/discover.js'
import { FileSource } from '../../io/file-source.js'
import { HeldSegments } from '../../io/held-segments.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import { entryWindows } from '../../decode/entry-windows.js'
import type { DumpPrinter } from '../../format/dump-printer.js'
import { textVariant } from '../../format/kafka-versions.js'
import type { DumpOptions } from './dump-options.js'
import type { FindingLog } from './finding-log.js'

export function dumpTxnIndex(file: KafkaFile, opts: DumpOptions, printer: DumpPrinter, log: FindingLog): void {
  // read in windows, never whole: any size works
  const src = new FileSource(file.path)
  try {
    dumpTxnIndexFrom(src, file, opts, printer, log)
  } finally {
    src.close()
  }
}

function dumpTxnIndexFrom(
  src: FileSource,
  file: KafkaFile,
  opts: DumpOptions,
  printer: DumpPrinter,
  log: FindingLog,
): void {
  const size = src.size
  // An all-zero entry is a preallocated tail, not an aborted transaction of producer 0 (--compat prints it, as Kafka does):
  // the entries end before the first one (firstZeroTxnEntry, the rule the partition scan reads .txnindex files by)
  const entries = entryWindows(src, ABORTED_TXN_SIZE, (w, first) => {
    const zero = opts.compat ? -1 : firstZeroTxnEntry(w)
    return decodeTxnIndex(zero < 0 ? w : w.subarray(0, zero * ABORTED_TXN_SIZE), first)
  })
  for (const e of entries) {
    // 3.9-4.3 read the version from the int16's first byte; 4.4's generated AbortedTxn reads the int16 (KAFKA-19562)
    const version = textVariant(opts.kafkaVersion).txnIndexVersion === 'int16' ? e.version : e.version >> 8
    if (version > 0) {
      log.add({
        severity: 'error',
        code: 'TXNINDEX_BAD_VERSION',
        file: file.path,
        position: e.index * ABORTED_TXN_SIZE,
        message: `entry ${e.index}: unexpected aborted transaction version ${version}`,
      })
      if (opts.compat) return
    }
    if (!opts.compat && e.lastOffset < e.firstOffset) {
      log.add({
        severity: 'error',
        code: 'TXNINDEX_BAD_RANGE',
        file: file.path,
        position: e.index * ABORTED_TXN_SIZE,
        message: `entry ${e.index}: lastOffset ${e.lastOffset} is before firstOffset ${e.firstOffset}`,
      })
    }
    printer.txnIndexEntry(file, e)
  }
  const rest = size % ABORTED_TXN_SIZE
  if (rest !== 0 && !opts.compat) {
    log.add({
      severity: 'warning',
      code: 'TXNINDEX_PARTIAL_ENTRY',
      file: file.path,
      position: size - rest,
      message: `${rest} bytes at the end do not make a whole ${ABORTED_TXN_SIZE}-byte entry (ignored, as the broker does)`,
    })
  }
}

/** what a snapshot's held entries may take in memory before they go to a scratch file (its CRC window is 3 MiB) */
const SNAPSHOT_HELD_MEMORY = 4 * 1024 * 1024

export function dumpProducerSnapshot(file: KafkaFile, _opts: DumpOptions, printer: DumpPrinter, log: FindingLog): void {
  // read in windows, never whole: a million producers make 70 MB. The entries are printed only once the CRC over
  // them matched, so what the CRC's pass read is held (in memory up to a bound, then a scratch file) and the entries
  // are read from there: each byte of the file read once
  const held = new HeldSegments(SNAPSHOT_HELD_MEMORY, 'snapshot-held')
  try {
    const src = held.once(file.path, new FileSource(file.path))
    try {
      dumpProducerSnapshotFrom(src, file, printer, log)
    } finally {
      src.close()
    }
  } finally {
    held.close()
  }
}

/** The CRC is checked before any entry is printed: kafka-dump-log prints none of a corrupt snapshot (only its message). */
function dumpProducerSnapshotFrom(src: SegmentSource, file: KafkaFile, printer: DumpPrinter, log: FindingLog): void {
  const snap = readProducerSnapshot(src)
  if (snap.schemaError !== undefined) {
    log.add({
      severity: 'error',
      code: 'SNAPSHOT_SCHEMA',
      file: file.path,
      position: snap.schemaError.position,
      message: `Snapshot failed schema validation: ${snap.schemaError.message}`,
    })
    return
  }
  if (!snapshotValid(snap)) {
    log.add({
      severity: 'error',
      code: 'SNAPSHOT_CRC',
      file: file.path,
      position: 2,
      message: `Snapshot is corrupt (CRC is no longer valid). Stored crc: ${snap.crc}. Computed crc: ${snap.crcComputed}`,
    })
    return
  }
  for (const e of producerSnapshotEntries(src, snap)) printer.snapshotEntry(file, e)
}
