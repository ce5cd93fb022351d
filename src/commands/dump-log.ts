// Dump of one .log or KRaft .checkpoint file: reads it (readLog, decodeRecords), counts it, reports
// findings, and emits batches and records to the run's printer (format/printer.ts DumpPrinter).
import * as path from 'node:path'
import type { CliContext } from './context.js'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { corruptFinding, tailFinding } from '../analysis/log-findings.js'
import type { LogSummary } from '../analysis/log-summary.js'
import { newSummary } from '../analysis/log-summary.js'
import type { BatchHeader } from '../decode/batch-header.js'
import { DecodeError } from '../decode/errors.js'
import { ATTRIBUTES_OFFSET, COMPRESSION_CODEC_MASK, CONTROL_FLAG_MASK, LOG_OVERHEAD, RECORDS_COUNT_OFFSET, SIZE_OFFSET } from '../decode/layout.js'
import type { LegacyEntry } from '../decode/legacy.js'
import { decodeLegacyEntry, decodeLegacyRecords } from '../decode/legacy.js'
import type { TailEvent } from '../decode/frame-scanner.js'
import type { LegacyFrame, V2Batch } from '../decode/log-reader.js'
import { decodeControlRecord, readLog } from '../decode/log-reader.js'
import { decodeRecords } from '../decode/records.js'
import type { DumpPrinter } from '../format/printer.js'
import type { KafkaFile } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { STDIN_PATH, StdinSource } from '../io/stdin-source.js'
import type { DumpOptions } from './dump-options.js'
import type { FindingLog } from './findings.js'
import { Progress } from './progress.js'

export interface RunState {
  /** deep iteration: (prev, next) offset pairs per absolute path, printed to stderr at the end */
  nonConsecutive: Map<string, Array<[bigint, bigint]>>
}

interface Ctx {
  file: KafkaFile
  opts: DumpOptions
  cli: CliContext
  log: FindingLog
  printer: DumpPrinter
  summary: LogSummary
  lastOffset: bigint | null
  pairs: Array<[bigint, bigint]>
  /** code@position of findings already reported: a control batch's first record is decoded by readLog and again in deep mode */
  reported: Set<string>
}

export function dumpLogFile (file: KafkaFile, opts: DumpOptions, cli: CliContext, log: FindingLog,
  printer: DumpPrinter, state: RunState): LogSummary {
  const out = cli.stdout
  const summary = newSummary(file.path)
  printer.logStart(file)
  if (file.baseOffset === null && file.kind === 'log' && file.path !== STDIN_PATH) {
    log.add({ severity: 'info', code: 'NAME_NOT_OFFSET', file: file.path, message: 'file name is not a base offset; read anyway' })
  }
  let source: SegmentSource
  try {
    source = file.path === STDIN_PATH ? new StdinSource() : new FileSource(file.path)
  } catch (e) {
    log.unusable(file.path, (e as Error).message)
    return summary
  }
  const progress = new Progress(cli, file.name, source.size, opts.progress)
  const ctx: Ctx = { file, opts, cli, log, printer, summary, lastOffset: null, pairs: [], reported: new Set() }
  let validBytes = 0
  let tailBytes = 0
  try {
    const events = readLog(source, {
      verifyCrc: opts.verifyCrc,
      resync: opts.resync && !opts.compat,
      // a shallow dump needs only the header and the CRC of a batch: one larger than the window is streamed
      ...(opts.deep ? {} : { streamLarge: opts.verifyCrc ? 'crc' as const : 'header' as const }),
      onProgress: (p) => progress.update(p),
      ...(opts.maxBytes !== undefined ? { maxBytes: opts.maxBytes } : {}),
      ...(opts.window !== undefined ? { window: opts.window } : {}),
      ...(opts.maxBatchBytes !== undefined ? { maxBatchBytes: opts.maxBatchBytes } : {}),
      ...(opts.maxDecompressed !== undefined ? { maxDecompressed: opts.maxDecompressed } : {}),
    })
    for (const ev of events) {
      if (out.closed) break
      progress.batches++
      switch (ev.kind) {
        case 'batch': validBytes += ev.bytes.readInt32BE(SIZE_OFFSET) + LOG_OVERHEAD; onBatch(ev, ctx); break
        case 'legacy': validBytes += ev.sizeInBytes; onLegacy(ev, ctx); break
        case 'tail':
          // --max-bytes cut the view inside an entry: a read limit, not damage (kafka-dump-log is silent, exit 0)
          if (cutByLimit(ev, source, opts)) {
            if (!opts.compat) log.add(finding('READ_LIMIT', `--max-bytes ${opts.maxBytes}: the entry here continues past the limit and was not read`, { file: file.path, position: ev.position }))
            break
          }
          summary.trailingBytes += ev.length
          tailBytes += ev.length
          log.add(tailFinding(ev, file.path))
          break
        case 'corrupt':
          summary.trailingBytes += ev.length
          summary.corruptRegions++
          log.add(withStdinNote(corruptFinding(ev, file.path), file, ev.resyncPosition === undefined && opts.resync && !opts.compat))
          break
      }
    }
  } finally {
    progress.done()
    source.close()
    summary.materialise()
  }
  const viewSize = Math.min(source.size, opts.maxBytes ?? Number.MAX_SAFE_INTEGER)
  // Kafka's line counts every byte not in a batch; after a resync tsdump says only what is really at the
  // end (skipped regions in the middle were reported as findings with their positions).
  const trailing = opts.compat ? viewSize - validBytes : tailBytes
  if (trailing > 0 && opts.maxBytes === undefined && !out.closed) printer.trailingBytes(file, trailing)
  if (ctx.pairs.length > 0) state.nonConsecutive.set(path.resolve(file.path), ctx.pairs)
  return summary
}

