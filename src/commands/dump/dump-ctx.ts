// The per-range context every handler of dump-range.ts's entry loop shares (v2 batches there, legacy entries in
// dump-legacy.ts), with the helpers they all use: offsets tracked for gaps, decode errors reported once per entry.
import { decodeFinding } from '../../analysis/log-findings.js'
import type { LogSummary } from '../../analysis/log-summary.js'
import type { OffsetPairs } from '../../analysis/offset-pairs.js'
import type { RangeFilter } from '../../analysis/range-filter.js'
import type { DecodeError } from '../../decode/errors.js'
import type { V2Batch } from '../../decode/log-reader.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { DumpPrinter } from '../../format/printer.js'
import type { KafkaFile } from '../../io/discover.js'
import type { BatchPositions } from './batch-positions.js'
import type { DumpOptions } from './dump-options.js'
import type { EpochRuns } from './epoch-runs.js'
import type { TimeIndexStamps } from './time-stamps.js'
import type { FindingLog } from './finding-log.js'

export interface Ctx {
  file: KafkaFile
  opts: DumpOptions
  log: FindingLog
  printer: DumpPrinter
  summary: LogSummary
  lastOffset: bigint | null
  firstTracked: bigint | null
  pairs: OffsetPairs
  /**
   * (code, position) of the findings already reported for the current entry: a control batch's first record
   * is decoded by readLog and again in deep mode. Emptied at each entry, so it never grows with the findings;
   * two arrays, not `code@position` strings: a number made a string per finding lands in V8's number-string
   * cache, which promotes it to the old space (1 M bad-CRC batches: +10 MiB peak RSS).
   */
  reported: { codes: string[]; positions: number[] }
  range: RangeFilter | undefined
  visible: ((b: V2Batch) => boolean | bigint) | undefined
  /** --isolation-level: the records of this batch below this offset are not received (the log start inside it) */
  receivedFrom: bigint | null
  /** deep iteration reads a batch larger than the window from here (decode/streamed-batch.ts) */
  source: SegmentSource
  seen: BatchPositions | undefined
  epochs: EpochRuns | undefined
  stamps: TimeIndexStamps | undefined
}

export function trackOffset(offset: bigint, c: Ctx): void {
  if (c.opts.controlOnly) return // not every record is decoded, so gaps would be false
  if (c.lastOffset !== null && offset !== c.lastOffset + 1n) c.pairs.push(c.lastOffset, offset)
  if (c.lastOffset === null) c.firstTracked = offset
  c.lastOffset = offset
}

export function limits(opts: DumpOptions): { maxDecompressed?: number } {
  return opts.maxDecompressed !== undefined ? { maxDecompressed: opts.maxDecompressed } : {}
}

export function reportDecodeError(e: DecodeError, c: Ctx): void {
  const r = c.reported
  for (let i = 0; i < r.codes.length; i++) if (r.codes[i] === e.code && r.positions[i] === e.position) return
  r.codes.push(e.code)
  r.positions.push(e.position)
  // CRC failures are counted by summary.add/addLegacy from crcValid; counting here too doubled them.
  if (e.code === 'UNSUPPORTED_CODEC') c.summary.unsupported++
  c.log.add(decodeFinding(e, c.file.path)) // the catalogue's severity (a zstd window Kafka refuses is a warning)
}
