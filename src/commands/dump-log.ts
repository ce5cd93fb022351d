// Dump of one .log or KRaft .checkpoint file: batch lines, record lines in deep mode, findings, summary.
import * as path from 'node:path'
import type { Chalk } from 'chalk'
import type { CliContext } from '../cli/context.js'
import type { BatchHeader } from '../decode/batch-header.js'
import { DecodeError } from '../decode/errors.js'
import type { LegacyFrame, V2Batch } from '../decode/log-reader.js'
import { decodeControlRecord, readLog } from '../decode/log-reader.js'
import { decodeRecords } from '../decode/records.js'
import { decodeLegacyEntry, decodeLegacyRecords } from '../decode/legacy.js'
import type { KafkaFile } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import type { SegmentSource } from '../io/segment-source.js'
import { STDIN_PATH, StdinSource } from '../io/stdin-source.js'
import { formatBatchLine, formatControlSuffix, formatLegacyBatchLine } from '../format/dump-text.js'
import { batchJson, legacyBatchJson, recordJson, legacyRecordJson } from '../format/dump-json.js'
import { toJson } from '../format/json-int64.js'
import type { PayloadParserFn } from '../format/payload-parsers.js'
import type { DumpOptions } from './dump-options.js'
import type { FindingLog } from './findings.js'
import { Progress } from './progress.js'
import { MAX_BATCH_LINE, writeBatchLine } from '../format/batch-line-ascii.js'
import { K_KEY, K_PAYLOAD, putString, putUtf8, recordMetadataSize, writeRecordMetadata } from '../format/record-line-ascii.js'
import { putBytes } from '../format/ascii.js'
import type { KafkaRecord } from '../decode/records.js'
import { ATTRIBUTES_OFFSET, COMPRESSION_CODEC_MASK, CONTROL_FLAG_MASK, LOG_OVERHEAD, RECORD_BATCH_OVERHEAD, RECORDS_COUNT_OFFSET, SIZE_OFFSET } from '../decode/layout.js'
import { fastLinesSize, writeRecordLinesFast } from '../format/record-lines-fast.js'
import type { LogSummary } from './log-summary.js'
import { newSummary } from './log-summary.js'

export interface RunState {
  /** deep iteration: (prev, next) offset pairs per absolute path, printed to stderr at the end */
  nonConsecutive: Map<string, Array<[bigint, bigint]>>
}

interface Ctx {
  file: KafkaFile
  opts: DumpOptions
  cli: CliContext
  log: FindingLog
  chalk: InstanceType<typeof Chalk>
  parser: PayloadParserFn
  summary: LogSummary
  lastOffset: bigint | null
  pairs: Array<[bigint, bigint]>
  /** code@position of findings already reported: a control batch's first record is decoded by readLog and again in deep mode */
  reported: Set<string>
  /** keys and payloads print as UTF-8 text (the default decoders): copy bytes instead of making strings */
  rawStrings: boolean
}

export function headerLine (file: KafkaFile): string {
  if (file.kind === 'checkpoint') {
    if (file.name === 'bootstrap.checkpoint') return 'KRaft bootstrap snapshot'
    const m = /^(\d{20})-(\d{10})\.checkpoint$/.exec(file.name)
    if (m !== null) return `Snapshot end offset: ${BigInt(m[1]!)}, epoch: ${Number(m[2])}`
    return `Snapshot end offset: unknown (file name ${file.name} is not <offset>-<epoch>.checkpoint)`
  }
  return `Log starting offset: ${file.baseOffset ?? (file.path === STDIN_PATH ? 'unknown (standard input)' : 'unknown (file name is not a base offset)')}`
}