function onBatch (b: V2Batch, c: Ctx): void {
  c.summary.add(b)
  for (const p of b.problems) reportDecodeError(p, c)
  const isControl = (b.bytes.readInt16BE(ATTRIBUTES_OFFSET) & CONTROL_FLAG_MASK) !== 0
  if (c.opts.controlOnly && !isControl) return
  c.printer.batch(b, c.file)
  if (c.opts.deep) deepV2(b, c)
}

function deepV2 (b: V2Batch, c: Ctx): void {
  if (fastDeepEligible(b.bytes) && deepFast(b, c)) return
  const h = b.header
  let first = true
  try {
    for (const rec of decodeRecords(h, b.bytes, limits(c.opts))) {
      trackOffset(rec.offset, c)
      c.printer.record(rec, b, c.file, first, () => safeControl(rec, h, c))
      first = false
    }
  } catch (e) {
    if (e instanceof DecodeError) reportDecodeError(e, c)
    else throw e
  }
}

function fastDeepEligible (bytes: Buffer): boolean {
  const attributes = bytes.readInt16BE(ATTRIBUTES_OFFSET)
  return (attributes & (CONTROL_FLAG_MASK | COMPRESSION_CODEC_MASK)) === 0
}

// Record lines of an uncompressed data batch straight from its bytes, when the printer has such a path;
// false when that batch needs the general path (nothing was written then).
function deepFast (b: V2Batch, c: Ctx): boolean {
  const r = c.printer.fastRecords(b)
  if (r === null) return false
  if (b.bytes.readInt32BE(RECORDS_COUNT_OFFSET) > 0 && !c.opts.controlOnly) {
    // the batch's offsets are consecutive (checked); only the step into it can be a gap
    trackOffset(BigInt(r.firstOffset), c)
    c.lastOffset = BigInt(r.lastOffset)
  }
  return true
}

function safeControl (rec: Parameters<typeof decodeControlRecord>[0], h: BatchHeader, c: Ctx): ReturnType<typeof decodeControlRecord> | undefined {
  try {
    return decodeControlRecord(rec, h)
  } catch (e) {
    if (e instanceof DecodeError) { reportDecodeError(e, c); return undefined }
    throw e
  }
}

function onLegacy (f: LegacyFrame, c: Ctx): void {
  const { opts } = c
  let e
  try {
    e = decodeLegacyEntry(f.bytes, f.position)
  } catch (err) {
    if (err instanceof DecodeError) { reportDecodeError(err, c); return }
    throw err
  }
  c.summary.addLegacy(e)
  if (!e.crcValid) {
    c.log.add({ severity: 'error', code: 'CRC_MISMATCH', file: c.file.path, position: f.position,
      message: `legacy message (offset ${e.offset}): crc stored ${e.crc} does not match its content` })
  }
  if (opts.controlOnly) return
  c.printer.legacyBatch(e, c.file)
  if (!opts.deep) { countWrapped(e, c); return }
  try {
    let inner = 0
    for (const r of decodeLegacyRecords(e, limits(opts))) {
      // a compressed wrapper counts as its inner messages once they are known
      if (inner++ > 0) c.summary.records++
      trackOffset(r.offset, c)
      c.printer.legacyRecord(e, r, c.file)
    }
  } catch (err) {
    if (err instanceof DecodeError) reportDecodeError(err, c)
    else throw err
  }
}

function trackOffset (offset: bigint, c: Ctx): void {
  if (c.opts.controlOnly) return // not every record is decoded, so gaps would be false
  if (c.lastOffset !== null && offset !== c.lastOffset + 1n) c.pairs.unshift([c.lastOffset, offset])
  c.lastOffset = offset
}

function limits (opts: DumpOptions): { maxDecompressed?: number } {
  return opts.maxDecompressed !== undefined ? { maxDecompressed: opts.maxDecompressed } : {}
}

function reportDecodeError (e: DecodeError, c: Ctx): void {
  const key = `${e.code}@${e.position}`
  if (c.reported.has(key)) return
  c.reported.add(key)
  // CRC failures are counted by summary.add/addLegacy from crcValid; counting here too doubled them.
  if (e.code === 'UNSUPPORTED_CODEC') c.summary.unsupported++
  c.log.add({ severity: 'error', code: e.code, file: c.file.path, position: e.position, message: e.message })
}


/** standard input cannot be searched ahead for the next valid batch: say so where a file would have resynchronised */
function withStdinNote (f: Finding, file: KafkaFile, couldResync: boolean): Finding {
  if (file.path !== STDIN_PATH || !couldResync) return f
  return { ...f, message: f.message + ' (standard input cannot be searched for the next valid batch: save it to a file to resynchronise)' }
}

/** the tail ends where --max-bytes ends the view, and the source goes on past it */
function cutByLimit (ev: TailEvent, source: SegmentSource, opts: DumpOptions): boolean {
  const limit = opts.maxBytes
  return limit !== undefined && ev.position + ev.length >= limit && source.size > limit
}

/**
 * A shallow dump of a compressed legacy wrapper still counts its logical records (the messages inside), as
 * the deep dump does; kafka-dump-log prints no count. A wrapper that does not decode counts as one; the deep
 * dump is where its problem is reported.
 */
function countWrapped (e: LegacyEntry, c: Ctx): void {
  if (e.compression === 0) return
  try {
    let inner = 0
    for (const _r of decodeLegacyRecords(e, limits(c.opts))) inner++
    if (inner > 1) c.summary.records += inner - 1
  } catch (err) {
    if (!(err instanceof DecodeError)) throw err
  }
}
