// The dump's text printers: tsdump's own text (colour, control suffixes, a summary per file) and
// kafka-dump-log's exact text of one release (`--compat`: no colour, no extras; the release's quirks are
// the fields of its TextVariant, format/kafka-versions.ts). The common batch and record
// lines are written as bytes straight into the output buffer (batch-line-ascii.ts,
// record-line-ascii.ts, record-lines-fast.ts); the string functions of dump-text.ts serve the rest.
import type { ChalkInstance } from 'chalk'
import type { PartitionFileContent } from './partition-file-text.js'
import { partitionFileLines } from './partition-file-text.js'
import { Chalk } from 'chalk'
import type { Finding } from '../analysis/findings.js'
import type { LogSummary } from '../analysis/log-summary.js'
import type { BatchHeader } from '../decode/batch-header.js'
import type { AbortedTxn, OffsetIndexEntry, TimeIndexEntry } from '../decode/index-files.js'
import { BatchView, recordsFit } from '../decode/batch-view.js'
import type { LegacyEntry, LegacyRecord } from '../decode/legacy.js'
import type { ControlInfo, V2Batch } from '../decode/log-reader.js'
import type { ProducerSnapshotEntry } from '../decode/producer-snapshot.js'
import type { KafkaRecord } from '../decode/records.js'
import { putBytes } from './ascii.js'
import { MAX_BATCH_LINE, writeBatchLine } from './batch-line-ascii.js'
import { formatSummary } from './dump-summary.js'
import {
  formatBatchLine,
  formatControlSuffix,
  formatIndexEntry,
  formatLegacyBatchLine,
  formatSnapshotEntry,
  formatTimeIndexEntry,
  formatTxnIndexEntry,
} from './dump-text.js'
import type { TextVariant } from './kafka-versions.js'
import type { PayloadParserFn } from './payload-parsers.js'
import type {
  ColorLevel,
  DumpDiagnostics,
  DumpedFile,
  DumpPrinter,
  FindingPart,
  PrintedRange,
  PrinterOutput,
} from './printer.js'
import { FindingLines } from './finding-text.js'
import { writeKafkaDiagnostics, writeNonConsecutive } from './dump-diagnostics.js'
import {
  K_KEY,
  K_PAYLOAD,
  putString,
  putUtf8,
  recordMetadataSize,
  writeRecordMetadata,
  writeUtf8Pieces,
} from './record-line-ascii.js'
import { fastLinesSize, writeRecordLinesFast } from './record-lines-fast.js'

export interface DumpPrinterConfig {
  /** the --kafka-version release's text: every quirk in compat; in the default mode only its conventions (LEADER_CHANGE) */
  variant: Readonly<TextVariant>
  /** tsdump's per-file summary line (text only) */
  summary: boolean
  printData: boolean
  skipRecordMetadata: boolean
  color: ColorLevel
  parser: PayloadParserFn
  /** keys and payloads print as UTF-8 text (the default decoders): copy bytes, make no strings, allow the fast record path */
  rawStrings: boolean
  /** payloads print as UTF-8 text (no internal-topic parser, the string value decoder): a value too large to hold is written piece by piece */
  plainValues: boolean
}

/** the payload text of a value too large to hold that a payload decoder would need whole */
export function notDecodedText(size: number): string {
  return `<not decoded: ${size} bytes, larger than the read window (VALUE_NOT_DECODED)>`
}

/** the first line of a .log / .checkpoint dump */
export function logStartLine(f: DumpedFile): string {
  if (f.kind === 'checkpoint') {
    if (f.name === 'bootstrap.checkpoint') return 'KRaft bootstrap snapshot'
    const m = /^(\d{20})-(\d{10})\.checkpoint$/.exec(f.name)
    if (m !== null) return `Snapshot end offset: ${BigInt(m[1]!)}, epoch: ${Number(m[2])}`
    return `Snapshot end offset: unknown (file name ${f.name} is not <offset>-<epoch>.checkpoint)`
  }
  return `Log starting offset: ${f.baseOffset ?? (f.stdin === true ? 'unknown (standard input)' : 'unknown (file name is not a base offset)')}`
}

export class TextDumpPrinter implements DumpPrinter {
  private readonly chalk: ChalkInstance
  /** every batch line can take the byte path unless colour is on (chalk's level is a getter: read it once) */
  private readonly plain: boolean

  /** `compat`: kafka-dump-log's text of cfg.variant's release exactly */
  constructor(
    private readonly out: PrinterOutput,
    private readonly cfg: DumpPrinterConfig,
    private readonly compat: boolean,
  ) {
    this.chalk = new Chalk({ level: compat ? 0 : cfg.color })
    this.plain = this.compat || this.chalk.level === 0
    this.payloadPipe = compat && cfg.variant.skipMetadataPayloadPipe
    this.lines = new FindingLines(out.stderr)
    this.wholeValues = cfg.printData && !cfg.plainValues
  }

  readonly wholeValues: boolean

  /** findings: one stderr line each as they occur, repeats throttled (format/finding-text.ts) */
  private readonly lines: FindingLines

