// The entries of one range of a .log or KRaft .checkpoint file dumped: read (readLog, decodeRecords),
// counted, findings reported, batches and records emitted to the run's printer (format/printer.ts
// DumpPrinter). A range is the whole file (dump-log.ts) or a worker's share of it
// (commands/workers/dump-pool.ts). The entry loop and its handlers (v2 batches, deep records, legacy
// entries, tails, filters) share one per-range context (Ctx, dump-ctx.ts); legacy entries are dump-legacy.ts's.
import type { Finding } from '../../analysis/findings.js'
import { finding } from '../../analysis/findings.js'
import { OffsetPairs } from '../../analysis/offset-pairs.js'
import { corruptFinding, decodeFinding, tailFinding } from '../../analysis/log-findings.js'
import type { LogSummary } from '../../analysis/log-summary.js'
import type { RangeFilter } from '../../analysis/range-filter.js'
import type { BatchHeader } from '../../decode/batch-header.js'
import { DecodeError } from '../../decode/errors.js'
import {
  COMPRESSION_CODEC_MASK,
  CONTROL_FLAG_MASK,
  HEADER_SIZE_UP_TO_MAGIC,
  LOG_OVERHEAD,
  MAGIC_OFFSET,
  OFFSET_OFFSET,
  RECORD_BATCH_OVERHEAD,
  SIZE_OFFSET,
} from '../../decode/layout.js'
import { frameProblem } from '../../decode/frame-rule.js'
import { BatchView } from '../../decode/batch-view.js'
import type { BatchPositions } from './batch-positions.js'
import type { EpochRuns } from './epoch-runs.js'
import type { TimeIndexStamps } from './time-stamps.js'
import type { CorruptEvent, TailEvent } from '../../decode/frame.js'
import type { V2Batch } from '../../decode/log-reader.js'
import type { ReadOptions } from '../../decode/log-reader.js'
import { decodeControlRecord, readFrame } from '../../decode/log-reader.js'
import type { KafkaRecord } from '../../decode/records.js'
import { batchRecords } from '../../decode/streamed-batch.js'
import { DEFAULT_WINDOW, FrameScanner } from '../../decode/frame-scanner.js'
import { BatchCopy } from '../../io/batch-copy.js'
import type { DumpPrinter } from '../../format/printer.js'
import type { KafkaFile } from '../../io/discover.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { Writer } from '../../format/writer.js'
import { STDIN_PATH } from '../../io/stdin-source.js'
import type { DumpOptions } from './dump-options.js'
import type { FindingLog } from './finding-log.js'
import { Progress } from './progress.js'
import type { Ctx } from './dump-ctx.js'
import { limits, reportDecodeError, trackOffset } from './dump-ctx.js'
import { onLegacy } from './dump-legacy.js'

/** the header of the entry at hand, read in place */
const view = new BatchView()

/** tsdump's own text lists the newest 10,000 offset gaps of a file and counts the rest (--compat lists all, as Kafka does) */
export const LISTED_GAPS = 10_000

/** the list of offset gaps of one file (or range) */
export function newGapList(opts: DumpOptions): OffsetPairs {
  return new OffsetPairs(opts.compat ? undefined : LISTED_GAPS)
}

/** [from, end) of a log file: whole entries from `from`; `end` is where the scan stops (--max-bytes, or a worker's share) */
export interface LogRange {
  from: number
  end: number
  /** --start-offset, --from-time ...: only batches (and records) in range are counted and printed; reading stops past it */
  filter?: RangeFilter
  /** --isolation-level: told about every batch in order; only those it returns true for are counted and printed */
  visible?: (b: V2Batch) => boolean | bigint
  /** the bytes from `from` read already (the seek check's, commands/dump/seek.ts): the scan starts in them */
  held?: Buffer
  /** told each v2 batch framed (its .index and .timeindex are verified from them after) */
  seen?: BatchPositions
  /** told each v2 batch's leader epoch (the partition's leader-epoch-checkpoint is checked from them after) */
  epochs?: EpochRuns
  /** told each v2 batch framed: the record timestamps the segment's .timeindex check needs are taken from them */
  stamps?: TimeIndexStamps
  /**
   * a tap on the frames as they are read from `from` (--transactional-id's producer ids from a coordinator partition
   * dumped); its drain() is called when the dump stops, to read the scanner on to its end for the tap alone
   */
  frames?: (
    frames: Pick<FrameScanner, 'next'>,
    src: SegmentSource,
    file: KafkaFile,
    from: number,
  ) => Pick<FrameScanner, 'next'> & { drain(): void }
}

