// The dump's JSON printer: one JSON object per line on stdout for every event (jq-friendly).
import type { Finding } from '../analysis/findings.js'
import type { PartitionFileContent } from './partition-file-text.js'
import { partitionFileFields } from './partition-file-text.js'
import type { LogSummary } from '../analysis/log-summary.js'
import type { AbortedTxn, OffsetIndexEntry, TimeIndexEntry } from '../decode/index-files.js'
import type { LegacyEntry, LegacyRecord } from '../decode/legacy.js'
import type { ControlInfo, V2Batch } from '../decode/log-reader.js'
import type { ProducerSnapshotEntry } from '../decode/producer-snapshot.js'
import { firstSequence } from '../decode/producer-snapshot.js'
import type { KafkaRecord } from '../decode/records.js'
import type { ValuePieces } from '../decode/records.js'
import { forEachUtf8Slice } from './record-line-ascii.js'
import { decodeValue } from './value-decoders.js'
import { batchJson, JSON_SCHEMA_VERSION, legacyBatchJson, legacyRecordJson, recordJson } from './dump-json.js'
import type { RecordJsonOptions } from './dump-json.js'
import { summaryJson } from './dump-summary.js'
import { FindingLines } from './finding-text.js'
import { toJson } from './json-int64.js'
import type { PayloadParserFn } from './payload-parsers.js'
import type { DumpedFile, DumpPrinter, FindingPart, FindingWhere, PrintedRange, PrinterOutput } from './printer.js'

export class JsonDumpPrinter implements DumpPrinter {
  /** the file being dumped: its topic and partition go into every object about it */
  private cur: DumpedFile | null = null
  /** findings are on stderr too, as in the text output (a script reading stdout still sees them on the terminal) */
  private readonly lines: FindingLines

  readonly wholeValues: boolean

  /** @param plainValues payloads are UTF-8 text (no internal-topic parser, the string value decoder) */
  constructor(
    private readonly out: PrinterOutput,
    private readonly rec: RecordJsonOptions,
    private readonly parser: PayloadParserFn,
    private readonly plainValues: boolean,
  ) {
    this.lines = new FindingLines(out.stderr)
    this.wholeValues = rec.printData && !plainValues
    // the first object of a run says which schema the rest follow
    this.out.stdout.write(toJson({ type: 'header', tool: 'tsdump', schemaVersion: JSON_SCHEMA_VERSION }) + '\n')
  }

  /**
   * `v` is a fresh object made for this line: topic and partition are added to it (the same key order as a
   * copy), not spread into a copy. The copy of a batch's 22 fields was a dictionary-mode object: 1 M batches
   * took 9.7 s CPU and 141 MiB peak RSS that way, 5.5 s and 76 MiB this way.
   */
  private emit(v: Record<string, unknown>): void {
    this.out.stdout.write(toJson(this.located(v)) + '\n')
  }

  /** `v` with the current file's topic and partition, when its name says them */
  private located(v: Record<string, unknown>): Record<string, unknown> {
    const f = this.cur
    if (f?.topic !== undefined) {
      v.topic = f.topic
      v.partition = f.partition
    }
    return v
  }

  skipped(path: string, reason: string): void {
    this.cur = null
    this.emit({ type: 'skipped', file: path, reason })
    if (!reason.startsWith('broker metadata file')) this.out.stderr.write(`Ignoring ${path}: ${reason}\n`)
  }

  fileStart(f: DumpedFile): void {
    this.cur = f
    this.emit({ type: 'file', file: f.path, kind: f.kind, baseOffset: f.baseOffset })
  }
  logStart(): void {}
  batch(b: V2Batch, f: DumpedFile): void {
    this.emit(batchJson(f.path, b.header, b))
  }
  fastRecords(): PrintedRange | null {
    return null
  }

  record(rec: KafkaRecord, b: V2Batch, f: DumpedFile, _first: boolean, control: () => ControlInfo | undefined): void {
    const h = b.header
    const ci = h.isControl ? control() : undefined
    // (value null when it is too large to hold: the key alone is decoded)
    const parsed =
      this.rec.printData && !h.isControl ? this.parser(rec.key, rec.value, rec.offset, h.position) : undefined
    const o = recordJson(f.path, h, rec, this.rec, ci, parsed)
    // a value too large to hold (decode/streamed-records.ts): its payload string is written piece by piece;
    // a payload decoder would need it whole, so it is not decoded (payload null; the dump reports VALUE_NOT_DECODED)
    if (rec.valuePieces !== undefined && parsed !== undefined && this.plainValues) this.emitStreamed(o, rec.valuePieces)
    else this.emit(o)
  }