  /** 4.3+ `--compat`: a payload printed with no metadata and no key before it starts `| payload: ` */
  private readonly payloadPipe: boolean
  /** the header of the batch being printed, read in place */
  private readonly view = new BatchView()

  skipped(path: string, reason: string): void {
    // kafka-dump-log's wording for files it does not handle; the metadata files every partition
    // directory has are expected there and not worth a line each
    if (!reason.startsWith('broker metadata file')) this.out.stderr.write(`Ignoring ${path}: ${reason}\n`)
  }

  fileStart(f: DumpedFile): void {
    this.out.stdout.write(`Dumping ${f.path}\n`)
  }
  logStart(f: DumpedFile): void {
    this.out.stdout.write(logStartLine(f) + '\n')
  }

  batch(b: V2Batch): void {
    const v = this.view.of(b.bytes, b.position)
    const isControl = v.isControl
    const out = this.out.stdout
    if (this.plain || (!isControl && b.crcValid !== false)) {
      // the common line, written as bytes (format/batch-line-ascii.ts)
      const suffix =
        isControl && !this.compat && b.control !== null
          ? formatControlSuffix(b.control, this.cfg.variant.leaderChangeAsJson)
          : ''
      const at = out.reserve(MAX_BATCH_LINE + suffix.length * 3)
      let end = writeBatchLine(out.buffer, at, v, b.crcValid)
      if (suffix !== '') end = putString(out.buffer, end - 1, suffix + '\n') // before the newline
      out.commit(end)
      return
    }
    // colour: an invalid CRC in red, control markers in their outcome's colour
    let line = formatBatchLine(b.header, b.crcValid, b.crcValid === false ? this.chalk.red : undefined)
    if (b.control !== null)
      line += this.colourControl(formatControlSuffix(b.control, this.cfg.variant.leaderChangeAsJson), b.control.type)
    out.write(line + '\n')
  }

  private colourControl(s: string, type: number): string {
    if (type === 1) return this.chalk.green.bold(s)
    if (type === 0) return this.chalk.red.bold(s)
    return this.chalk.cyan(s)
  }

  fastRecords(b: V2Batch): PrintedRange | null {
    if (!this.cfg.rawStrings || !b.complete) return null
    const out = this.out.stdout
    const count = this.view.of(b.bytes, b.position).recordsCount
    // a corrupt count must not size the reservation (records take at least 7 bytes each)
    if (!recordsFit(count, b.bytes.length)) return null
    const at = out.reserve(fastLinesSize(b.bytes, count))
    const r = writeRecordLinesFast(out.buffer, at, b.bytes, {
      printData: this.cfg.printData,
      skipRecordMetadata: this.cfg.skipRecordMetadata,
      payloadPipe: this.payloadPipe,
    })
    if (r === null) return null
    out.commit(r.end)
    return r
  }

  record(rec: KafkaRecord, b: V2Batch, _f: DumpedFile, first: boolean, control: () => ControlInfo | undefined): void {
    const h = b.header
    if (!h.isControl) this.dataRecordLine(rec, h)
    else this.controlRecordLine(rec, h, b, first, control)
  }

  // A data record's text line as bytes (format/record-line-ascii.ts); the same text as the string path.
  private dataRecordLine(rec: KafkaRecord, h: BatchHeader): void {
    const cfg = this.cfg
    const out = this.out.stdout
    // a value too large to hold (decode/streamed-records.ts) is printed in pieces as UTF-8 text; a payload
    // decoder would need it whole: it is not decoded (the dump reports VALUE_NOT_DECODED)
    const notHeld = cfg.printData && rec.valuePieces !== undefined
    const pieces = notHeld && cfg.plainValues ? rec.valuePieces : undefined
    let key: Buffer | string | undefined
    let payload: Buffer | string | undefined
    if (cfg.printData) {
      if (cfg.rawStrings) {
        key = rec.key ?? undefined
        payload = rec.value ?? undefined
      } else {
        // (value null when not held: the key alone is decoded)
        const p = cfg.parser(rec.key, rec.value, rec.offset, h.position)
        key = p.key
        payload = notHeld && !cfg.plainValues ? notDecodedText(rec.valueSize!) : p.payload
      }
    }
    const need =
      recordMetadataSize(rec) +
      32 +
      (key === undefined ? 0 : key.length * 3) +
      (payload === undefined ? 0 : payload.length * 3)
    let pos = out.reserve(need)
    const buf = out.buffer
    let pipe = true
    if (!cfg.skipRecordMetadata) {
      pos = writeRecordMetadata(buf, pos, rec, h.timestampType === 'LogAppendTime')
      pipe = false
    }
    if (key !== undefined) {
      if (pipe) {
        buf[pos++] = 124
        pipe = false
      } // '|'
      buf[pos++] = 32
      pos = putBytes(buf, pos, K_KEY)
      pos = typeof key === 'string' ? putString(buf, pos, key) : putUtf8(buf, pos, key)
    }
    if (payload !== undefined || pieces !== undefined) {
      if (pipe && this.payloadPipe) buf[pos++] = 124 // '|': 4.3+ with metadata skipped and no key
      pos = putBytes(buf, pos, K_PAYLOAD)
      if (pieces !== undefined) {
        out.commit(pos)
        writeUtf8Pieces(out, pieces)
        pos = out.reserve(1)
      } else {
        pos = typeof payload === 'string' ? putString(buf, pos, payload) : putUtf8(buf, pos, payload!)
      }
    }
    out.buffer[pos++] = 10
    out.commit(pos)
  }