export function dumpLogFile (file: KafkaFile, opts: DumpOptions, cli: CliContext, log: FindingLog,
  chalk: InstanceType<typeof Chalk>, parser: PayloadParserFn, state: RunState): LogSummary {
  const out = cli.stdout
  const summary = newSummary(file.path)
  if (!opts.json) out.write(headerLine(file) + '\n')
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
  const ctx: Ctx = { file, opts, cli, log, chalk, parser, summary, lastOffset: null, pairs: [], reported: new Set(),
    rawStrings: opts.parser === 'default' && opts.keyDecoder === 'string' && opts.valueDecoder === 'string' && opts.fastPaths !== false }
  let validBytes = 0
  let tailBytes = 0
  try {
    const events = readLog(source, {
      verifyCrc: opts.verifyCrc,
      resync: opts.resync && !opts.compat,
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
          summary.trailingBytes += ev.length
          tailBytes += ev.length
          if (ev.reason === 'zeros') {
            log.add({ severity: opts.compat ? 'info' : 'info', code: 'ZERO_TAIL', file: file.path, position: ev.position,
              message: `${ev.length} zero bytes at the end (a preallocated or zero-filled tail, no data)` })
          } else if (ev.reason === 'truncated') {
            log.add({ severity: 'error', code: 'TRUNCATED_TAIL', file: file.path, position: ev.position,
              message: `the last batch is incomplete: it declares ${ev.declaredSize ?? '?'} bytes, only ${ev.length} remain` })
          } else {
            log.add({ severity: 'error', code: 'SHORT_TAIL', file: file.path, position: ev.position,
              message: `${ev.length} bytes at the end are too few for a batch header (17 bytes)` })
          }
          break
        case 'corrupt':
          summary.trailingBytes += ev.length
          summary.corruptRegions++
          log.add({ severity: 'error', code: ev.code, file: file.path, position: ev.position,
            message: `${ev.message}; ` + (ev.resyncPosition !== undefined
              ? `skipped ${ev.length} bytes, resumed at the next valid batch at position ${ev.resyncPosition}`
              : `${ev.length} bytes from here could not be read` +
                (file.path === STDIN_PATH && opts.resync && !opts.compat ? ' (standard input cannot be searched for the next valid batch: save it to a file to resynchronise)' : '')) })
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
  if (trailing > 0 && opts.maxBytes === undefined && !opts.json && !out.closed) {
    out.write(`Found ${trailing} invalid bytes at the end of ${file.name}\n`)
  }
  if (ctx.pairs.length > 0) state.nonConsecutive.set(path.resolve(file.path), ctx.pairs)
  return summary
}

function onBatch (b: V2Batch, c: Ctx): void {
  const { opts, summary, file } = c
  summary.add(b)
  for (const p of b.problems) reportDecodeError(p, c)
  const isControl = (b.bytes.readInt16BE(ATTRIBUTES_OFFSET) & CONTROL_FLAG_MASK) !== 0
  if (opts.controlOnly && !isControl) return
  if (!opts.json && (opts.compat || c.chalk.level === 0 || (!isControl && b.crcValid !== false))) {
    // the common line, written as bytes (format/batch-line-ascii.ts)
    const out = c.cli.stdout
    const suffix = isControl && !opts.compat && b.control !== null ? formatControlSuffix(b.control, false) : ''
    const at = out.reserve(MAX_BATCH_LINE + suffix.length * 3)
    let end = writeBatchLine(out.buffer, at, b.bytes, b.position, b.crcValid)
    if (suffix !== '') end = putString(out.buffer, end - 1, suffix + '\n') // before the newline
    out.commit(end)
    if (opts.deep) deepV2(b, c)
    return
  }
  const h = b.header
  if (opts.json) {
    c.cli.stdout.write(toJson(batchJson(file.path, h, b)) + '\n')
  } else {
    let line = formatBatchLine(h, b.crcValid)
    if (!opts.compat) {
      if (b.crcValid === false) line = line.replace(/isvalid: false$/, c.chalk.red('isvalid: false'))
      if (b.control !== null) line += colourControl(formatControlSuffix(b.control, false), b.control.type, c)
    }
    c.cli.stdout.write(line + '\n')
  }
  if (opts.deep) deepV2(b, c)
}

function colourControl (s: string, type: number, c: Ctx): string {
  if (type === 1) return c.chalk.green.bold(s)
  if (type === 0) return c.chalk.red.bold(s)
  return c.chalk.cyan(s)
}

function deepV2 (b: V2Batch, c: Ctx): void {
  const { opts, cli } = c
  if (!opts.json && c.rawStrings && b.complete && fastDeepEligible(b.bytes) && deepFast(b, c)) return
  const h = b.header
  let first = true
  try {
    for (const rec of decodeRecords(h, b.bytes, limits(opts))) {
      trackOffset(rec.offset, c)
      if (opts.json) {
        const control = h.isControl ? safeControl(rec, h, c) : undefined
        const parsed = opts.printData && !h.isControl ? c.parser(rec.key, rec.value, rec.offset) : undefined
        cli.stdout.write(toJson(recordJson(c.file.path, h, rec, opts, control, parsed)) + '\n')
        continue
      }
      if (!h.isControl) writeDataRecordLine(rec, h, c)
      else writeControlRecordLine(rec, h, b, first, c)
      first = false
    }
  } catch (e) {
    if (e instanceof DecodeError) reportDecodeError(e, c)
    else throw e
  }
}


// A data record's text line as bytes (format/record-line-ascii.ts); the same text as the string path.
function writeDataRecordLine (rec: KafkaRecord, h: BatchHeader, c: Ctx): void {
  const { opts } = c
  const out = c.cli.stdout
  let key: Buffer | string | undefined
  let payload: Buffer | string | undefined
  if (opts.printData) {
    if (c.rawStrings) {
      key = rec.key ?? undefined
      payload = rec.value ?? undefined
    } else {
      const p = c.parser(rec.key, rec.value, rec.offset)
      key = p.key
      payload = p.payload
    }
  }
  const need = recordMetadataSize(rec) + 32 + (key === undefined ? 0 : key.length * 3) + (payload === undefined ? 0 : payload.length * 3)
  let pos = out.reserve(need)
  const buf = out.buffer
  let pipe = true
  if (!opts.skipRecordMetadata) { pos = writeRecordMetadata(buf, pos, rec, h.timestampType === 'LogAppendTime'); pipe = false }
  if (key !== undefined) {
    if (pipe) { buf[pos++] = 124; pipe = false } // '|'
    buf[pos++] = 32
    pos = putBytes(buf, pos, K_KEY)
    pos = typeof key === 'string' ? putString(buf, pos, key) : putUtf8(buf, pos, key)
  }
  if (payload !== undefined) {
    pos = putBytes(buf, pos, K_PAYLOAD)
    pos = typeof payload === 'string' ? putString(buf, pos, payload) : putUtf8(buf, pos, payload)
  }
  buf[pos++] = 10
  out.commit(pos)
}

function fastDeepEligible (bytes: Buffer): boolean {
  const attributes = bytes.readInt16BE(ATTRIBUTES_OFFSET)
  return (attributes & (CONTROL_FLAG_MASK | COMPRESSION_CODEC_MASK)) === 0
}

// Record lines of an uncompressed data batch straight from its bytes (format/record-lines-fast.ts);
// false when that batch needs the general path (nothing was written then).
function deepFast (b: V2Batch, c: Ctx): boolean {
  const out = c.cli.stdout
  const count = b.bytes.readInt32BE(RECORDS_COUNT_OFFSET)
  // a corrupt count must not size the reservation (records take at least 7 bytes each)
  if (count < 0 || count > (b.bytes.length - RECORD_BATCH_OVERHEAD) / 7) return false
  const at = out.reserve(fastLinesSize(b.bytes, count))
  const r = writeRecordLinesFast(out.buffer, at, b.bytes, { printData: c.opts.printData, skipRecordMetadata: c.opts.skipRecordMetadata })
  if (r === null) return false
  out.commit(r.end)
  if (count > 0 && !c.opts.controlOnly) {
    // the batch's offsets are consecutive (checked); only the step into it can be a gap
    trackOffset(BigInt(r.firstOffset), c)
    c.lastOffset = BigInt(r.lastOffset)
  }
  return true
}

// A control record's line as bytes; the batch's first record was already decoded by readLog.
function writeControlRecordLine (rec: KafkaRecord, h: BatchHeader, b: V2Batch, first: boolean, c: Ctx): void {
  const out = c.cli.stdout
  let suffix = ''
  if (!c.opts.skipRecordMetadata) {
    const ci = first && b.control !== null ? b.control : safeControl(rec, h, c)
    if (ci !== undefined) {
      suffix = formatControlSuffix(ci, c.opts.compat)
      if (!c.opts.compat) suffix = colourControl(suffix, ci.type, c)
    }
  }
  let pos = out.reserve(recordMetadataSize(rec) + suffix.length * 3 + 2)
  const buf = out.buffer
  if (!c.opts.skipRecordMetadata) {
    pos = writeRecordMetadata(buf, pos, rec, h.timestampType === 'LogAppendTime')
    pos = putString(buf, pos, suffix)
  }
  buf[pos++] = 10
  out.commit(pos)
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
  const { opts, cli } = c
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
  if (opts.json) cli.stdout.write(toJson(legacyBatchJson(c.file.path, e)) + '\n')
  else cli.stdout.write(formatLegacyBatchLine(e) + '\n')
  if (!opts.deep) return
  try {
    let inner = 0
    for (const r of decodeLegacyRecords(e, limits(opts))) {
      // a compressed wrapper counts as its inner messages once they are known
      if (inner++ > 0) c.summary.records++
      trackOffset(r.offset, c)
      if (opts.json) {
        const parsed = opts.printData ? c.parser(r.key, r.value, r.offset) : undefined
        cli.stdout.write(toJson(legacyRecordJson(c.file.path, e, r, parsed)) + '\n')
        continue
      }
      let line = ''
      let prefix = '| '
      if (!opts.skipRecordMetadata) {
        // Kafka 3.9 prints a stray `}` after the crc of legacy records; --compat keeps it.
        line += `| offset: ${r.offset} ${e.timestampType}: ${r.timestamp} keySize: ${r.keySize} valueSize: ${r.valueSize}` +
          ` isValid: ${r.crcValid} crc: ${r.crc}${opts.compat ? '}' : ''}`
        prefix = ' '
      }
      if (opts.printData) {
        const p = c.parser(r.key, r.value, r.offset)
        if (p.key !== undefined) { line += `${prefix}key: ${p.key}`; prefix = ' ' }
        if (p.payload !== undefined) line += ` payload: ${p.payload}`
      }
      cli.stdout.write(line + '\n')
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

