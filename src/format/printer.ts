// The printer interfaces: what a command hands its output to. Partition commands: PartitionPrinter
// (partition-text.ts, partition-json.ts, chosen in partition-printer.ts). Dump: DumpPrinter
// (dump-text-printer.ts, dump-json-printer.ts, chosen in dump-printer.ts).
import type { Finding } from '../analysis/findings.js'
import type { PartitionFileContent } from './partition-file-text.js'
import type { LogSummary } from '../analysis/log-summary.js'
import type {
  LsoHead,
  LsoResult,
  LsoStream,
  ReconcileResult,
  ReconcileStream,
  TxnsResult,
  TxnsStream,
} from '../analysis/partition-results.js'
import type { OffsetPairs } from '../analysis/offset-pairs.js'
import type { AbortedTxn, OffsetIndexEntry, TimeIndexEntry } from '../decode/index-files.js'
import type { LegacyEntry, LegacyRecord } from '../decode/legacy.js'
import type { ControlInfo, V2Batch } from '../decode/log-reader.js'
import type { ProducerSnapshotEntry } from '../decode/producer-snapshot.js'
import type { KafkaRecord } from '../decode/records.js'
import type { Writer } from './writer.js'

export interface PartitionPrinter {
  /** a whole result (the library's); the same text as streaming it through reconcileStream */
  reconcile(r: ReconcileResult): void
  /**
   * `reconcile` as its partitions come: `filtered` when the counts are of a range (a filter was given); what the text
   * holds until its table is written is held in the queues `held` makes (in memory when not given)
   */
  reconcileStream(filtered: boolean, held?: () => HeldQueue): ReconcileStream
  /** a whole result (the library's); the same text as streaming it through txnsStream (format/txns-stream.ts) */
  txns(r: TxnsResult): void
  /** `txns` as it streams: memory bounded by what is open, not by the log */
  txnsStream(): TxnsStream
  /** a whole result (the library's); the same text as streaming it through lsoStream (format/lso-stream.ts) */
  lso(r: LsoResult): void
  /** `lso` as its partitions are judged: their text held in `held` until the end writes the impact before them */
  lsoStream(head: LsoHead, held: HeldWriter): LsoStream
}

/** text written now and put out later, after what must come before it: the command's scratch file, or memory */
export interface HeldWriter extends Writer {
  /** everything written so far, into `to`, and let go */
  writeTo(to: Writer): void
}

/** items held until the end, in order: the command's scratch-file queue (io/spill-queue.ts), or memory */
export interface HeldQueue {
  /** appends `item` (`owned`: the caller gives it up) */
  push(item: Buffer, owned?: boolean): void
  /** removes and returns the oldest item */
  shift(): Buffer | undefined
  /** lets go of what it holds (its scratch file deleted) */
  close(): void
}

/** a HeldQueue in memory: the library's whole results, which are in memory already */
export class MemoryQueue implements HeldQueue {
  private items: Buffer[] = []
  private head = 0

  push(item: Buffer, owned = false): void {
    this.items.push(owned ? item : Buffer.from(item))
  }

  shift(): Buffer | undefined {
    return this.head < this.items.length ? this.items[this.head++] : undefined
  }

  close(): void {
    this.items = []
    this.head = 0
  }
}

export type { TxnsStream } from '../analysis/partition-results.js'

/** where a printer writes: results on stdout, findings on stderr */
export interface PrinterOutput {
  stdout: Writer
  stderr: Writer
}

export type ColorLevel = 0 | 1 | 2 | 3

/** the file being dumped, as the printers need it */
export interface DumpedFile {
  path: string
  name: string
  kind: string
  baseOffset: bigint | null
  /** read from standard input (`-`): there is no file name to take the base offset from */
  stdin?: boolean
  /** from the partition directory it is in (`<topic>-<partition>`), when it is in one */
  topic?: string
  partition?: number
}

/**
 * Which part of a finding event a printer writes. 'all': the stderr line (repeats throttled per file and
 * code) and, in json, the object on stdout. A dump worker writes 'object' only (into its output, in order)
 * and the main thread 'line' only, so the lines are throttled per file as in a sequential dump.
 */
