// --start-offset/--end-offset, --from-time/--to-time, --producer-id, --transactional-id: the same options,
// help and checks for dump, txns and reconcile. What they mean is analysis/range-filter.ts.
import { Option } from 'commander'
import type { Command } from 'commander'
import type { RangeSpec } from '../analysis/range-filter.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import { parseOffset, parseProducerId } from './options.js'
import type { RawFilterFlags } from './options.js'
import { parseInstant } from './time-option.js'

export const FILTER_HELP = `
Filters (offsets inclusive, as tsdump and kafka-dump-log print ranges; times: ISO-8601 with a
zone, a date, or epoch ms):
  --start-offset 7 --end-offset 15  batches holding any of offsets 7..15
  --from-time T --to-time U         from the first batch with maxTimestamp >= T (where Kafka's
                                    ListOffsets(T) lands) to the first later batch with
                                    maxTimestamp > U, kept when its first timestamp is <= U;
                                    reading stops there (a later, older batch is not looked for)
  --producer-id 1                   that producer's batches, its COMMIT/ABORT markers included
  --transactional-id tx-rw-1        its producer ids, from __transaction_state records among the
                                    paths or in their log directory (exit 2 when there are none)`

/** FILTER_HELP for a command that spans partitions, where an offset range means nothing (no --start/--end-offset) */
export const FILTER_HELP_NO_OFFSETS = FILTER_HELP.replace(/\n {2}--start-offset [^\n]*/, '')

/** the filter options; `offsets: false` hides --start-offset/--end-offset (a command over many partitions refuses them) */
export function addFilterOptions(cmd: Command, what: string, { offsets = true } = {}): Command {
  // without offsets they are still parsed, hidden from the help, so that the command can say why it refuses them
  cmd
    .addOption(
      new Option('--start-offset <offset>', `${what} from this offset (inclusive)`)
        .argParser(parseOffset)
        .hideHelp(!offsets),
    )
    .addOption(
      new Option('--end-offset <offset>', `${what} up to this offset (inclusive)`)
        .argParser(parseOffset)
        .hideHelp(!offsets),
    )
  return cmd
    .option(
      '--from-time <time>',
      `${what} from the first batch with maxTimestamp >= this time (ISO-8601 with zone, or epoch ms)`,
      parseInstant,
    )
    .option('--to-time <time>', `${what} up to the first batch with maxTimestamp > this time`, parseInstant)
    .option('--producer-id <id>', `${what} of this producer only (its control batches included)`, parseProducerId)
    .addOption(
      new Option(
        '--transactional-id <id>',
        `${what} of this transactional id's producer ids (from __transaction_state)`,
      ).conflicts('producerId'),
    )
}

/**
 * The filter of the flags (undefined: none given), --transactional-id resolved (unless `resolveId` is false: the
 * command resolves it from its broker model's read, with asUsageError around it); a usage error (exit 2) when the
 * bounds are crossed or the id is not found.
 */
export async function filterFromFlags(
  f: RawFilterFlags,
  paths: readonly string[],
  cmd: Command,
  { resolveId = true } = {},
): Promise<RangeSpec | undefined> {
  const fail = (message: string): never => usageError(cmd, message)
  if (f.startOffset !== undefined && f.endOffset !== undefined && f.startOffset > f.endOffset)
    fail(`--start-offset ${f.startOffset} is after --end-offset ${f.endOffset}`)
  if (f.fromTime !== undefined && f.toTime !== undefined && f.fromTime > f.toTime)
    fail('--from-time is after --to-time')
  const s: RangeSpec = {}
  if (f.startOffset !== undefined) s.startOffset = f.startOffset
  if (f.endOffset !== undefined) s.endOffset = f.endOffset
  if (f.fromTime !== undefined) s.fromTime = f.fromTime
  if (f.toTime !== undefined) s.toTime = f.toTime
  if (f.producerId !== undefined) s.producerIds = [f.producerId]
  if (f.transactionalId !== undefined) s.transactionalId = f.transactionalId
  if (Object.keys(s).length === 0) return undefined
  if (!resolveId) return s
  // resolved as the library resolves it (scan/filter-resolve.ts), its TsdumpError a usage error here
  try {
    return (await import('../scan/filter-resolve.js')).resolveFilter(s, paths)
  } catch (e) {
    if (e instanceof TsdumpError) return fail(e.message)
    throw e
  }
}

function usageError(cmd: Command, message: string): never {
  return cmd.error(`error: ${message}`, { exitCode: 2, code: 'tsdump.filter' })
}

/** `run`, whose TsdumpError (a transactional id with no record) is the usage error filterFromFlags would have given */
export async function asUsageError<T>(cmd: Command, run: () => Promise<T> | T): Promise<T> {
  try {
    return await run()
  } catch (e) {
    if (e instanceof TsdumpError) return usageError(cmd, e.message)
    throw e
  }
}