/** What a run of entries adds to its file's totals besides the summary (commands/workers/dump-pool.ts merges them in order). */
export interface RangeTotals {
  validBytes: number
  tailBytes: number
  /** deep iteration: offset gaps inside the range */
  pairs: OffsetPairs
  /** first and last record offsets tracked for gaps (a gap can sit across a range boundary) */
  firstTracked: bigint | null
  lastTracked: bigint | null
  /** only whole entries, no tail or damage: the next range starts exactly at `end` */
  clean: boolean
}

/** where the dump of a file of `size` bytes stops */
export function viewEnd(size: number, opts: DumpOptions): number {
  return Math.min(size, opts.maxBytes ?? Number.MAX_SAFE_INTEGER)
}

/**
 * The read window of the files a run dumps one after another, lent to each in turn. A window per file, let go at
 * its end, waited for a full collection, which a dump's small heap seldom needs: scale-100000's 58 partitions held
 * 48 MiB of old windows at the end (process.memoryUsage().arrayBuffers), 8 MiB per 12 MB __transaction_state file.
 */
let spareWindow: Buffer | undefined

/** the run's window let go (at the end of a dump: a library caller does not keep it) */
export function releaseDumpWindow(): void {
  spareWindow = undefined
}

/** Dump the entries of [range.from, range.end), counting into `summary`; in `windowBuffer`, else in the run's window. */
export function dumpLogRange(
  source: SegmentSource,
  file: KafkaFile,
  opts: DumpOptions,
  out: Writer,
  log: FindingLog,
  printer: DumpPrinter,
  summary: LogSummary,
  range: LogRange,
  progress?: Progress,
  windowBuffer?: Buffer,
): RangeTotals {
  // a deep dump keeps the bytes of a batch larger than the window as its CRC streams past, for its records
  const copy = opts.deep && opts.verifyCrc && source.seekable !== false ? new BatchCopy(source) : undefined
  const window = windowBuffer ?? borrowWindow(opts)
  try {
    return dumpRange(copy ?? source, file, opts, out, log, printer, summary, range, progress, window)
  } finally {
    if (windowBuffer === undefined) spareWindow = window
    copy?.close()
  }
}

/** the run's window, or a new one when there is none of the size (or a range dumped inside another's has it) */
function borrowWindow(opts: DumpOptions): Buffer {
  const size = Math.max(RECORD_BATCH_OVERHEAD, opts.window ?? DEFAULT_WINDOW)
  const lent = spareWindow !== undefined && spareWindow.length >= size ? spareWindow : undefined
  spareWindow = undefined
  // allocated untouched: a small file's read fills only its size of it
  return lent ?? Buffer.allocUnsafeSlow(size)
}

