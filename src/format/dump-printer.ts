// The printer seam of the dump, chosen once per run (createDumpPrinter): text (tsdump's own), compat
// (kafka-dump-log 3.9's exact text) or json. The dump commands emit file-level events here: which
// file, skipped files, index / time index / txnindex / snapshot entries, sanity checks, the per-file
// summary. (Batch and record lines still go through dump-log.ts, whose byte-level fast paths write
// straight into the output buffer.) A Kafka-version text variant or another output is one more
// implementation of DumpPrinter.
import type { LogSummary } from '../analysis/log-summary.js'
import type { AbortedTxn, OffsetIndexEntry, TimeIndexEntry } from '../decode/index-files.js'
import type { ProducerSnapshotEntry } from '../decode/producer-snapshot.js'
import { firstSequence } from '../decode/producer-snapshot.js'
import { formatSummary, summaryJson } from './dump-summary.js'
import { formatIndexEntry, formatSnapshotEntry, formatTimeIndexEntry, formatTxnIndexEntry } from './dump-text.js'
import { toJson } from './json-int64.js'
import type { Writer } from './writer.js'

/** the file being dumped, as the printers need it */
export interface DumpedFile { path: string, kind: string, baseOffset: bigint | null }

export interface DumpPrinter {
  /** a file in a partition directory that is not dumped (kafka-dump-log: "Ignoring") */
  skipped (path: string, reason: string): void
  fileStart (f: DumpedFile): void
  /** after a .log/.checkpoint file; `dim` styles the text summary */
  summary (s: LogSummary, dim: (s: string) => string): void
  indexEmpty (f: DumpedFile): void
  indexEntry (f: DumpedFile, e: OffsetIndexEntry): void
  timeIndexEntry (f: DumpedFile, e: TimeIndexEntry): void
  txnIndexEntry (f: DumpedFile, e: AbortedTxn): void
  snapshotEntry (f: DumpedFile, e: ProducerSnapshotEntry): void
  sanityPassed (f: DumpedFile, entries: number): void
}

export interface DumpPrinterOutput { stdout: Writer, stderr: Writer }

class TextDumpPrinter implements DumpPrinter {
  constructor (protected readonly out: DumpPrinterOutput, private readonly withSummary: boolean) {}

  skipped (path: string, reason: string): void {
    // kafka-dump-log's wording for files it does not handle; the metadata files every partition
    // directory has are expected there and not worth a line each
    if (!reason.startsWith('broker metadata file')) this.out.stderr.write(`Ignoring ${path}: ${reason}\n`)
  }

  fileStart (f: DumpedFile): void { this.out.stdout.write(`Dumping ${f.path}\n`) }
  summary (s: LogSummary, dim: (s: string) => string): void { if (this.withSummary) this.out.stdout.write(dim(formatSummary(s)) + '\n') }
  indexEmpty (f: DumpedFile): void { this.out.stdout.write(`${f.path} is empty.\n`) }
  indexEntry (_f: DumpedFile, e: OffsetIndexEntry): void { this.out.stdout.write(formatIndexEntry(e) + '\n') }
  timeIndexEntry (_f: DumpedFile, e: TimeIndexEntry): void { this.out.stdout.write(formatTimeIndexEntry(e) + '\n') }
  txnIndexEntry (_f: DumpedFile, e: AbortedTxn): void { this.out.stdout.write(formatTxnIndexEntry(e) + '\n') }
  snapshotEntry (_f: DumpedFile, e: ProducerSnapshotEntry): void { this.out.stdout.write(formatSnapshotEntry(e) + '\n') }
  sanityPassed (f: DumpedFile, _entries: number): void { this.out.stdout.write(`${f.path} passed sanity check.\n`) }
}

/** kafka-dump-log 3.9's text: the same lines, no summary */
class CompatDumpPrinter extends TextDumpPrinter {
  constructor (out: DumpPrinterOutput) { super(out, false) }
}

class JsonDumpPrinter implements DumpPrinter {
  constructor (private readonly out: DumpPrinterOutput) {}
  private emit (v: unknown): void { this.out.stdout.write(toJson(v) + '\n') }

  skipped (path: string, reason: string): void {
    this.emit({ type: 'skipped', file: path, reason })
    if (!reason.startsWith('broker metadata file')) this.out.stderr.write(`Ignoring ${path}: ${reason}\n`)
  }

  fileStart (f: DumpedFile): void { this.emit({ type: 'file', file: f.path, kind: f.kind, baseOffset: f.baseOffset }) }
  summary (s: LogSummary): void { this.emit(summaryJson(s)) }
  indexEmpty (): void {}
  indexEntry (f: DumpedFile, e: OffsetIndexEntry): void { this.emit({ type: 'index-entry', file: f.path, offset: e.offset, position: e.position }) }
  timeIndexEntry (f: DumpedFile, e: TimeIndexEntry): void { this.emit({ type: 'timeindex-entry', file: f.path, timestamp: e.timestamp, offset: e.offset }) }
  txnIndexEntry (f: DumpedFile, e: AbortedTxn): void {
    this.emit({ type: 'txnindex-entry', file: f.path, version: e.version >> 8, producerId: e.producerId,
      firstOffset: e.firstOffset, lastOffset: e.lastOffset, lastStableOffset: e.lastStableOffset })
  }

  snapshotEntry (f: DumpedFile, e: ProducerSnapshotEntry): void {
    this.emit({ type: 'snapshot-entry', file: f.path, producerId: e.producerId, producerEpoch: e.producerEpoch,
      coordinatorEpoch: e.coordinatorEpoch, currentTxnFirstOffset: e.currentTxnFirstOffset, lastTimestamp: e.timestamp,
      firstSequence: firstSequence(e), lastSequence: e.lastSequence, lastOffset: e.lastOffset, offsetDelta: e.offsetDelta })
  }

  sanityPassed (f: DumpedFile, entries: number): void { this.emit({ type: 'sanity-check', file: f.path, passed: true, entries }) }
}

const DUMP_PRINTERS = {
  text: (out: DumpPrinterOutput, o: { summary: boolean }) => new TextDumpPrinter(out, o.summary),
  compat: (out: DumpPrinterOutput) => new CompatDumpPrinter(out),
  json: (out: DumpPrinterOutput) => new JsonDumpPrinter(out),
} satisfies Record<string, (out: DumpPrinterOutput, o: { summary: boolean }) => DumpPrinter>

export type DumpFormat = keyof typeof DUMP_PRINTERS

export function createDumpPrinter (format: DumpFormat, out: DumpPrinterOutput, o: { summary: boolean }): DumpPrinter {
  return DUMP_PRINTERS[format](out, o)
}
