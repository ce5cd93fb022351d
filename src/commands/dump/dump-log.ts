// Dump of one .log or KRaft .checkpoint file: its first line, the file (or standard input) opened, its
// entries dumped as one range here (dump-range.ts) or by worker threads (commands/workers/dump-pool.ts, a
// LogBody), then kafka-dump-log's trailing-bytes line and the file's offset gaps for the end of the run.
import * as path from 'node:path'
import type { LogSummary } from '../../analysis/log-summary.js'
import { newSummary } from '../../analysis/log-summary.js'
import type { OffsetPairs } from '../../analysis/offset-pairs.js'
import { offsetPairsOf } from '../../analysis/offset-pairs.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { TextVariant } from '../../format/kafka-versions.js'
import { textVariant } from '../../format/kafka-versions.js'
import type { DumpPrinter } from '../../format/printer.js'
import type { Writer } from '../../format/writer.js'
import type { KafkaFile } from '../../io/discover.js'
import { openKafkaFile } from '../../io/remote/open.js'
import { InputError } from '../../io/input-error.js'
import { STDIN_PATH, StdinSource } from '../../io/stdin-source.js'
import type { CommandContext } from '../context.js'
import type { DumpOptions } from './dump-options.js'
import type { RangeTotals } from './dump-range.js'
import { dumpLogRange, viewEnd } from './dump-range.js'
import type { FindingLog } from './finding-log.js'
import { Progress } from './progress.js'

import type { BatchPositions } from './batch-positions.js'
import type { EpochRuns } from './epoch-runs.js'
import type { TimeIndexStamps } from './time-stamps.js'

export interface RunState {
  /** deep iteration: (prev, next) offset pairs per absolute path, printed to stderr at the end */
  nonConsecutive: Map<string, OffsetPairs>
  /** the batches of the .log being dumped, for its .index and .timeindex after it (dump-index.ts verifies from them) */
  seen?: BatchPositions | undefined
  /** the leader epochs of the partition's batches so far, for its leader-epoch-checkpoint after its segments */
  epochs?: EpochRuns | undefined
  /** the segment's .timeindex, read before its .log, and the record timestamps its check needs (time-stamps.ts) */
  stamps?: TimeIndexStamps | undefined
  /** a segment's source once opened, as the dump reads it (--isolation-level: the bytes its partition's scan read) */
  source?: ((file: KafkaFile, opened: SegmentSource) => SegmentSource) | undefined
}

/** How a file's entries are dumped once it is open: one scan here, or worker threads (commands/workers/dump-pool.ts). */
export type LogBody = (
  source: SegmentSource,
  summary: LogSummary,
  progress: Progress,
) => RangeTotals | Promise<RangeTotals>

export async function dumpLogFile(
  file: KafkaFile,
  opts: DumpOptions,
  cli: CommandContext,
  log: FindingLog,
  printer: DumpPrinter,
  state: RunState,
  body?: LogBody,
): Promise<LogSummary> {
  const summary = newSummary(file.path)
  const source = startLog(file, log, printer, state.source)
  if (source === undefined) return summary
  const progress = new Progress(cli, file.name, source.size, opts.progress)
  let totals: RangeTotals
  try {
    totals =
      body !== undefined
        ? await body(source, summary, progress)
        : dumpLogRange(
            source,
            file,
            opts,
            cli.stdout,
            log,
            printer,
            summary,
            {
              from: 0,
              end: viewEnd(source.size, opts),
              ...(state.seen !== undefined ? { seen: state.seen } : {}),
              ...(state.epochs !== undefined ? { epochs: state.epochs } : {}),
              ...(state.stamps !== undefined ? { stamps: state.stamps } : {}),
            },
            progress,
          )
  } finally {
    progress.done()
    source.close()
    summary.materialise()
  }
  // the epochs were told every batch Kafka's reader reads only when this scan read the whole segment (epoch-runs.ts)
  if (body !== undefined || opts.maxBytes !== undefined) state.epochs?.invalidate()
  else state.epochs?.segmentDone(file.path)
  finishLog(file, opts, source.size, totals, printer, cli.stdout, state)
  return summary
}

/** The file's first line and name check, then the file (or standard input, `-`) opened for reading (undefined: reported unreadable). */
function startLog(
  file: KafkaFile,
  log: FindingLog,
  printer: DumpPrinter,
  through: RunState['source'],
): SegmentSource | undefined {
  printer.logStart(file)
  if (file.baseOffset === null && file.kind === 'log' && file.path !== STDIN_PATH) {
    log.add({
      severity: 'info',
      code: 'NAME_NOT_OFFSET',
      file: file.path,
      position: 0,
      message: 'file name is not a base offset; read anyway',
    })
  }
  try {
    if (file.path === STDIN_PATH) return new StdinSource()
    const opened = openKafkaFile(file)
    return through === undefined ? opened : through(file, opened)
  } catch (e) {
    if (e instanceof InputError) log.unusable(file.path, e.message, e.code, e.position)
    else log.unusable(file.path, (e as Error).message)
    return undefined
  }
}

/** After the last entry: kafka-dump-log's trailing-bytes line, the file's offset gaps into the run state. */
function finishLog(
  file: KafkaFile,
  opts: DumpOptions,
  size: number,
  t: RangeTotals,
  printer: DumpPrinter,
  out: Writer,
  state: RunState,
): void {
  // Kafka's line counts every byte not in a batch; after a resync tsdump says only what is really at the
  // end (skipped regions in the middle were reported as findings with their positions).
  const trailing = opts.compat && opts.filter === undefined ? viewEnd(size, opts) - t.validBytes : t.tailBytes
  if (trailing > 0 && opts.maxBytes === undefined && !out.closed) printer.trailingBytes(file, trailing)
  const pairs = opts.compat ? kafkaPairs(t, textVariant(opts.kafkaVersion), opts.filter === undefined) : t.pairs
  // --isolation-level leaves out the batches the consumer does not receive: the offsets it skips are not gaps in the log
  if (pairs.length > 0 && opts.isolationLevel === undefined) state.nonConsecutive.set(path.resolve(file.path), pairs)
}

/**
 * 4.3+ (TextVariant.nonConsecutiveFromMinusOne / nonConsecutiveOrder): Kafka starts from -1, so a file whose first
 * record is not offset 0 also reports `-1 is followed by N`, and lists the pairs ascending. Applied per file, after
 * the ranges of a --threads dump are merged; the default mode keeps the 3.9 rule (the -1 report is a false alarm).
 */
function kafkaPairs(
  t: RangeTotals,
  v: Pick<TextVariant, 'nonConsecutiveFromMinusOne' | 'nonConsecutiveOrder'>,
  wholeFile: boolean,
): OffsetPairs {
  // a filtered dump starts where the range does: Kafka's "-1 is followed by" would be a false gap there
  const minusOne = wholeFile && v.nonConsecutiveFromMinusOne && t.firstTracked !== null && t.firstTracked !== 0n
  if (!minusOne && v.nonConsecutiveOrder !== 'ascending') return t.pairs
  const list: Array<readonly [bigint, bigint]> = [...t.pairs] // newest first
  if (minusOne) list.push([-1n, t.firstTracked!])
  return offsetPairsOf(v.nonConsecutiveOrder === 'ascending' ? list.reverse() : list)
}