  /** emit's line with the payload's JSON string written from the value's pieces (the same text as toJson of the whole) */
  private emitStreamed(v: Record<string, unknown>, pieces: ValuePieces): void {
    const out = this.out.stdout
    let sep = '{'
    for (const [k, x] of Object.entries(this.located(v))) {
      if (x === undefined) continue
      if (k !== 'payload') {
        out.write(`${sep}${JSON.stringify(k)}:${toJson(x)}`)
        sep = ','
        continue
      }
      out.write(`${sep}"payload":"`)
      sep = ','
      // JSON escapes character by character, and each slice ends on a whole UTF-8 sequence (Java's decoding)
      // (64 KiB slices: one escapes to up to 6 times its size as strings, and 1 MiB ones took 126 MiB peak RSS on 300 MiB of zeros)
      forEachUtf8Slice(
        pieces,
        (s) => {
          const j = JSON.stringify(decodeValue(s, 'string'))
          out.write(j.slice(1, j.length - 1))
        },
        64 * 1024,
      )
      out.write('"')
    }
    out.write('}\n')
  }

  legacyBatch(e: LegacyEntry, f: DumpedFile): void {
    this.emit(legacyBatchJson(f.path, e))
  }

  legacyRecord(e: LegacyEntry, r: LegacyRecord, f: DumpedFile): void {
    const parsed = this.rec.printData ? this.parser(r.key, r.value, r.offset, e.position) : undefined
    this.emit(legacyRecordJson(f.path, e, r, parsed))
  }

  trailingBytes(): void {}
  summary(s: LogSummary): void {
    this.emit(summaryJson(s))
  }
  indexEmpty(): void {}
  indexEntry(f: DumpedFile, e: OffsetIndexEntry): void {
    this.emit({ type: 'index-entry', file: f.path, offset: e.offset, position: e.position })
  }
  timeIndexEntry(f: DumpedFile, e: TimeIndexEntry): void {
    this.emit({ type: 'timeindex-entry', file: f.path, timestamp: e.timestamp, offset: e.offset })
  }
  txnIndexEntry(f: DumpedFile, e: AbortedTxn): void {
    this.emit({
      type: 'txnindex-entry',
      file: f.path,
      version: e.version >> 8,
      producerId: e.producerId,
      firstOffset: e.firstOffset,
      lastOffset: e.lastOffset,
      lastStableOffset: e.lastStableOffset,
    })
  }

  partitionFile(f: DumpedFile, c: PartitionFileContent): void {
    const { fields, entries } = partitionFileFields(c)
    if (entries === null) {
      this.emit({ type: 'partition-file', file: f.path, ...fields })
      return
    }
    // emit's line, the entries written one by one where `entries` falls (a checkpoint can hold millions)
    const out = this.out.stdout
    let sep = '{'
    for (const [k, x] of Object.entries(
      this.located({ type: 'partition-file', file: f.path, ...fields, entries: null }),
    )) {
      if (x === undefined) continue
      if (k !== 'entries') {
        out.write(`${sep}${JSON.stringify(k)}:${toJson(x)}`)
        sep = ','
        continue
      }
      let piece = `${sep}"entries":[`
      sep = ','
      let first = true
      for (const e of entries) {
        piece += (first ? '' : ',') + toJson(e)
        first = false
        if (piece.length >= 65536) {
          out.write(piece)
          piece = ''
        }
      }
      out.write(piece + ']')
    }
    out.write('}\n')
  }

  snapshotEntry(f: DumpedFile, e: ProducerSnapshotEntry): void {
    this.emit({
      type: 'snapshot-entry',
      file: f.path,
      producerId: e.producerId,
      producerEpoch: e.producerEpoch,
      coordinatorEpoch: e.coordinatorEpoch,
      currentTxnFirstOffset: e.currentTxnFirstOffset,
      lastTimestamp: e.timestamp,
      firstSequence: firstSequence(e),
      lastSequence: e.lastSequence,
      lastOffset: e.lastOffset,
      offsetDelta: e.offsetDelta,
    })
  }

  sanityPassed(f: DumpedFile, entries: number): void {
    this.emit({ type: 'sanity-check', file: f.path, passed: true, entries })
  }
  end(): void {}

  /** every finding is one object (its partition from the finding's own file, which need not be the file being dumped) */
  finding(f: Finding, where: FindingWhere, part: FindingPart): void {
    if (part !== 'line') this.out.stdout.write(toJson({ type: 'finding', ...f, ...where }) + '\n')
    if (part !== 'object') this.lines.write(f)
  }

  findingsEnd(): void {
    this.lines.drain()
  }
}