  // A control record's line as bytes; the batch's first record was already decoded by readLog.
  private controlRecordLine(
    rec: KafkaRecord,
    h: BatchHeader,
    b: V2Batch,
    first: boolean,
    control: () => ControlInfo | undefined,
  ): void {
    const out = this.out.stdout
    let suffix = ''
    if (!this.cfg.skipRecordMetadata) {
      const ci = first && b.control !== null ? b.control : control()
      if (ci !== undefined) {
        suffix = formatControlSuffix(ci, this.cfg.variant.leaderChangeAsJson)
        if (!this.compat) suffix = this.colourControl(suffix, ci.type)
      }
    }
    let pos = out.reserve(recordMetadataSize(rec) + suffix.length * 3 + 2)
    const buf = out.buffer
    if (!this.cfg.skipRecordMetadata) {
      pos = writeRecordMetadata(buf, pos, rec, h.timestampType === 'LogAppendTime')
      pos = putString(buf, pos, suffix)
    }
    buf[pos++] = 10
    out.commit(pos)
  }

  legacyBatch(e: LegacyEntry): void {
    this.out.stdout.write(formatLegacyBatchLine(e) + '\n')
  }

  legacyRecord(e: LegacyEntry, r: LegacyRecord): void {
    let line = ''
    let prefix = '| '
    if (!this.cfg.skipRecordMetadata) {
      // Kafka 3.9-4.2 print a stray `}` after the crc of legacy records; --compat keeps it.
      line +=
        `| offset: ${r.offset} ${e.timestampType}: ${r.timestamp} keySize: ${r.keySize} valueSize: ${r.valueSize}` +
        ` isValid: ${r.crcValid} crc: ${r.crc}${this.compat && this.cfg.variant.legacyCrcStrayBrace ? '}' : ''}`
      prefix = ' '
    }
    if (this.cfg.printData) {
      const p = this.cfg.parser(r.key, r.value, r.offset, e.position)
      if (p.key !== undefined) {
        line += `${prefix}key: ${p.key}`
        prefix = ' '
      }
      if (p.payload !== undefined) line += `${prefix === '| ' && this.payloadPipe ? '|' : ''} payload: ${p.payload}`
    }
    this.out.stdout.write(line + '\n')
  }

  trailingBytes(f: DumpedFile, n: number): void {
    this.out.stdout.write(`Found ${n} invalid bytes at the end of ${f.name}\n`)
  }
  summary(s: LogSummary): void {
    if (this.cfg.summary && !this.compat) this.out.stdout.write(this.chalk.dim(formatSummary(s)) + '\n')
  }
  indexEmpty(f: DumpedFile): void {
    this.out.stdout.write(`${f.path} is empty.\n`)
  }
  indexEntry(_f: DumpedFile, e: OffsetIndexEntry): void {
    this.out.stdout.write(formatIndexEntry(e) + '\n')
  }
  timeIndexEntry(_f: DumpedFile, e: TimeIndexEntry): void {
    this.out.stdout.write(formatTimeIndexEntry(e) + '\n')
  }
  txnIndexEntry(_f: DumpedFile, e: AbortedTxn): void {
    this.out.stdout.write(formatTxnIndexEntry(e, this.cfg.variant.txnIndexVersion) + '\n')
  }
  partitionFile(_f: DumpedFile, c: PartitionFileContent): void {
    // written in pieces of about 64 KiB: a checkpoint of millions of lines is never one string
    let piece = ''
    for (const l of partitionFileLines(c)) {
      piece += l + '\n'
      if (piece.length >= 65536) {
        this.out.stdout.write(piece)
        piece = ''
      }
    }
    if (piece !== '') this.out.stdout.write(piece)
  }
  snapshotEntry(_f: DumpedFile, e: ProducerSnapshotEntry): void {
    this.out.stdout.write(formatSnapshotEntry(e, !this.compat || this.cfg.variant.snapshotLineTrailingSpace) + '\n')
  }
  sanityPassed(f: DumpedFile): void {
    this.out.stdout.write(`${f.path} passed sanity check.\n`)
  }

  finding(f: Finding, _where: unknown, part: FindingPart): void {
    if (part !== 'object') this.lines.write(f)
  }

  findingsEnd(): void {
    this.lines.drain()
  }

  end(d: DumpDiagnostics): void {
    if (this.compat) writeKafkaDiagnostics(this.out.stderr, d, this.cfg.variant)
    else writeNonConsecutive(this.out.stderr, d)
  }
}