export type FindingPart = 'all' | 'object' | 'line'

/** the partition directory a finding's file is in (the command knows it from the path), for its JSON object */
export type FindingWhere = { topic: string; partition: number } | Record<string, never>

/**
 * Findings as events, written the moment they are found: nothing is kept per finding (1 M bad-CRC
 * batches once held 541 MiB of findings until exit). The command keeps only counts (commands/dump/finding-log.ts).
 */
export interface FindingPrinter {
  finding(f: Finding, where: FindingWhere, part: FindingPart): void
  /** at the end of each file (and of the run): the repeats held back, or one line with their count */
  findingsEnd(): void
}

/** offsets of the records a fast path printed (consecutive); no object is made for it beyond the writer's result */
export interface PrintedRange {
  readonly firstOffset: number
  readonly lastOffset: number
}

/**
 * The events of a dump, in file order. Batch and record events come from the hot loop: a printer must
 * write them without allocating per record where it can (the text printers write bytes).
 */
export interface DumpPrinter extends FindingPrinter {
  /** a file in a partition directory that is not dumped (kafka-dump-log: "Ignoring") */
  skipped(path: string, reason: string): void
  fileStart(f: DumpedFile): void
  /** the first line of a .log / .checkpoint dump (Log starting offset, Snapshot end offset) */
  logStart(f: DumpedFile): void
  batch(b: V2Batch, f: DumpedFile): void
  /**
   * The record lines of an uncompressed data batch straight from its bytes; null when this printer has
   * no such path or the batch needs the general one (then nothing was written).
   */
  fastRecords(b: V2Batch): PrintedRange | null
  /**
   * Its payloads need a record's whole value (a payload decoder): one too large to hold (a KafkaRecord with
   * valuePieces) is then not decoded, and the dump reports VALUE_NOT_DECODED.
   */
  readonly wholeValues: boolean
  /** one decoded record; `control` decodes a control record's meaning (reporting problems) when asked */
  record(rec: KafkaRecord, b: V2Batch, f: DumpedFile, first: boolean, control: () => ControlInfo | undefined): void
  legacyBatch(e: LegacyEntry, f: DumpedFile): void
  legacyRecord(e: LegacyEntry, r: LegacyRecord, f: DumpedFile): void
  /** bytes at the end that are not a batch (kafka-dump-log's "Found N invalid bytes") */
  trailingBytes(f: DumpedFile, n: number): void
  /** after a .log/.checkpoint file */
  summary(s: LogSummary): void
  indexEmpty(f: DumpedFile): void
  indexEntry(f: DumpedFile, e: OffsetIndexEntry): void
  timeIndexEntry(f: DumpedFile, e: TimeIndexEntry): void
  txnIndexEntry(f: DumpedFile, e: AbortedTxn): void
  snapshotEntry(f: DumpedFile, e: ProducerSnapshotEntry): void
  /** a partition-level text file (leader-epoch-checkpoint, partition.metadata, meta.properties, an offset checkpoint) */
  partitionFile(f: DumpedFile, c: PartitionFileContent): void
  sanityPassed(f: DumpedFile, entries: number): void
  /** after every file: kafka-dump-log's closing stderr blocks (compat), offset gaps (text) */
  end(d: DumpDiagnostics): void
}

/** (a, b) pairs per absolute path, gathered over the whole run */
export interface DumpDiagnostics {
  /** offset index: (index offset, log offset), newest first as Kafka lists them */
  indexMismatches: ReadonlyMap<string, Iterable<readonly [bigint, bigint]>>
  timeMismatches: ReadonlyMap<string, ReadonlyArray<readonly [bigint, bigint]>>
  timeOutOfOrder: ReadonlyMap<string, ReadonlyArray<readonly [bigint, bigint]>>
  timeNotFound: ReadonlyMap<string, ReadonlyArray<readonly [bigint, bigint]>>
  /** deep iteration: (previous, next) offsets that are not consecutive */
  nonConsecutive: ReadonlyMap<string, OffsetPairs>
}
