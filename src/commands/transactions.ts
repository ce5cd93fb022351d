// `tsdump transactions`: every transaction as one unit across the partitions it wrote, its offset commits
// and its coordinator's records. scan/transactions-stream.ts reads them (each data partition's runs, each
// __consumer_offsets partition's offset commits, every __transaction_state partition among the paths or in
// their log directories) and joins them with analysis/transaction-join/ in bounded memory; the printers take
// the transactions one at a time.
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE } from '../analysis/findings.js'
import type { ForceTerminateAdvice } from '../analysis/broker-release.js'
import { forceTerminateAdvice } from '../analysis/broker-release.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { TransactionsResult } from '../analysis/transaction-join/types.js'
import type { TransactionsStream } from '../scan/transactions-stream.js'
import { streamTransactions } from '../scan/transactions-stream.js'
import { printTransactionsJson } from '../format/transactions-json.js'
import { printTransactionsText } from '../format/transactions-text.js'
import { resolvePartitions } from '../scan/partition-paths.js'
import { resolveFilter } from '../scan/filter-resolve.js'
import { readMetadataVersion } from '../scan/metadata-version.js'
import type { CommandContext } from './context.js'
import { selectsPartition } from './topic-partition-filter.js'
import type { TopicPartitionFilter } from './topic-partition-filter.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'
import type { RemoteInput } from '../io/remote/spec.js'

/** transactions()'s options (the library): what the command line gives, resolved */
export interface TransactionsLibraryOptions {
  /** --transactional-id / --producer-id / --from-time / --to-time */
  filter?: RangeSpec
  /** --remote-storage: remote segments read before the local ones */
  remote?: RemoteInput
  /** false: stop at framing damage as Kafka's reader does (--no-resync) */
  resync?: boolean
  /** epoch ms that ages are measured against (--now); default the clock */
  now?: number
  /** age in minutes above which an open transaction is hanging (analysis/hanging.ts; default 15) */
  maxTransactionTimeoutMinutes?: number
  /** --topic / --partition: the transactions that wrote to these partitions only */
  only?: TopicPartitionFilter
}

/** `tsdump transactions`' options: the library's, and how to print */
export interface TransactionsOptions extends TransactionsLibraryOptions {
  paths: string[]
  format?: 'text' | 'json'
  color?: boolean
  wide?: boolean
}

/** transactions()'s result: as every library function's, with the paths that could not be used (then nothing else is read) */
export type TransactionsLibraryResult = TransactionsResult & { unusable: Finding[] }

/**
 * The transactions under `paths`, joined; `unusable` holds the paths that cannot be used (then the rest is empty).
 * @throws TsdumpError NOT_FOUND for a filter's transactionalId with no record, USAGE for crossed bounds (scan/filter-resolve.ts)
 */
export function transactions(paths: string[], opts: TransactionsLibraryOptions = {}): TransactionsLibraryResult {
  const s = transactionsStream(paths, opts)
  if ('unusable' in s) {
    return {
      unusable: s.unusable,
      transactions: [],
      transactionalIds: [],
      stateLogs: [],
      lookedIn: [],
      exactlyOnce: [],
      idFamilies: [],
      findings: [],
      nowMs: opts.now ?? Date.now(),
      nowGiven: opts.now !== undefined,
      maxTransactionTimeoutMinutes: opts.maxTransactionTimeoutMinutes ?? 15,
    }
  }
  const { items, count: _count, producers: _producers, close: _close, ...rest } = s
  const all = [...items]
  return { ...rest, transactions: all, unusable: [] }
}

/**
 * The same as a sequence, in bounded memory (a hash join by producer id spilled to temp files under os.tmpdir()
 * when the input is large, then an external merge): `count` and `producers` are known at once, `items` gives the
 * transactions in order, and exactlyOnce, idFamilies and their findings are complete once `items` is done.
 */
export function transactionsStream(
  paths: string[],
  opts: TransactionsLibraryOptions = {},
  internals: { bucketBytes?: number; onSpill?: (dir: string) => void } = {},
): TransactionsStream | { unusable: Finding[] } {
  const { partitions, unusable, unreadable } = resolvePartitions(paths, opts.remote)
  if (unusable.length > 0) return { unusable }
  const only = opts.only
  // resolved as the command line resolves it: an id with no record is NOT_FOUND, never every record
  const filter = resolveFilter(opts.filter, paths)
  return streamTransactions({
    partitions,
    unreadable,
    paths,
    resync: opts.resync !== false,
    nowMs: opts.now ?? Date.now(),
    nowGiven: opts.now !== undefined,
    maxTransactionTimeoutMinutes: opts.maxTransactionTimeoutMinutes ?? 15,
    ...(filter !== undefined ? { filter } : {}),
    ...(only !== undefined
      ? { selects: (topic: string, partition: number) => selectsPartition(only, topic, partition) }
      : {}),
    ...internals,
  })
}

/** forceTerminateTransaction for an open transaction's id; the metadata log read once, at the first open one */
function endIt(paths: string[], remote: RemoteInput | undefined): (id: string) => ForceTerminateAdvice {
  let level: number | null | undefined
  return (id) => {
    level ??= readMetadataVersion(resolvePartitions(paths, remote).partitions)
    return forceTerminateAdvice(id, 'localhost:9092', level)
  }
}

export function runTransactions(opts: TransactionsOptions, ctx: CommandContext): number {
  const { paths, format: _format, color: _color, wide: _wide, ...lib } = opts
  const s = transactionsStream(paths, { ...lib, now: opts.now ?? ctx.now() })
  if ('unusable' in s) {
    writeUnusable(s.unusable, ctx)
    return EXIT_USAGE
  }
  s.nowGiven = opts.now !== undefined
  // each transaction's findings counted as it passes to the printer, not kept
  const seen: Finding[] = []
  const items = s.items
  const counted = {
    ...s,
    items: (function* () {
      for (const t of items) {
        for (const f of t.findings) if (!seen.some((x) => x.code === f.code && x.severity === f.severity)) seen.push(f)
        yield t
      }
    })(),
  }
  try {
    if (opts.format === 'json') printTransactionsJson(counted, ctx.stdout)
    else
      printTransactionsText(counted, ctx, {
        colorLevel: opts.color === false ? 0 : ctx.colorLevel,
        wide: opts.wide === true,
        endIt: endIt(paths, lib.remote),
      })
  } finally {
    s.close()
  }
  return partitionExitCode([], s.findings.concat(seen))
}