function dumpRange(
  source: SegmentSource,
  file: KafkaFile,
  opts: DumpOptions,
  out: Writer,
  log: FindingLog,
  printer: DumpPrinter,
  summary: LogSummary,
  range: LogRange,
  progress: Progress | undefined,
  windowBuffer: Buffer,
): RangeTotals {
  const ctx: Ctx = {
    file,
    opts,
    log,
    printer,
    summary,
    lastOffset: null,
    firstTracked: null,
    pairs: newGapList(opts),
    reported: { codes: [], positions: [] },
    range: range.filter,
    visible: range.visible,
    receivedFrom: null,
    source,
    seen: range.seen,
    epochs: range.epochs,
    stamps: range.stamps,
  }
  const t: RangeTotals = {
    validBytes: 0,
    tailBytes: 0,
    pairs: ctx.pairs,
    firstTracked: null,
    lastTracked: null,
    clean: true,
  }
  const readOpts: ReadOptions = {
    verifyCrc: opts.verifyCrc,
    resync: opts.resync && !opts.compat,
    from: range.from,
    maxBytes: range.end,
    // a shallow dump needs only the header and the CRC of a batch: one larger than the window is streamed;
    // a deep one then reads its records from what the CRC pass kept (a BatchCopy source: onStreamed below); on
    // standard input, which is not streamed here, such a batch is held whole
    ...(opts.deep && source.seekable === false
      ? {}
      : { streamLarge: opts.verifyCrc ? ('crc' as const) : ('header' as const) }),
    ...(progress !== undefined ? { onProgress: (p: number) => progress.update(p) } : {}),
    ...(opts.window !== undefined ? { window: opts.window } : {}),
    windowBuffer,
    ...(source instanceof BatchCopy ? { onStreamed: source.pass } : {}),
    ...(range.held !== undefined ? { held: range.held } : {}),
    ...(opts.maxBatchBytes !== undefined ? { maxBatchBytes: opts.maxBatchBytes } : {}),
    ...(opts.maxDecompressed !== undefined ? { maxDecompressed: opts.maxDecompressed } : {}),
  }
  // readLog's loop without its two generators (readLog's and scanFrames'): their resumption per batch was
  // a measurable share of a shallow dump of small batches
  const scanner = new FrameScanner(source, readOpts)
  const tapped = range.frames?.(scanner, source, file, range.from)
  const frames = tapped ?? scanner
  for (let next = frames.next(); next !== undefined; next = frames.next()) {
    const ev = next.kind === 'frame' ? readFrame(next, readOpts) : next
    if (out.closed) break
    if (progress !== undefined) progress.batches++
    switch (ev.kind) {
      case 'batch':
        t.validBytes += view.of(ev.bytes, ev.position).sizeInBytes
        onBatch(ev, ctx)
        break
      case 'legacy':
        t.validBytes += ev.sizeInBytes
        onLegacy(ev, ctx)
        break
      case 'tail':
        t.clean = false
        // --max-bytes cut the view inside an entry: a read limit, not damage (kafka-dump-log is silent, exit 0)
        if (cutByLimit(ev, source, opts)) {
          if (!opts.compat)
            log.add(
              finding(
                'READ_LIMIT',
                `--max-bytes ${opts.maxBytes}: the entry here continues past the limit and was not read`,
                { file: file.path, position: ev.position },
              ),
            )
          break
        }
        summary.trailingBytes += ev.length
        t.tailBytes += ev.length
        ctx.seen?.damaged(ev, true, scanner)
        ctx.epochs?.damage(file.path)
        log.add(tailFinding(ev, file.path, file.remote !== undefined))
        break
      case 'corrupt':
        t.clean = false
        // only what follows the last batch is trailing; a region reading resumed after lies between batches
        if (ev.resyncPosition === undefined) summary.trailingBytes += ev.length
        else summary.damagedBytes += ev.length
        summary.corruptRegions++
        ctx.seen?.grown(ev, scanner, source.size)
        ctx.seen?.damaged(ev, unframed(ev, scanner, source), scanner)
        ctx.epochs?.damage(file.path, ev)
        log.add(
          withStdinNote(
            corruptFinding(ev, file.path),
            file,
            ev.resyncPosition === undefined && opts.resync && !opts.compat,
          ),
        )
        break
    }
    if (ctx.range?.done === true) break
  }
  tapped?.drain()
  t.firstTracked = ctx.firstTracked
  t.lastTracked = ctx.lastOffset
  return t
}

function onBatch(b: V2Batch, c: Ctx): void {
  if (c.reported.codes.length > 0) {
    c.reported.codes.length = 0
    c.reported.positions.length = 0
  }
  if (c.seen !== undefined) {
    const v = view.of(b.bytes, b.position)
    c.seen.add(b.position, v.sizeInBytes, v.int64(OFFSET_OFFSET), v.lastOffsetDelta)
  }
  c.stamps?.batch(b, c.opts)
  if (c.epochs !== undefined) {
    const v = view.of(b.bytes, b.position)
    c.epochs.batch(v.int64(OFFSET_OFFSET), v.partitionLeaderEpoch, c.file.path, b.position)
  }
  if (c.visible !== undefined) {
    const v = c.visible(b)
    if (v === false) return
    c.receivedFrom = typeof v === 'bigint' ? v : null
  }
  if (c.range !== undefined && c.range.batch(b.header) !== 'in') return
  c.summary.add(b)
  for (const p of b.problems) reportDecodeError(p, c)
  if (c.opts.controlOnly && !view.of(b.bytes, b.position).isControl) return
  c.printer.batch(b, c.file)
  if (c.opts.deep) deepV2(b, c)
}

function deepV2(b: V2Batch, c: Ctx): void {
  if (c.range?.partial !== true && c.receivedFrom === null && fastDeepEligible(b) && deepFast(b, c)) return
  const h = b.header
  let first = true
  try {
    for (const rec of batchRecords(h, b.bytes, b.complete, c.source, {
      window: c.opts.window ?? DEFAULT_WINDOW,
      ...limits(c.opts),
    })) {
      if (
        (c.range !== undefined && !c.range.record(rec.offset, rec.timestamp)) ||
        (c.receivedFrom !== null && rec.offset < c.receivedFrom)
      ) {
        first = false
        continue
      }
      trackOffset(rec.offset, c)
      if (rec.valuePieces !== undefined && c.printer.wholeValues) notDecoded(rec, c)
      c.printer.record(rec, b, c.file, first, () => safeControl(rec, h, c))
      first = false
    }
  } catch (e) {
    if (e instanceof DecodeError) reportDecodeError(e, c)
    else throw e
  }
}

// a value too large to hold (decode/streamed-records.ts) that the payload decoder would need whole
function notDecoded(rec: KafkaRecord, c: Ctx): void {
  c.log.add(
    finding(
      'VALUE_NOT_DECODED',
      `offset ${rec.offset}: the value of ${rec.valueSize ?? -1} bytes is larger than the read window ` +
        `(${c.opts.window ?? DEFAULT_WINDOW} bytes) and the payload decoder needs it whole: not decoded (a larger --window decodes it)`,
      { file: c.file.path, position: rec.filePosition },
    ),
  )
}

function fastDeepEligible(b: V2Batch): boolean {
  return (view.of(b.bytes, b.position).attributes & (CONTROL_FLAG_MASK | COMPRESSION_CODEC_MASK)) === 0
}

// Record lines of an uncompressed data batch straight from its bytes, when the printer has such a path;
// false when that batch needs the general path (nothing was written then).
function deepFast(b: V2Batch, c: Ctx): boolean {
  const r = c.printer.fastRecords(b)
  if (r === null) return false
  if (view.of(b.bytes, b.position).recordsCount > 0 && !c.opts.controlOnly) {
    // the batch's offsets are consecutive (checked); only the step into it can be a gap
    trackOffset(BigInt(r.firstOffset), c)
    c.lastOffset = BigInt(r.lastOffset)
  }
  return true
}

function safeControl(
  rec: Parameters<typeof decodeControlRecord>[0],
  h: BatchHeader,
  c: Ctx,
): ReturnType<typeof decodeControlRecord> | undefined {
  try {
    return decodeControlRecord(rec, h)
  } catch (e) {
    if (e instanceof DecodeError) {
      reportDecodeError(e, c)
      return undefined
    }
    throw e
  }
}

/** standard input cannot be searched ahead for the next valid batch: say so where a file would have resynchronised */
function withStdinNote(f: Finding, file: KafkaFile, couldResync: boolean): Finding {
  if (file.path !== STDIN_PATH || !couldResync) return f
  return {
    ...f,
    message:
      f.message + ' (standard input cannot be searched for the next valid batch: save it to a file to resynchronise)',
  }
}

/**
 * Whether no entry can be framed at the damage's first byte by any size limit (the header the framer read there, if
 * its window still holds it): the index checks then take the damage as the answer of framing there (dump-index.ts).
 */
function unframed(ev: CorruptEvent, scanner: FrameScanner, source: SegmentSource): boolean {
  const h = scanner.windowed(ev.position, ev.position + HEADER_SIZE_UP_TO_MAGIC)
  if (h.length < HEADER_SIZE_UP_TO_MAGIC) return false
  const size = h.readInt32BE(SIZE_OFFSET)
  const total = LOG_OVERHEAD + size
  return (
    frameProblem(size, h.readInt8(MAGIC_OFFSET), total, Number.MAX_SAFE_INTEGER) !== undefined ||
    total > source.size - ev.position
  )
}

/** the tail ends where --max-bytes ends the view, and the source goes on past it */
function cutByLimit(ev: TailEvent, source: SegmentSource, opts: DumpOptions): boolean {
  const limit = opts.maxBytes
  return limit !== undefined && ev.position + ev.length >= limit && source.size > limit
}
