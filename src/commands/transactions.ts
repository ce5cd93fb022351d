// `tsdump transactions`: every transaction as one unit across the partitions it wrote, its offset commits
// and its coordinator's records. One broker model (scan/broker-model.ts) reads them in one pass, its hooks those of
// scan/transactions-collect.ts (each data partition's runs, each __consumer_offsets partition's offset commits,
// every __transaction_state partition among the paths or in their log directories), and scan/transactions-stream.ts
// joins them with analysis/transaction-join/ in bounded memory; the printers take the transactions one at a time.
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE } from '../analysis/findings.js'
import type { ForceTerminateAdvice } from '../analysis/broker-release.js'
import { forceTerminateAdvice } from '../analysis/broker-release.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { TransactionsResult } from '../analysis/transaction-join/types.js'
import type { JoinInput, TransactionsStream } from '../scan/transactions-stream.js'
import { streamTransactions } from '../scan/transactions-stream.js'
import type { Scanned } from '../scan/broker-model.js'
import { BrokerModel } from '../scan/broker-model.js'
import type { Collected, CollectOptions } from '../scan/transactions-collect.js'
import { TransactionsCollector } from '../scan/transactions-collect.js'
import { modelOptions } from './lso.js'
import { printTransactionsJson } from '../format/transactions-json.js'
import { printTransactionsText } from '../format/transactions-text.js'
import { checkFilterBounds, needsIdResolved, resolveFilterIn } from '../scan/filter-resolve.js'
import { metadataVersionOf } from '../scan/metadata-version.js'
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
  return 'unusable' in s ? unusableResult(s.unusable, opts) : collected(s)
}

/** the transactions of a stream, collected (its temp files removed) */
function collected(s: TransactionsStream): TransactionsLibraryResult {
  // the items first: what needs all of them (exactlyOnceNotChecked) is set once they are done
  const all = [...s.items]
  const { items: _items, count: _count, producers: _producers, close: _close, ...rest } = s
  return { ...rest, transactions: all, unusable: [] }
}

/** nothing read: the paths that cannot be used */
function unusableResult(unusable: Finding[], opts: TransactionsLibraryOptions): TransactionsLibraryResult {
  return {
    unusable,
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
  const r = modelStream(paths, opts, internals)
  return 'unusable' in r ? r : r.stream
}

/** transactionsStream with the broker model it read, for what the command line asks of it afterwards */
function modelStream(
  paths: string[],
  opts: TransactionsLibraryOptions,
  internals: { bucketBytes?: number; onSpill?: (dir: string) => void } = {},
): { stream: TransactionsStream; model: BrokerModel } | { unusable: Finding[] } {
  const model = transactionsModel(paths, opts)
  const { unusable } = model.resolved()
  if (unusable.length > 0) return { unusable }
  const c = new TransactionsCollector(model, internals)
  try {
    const h = c.hooks
    // nobody reads the markers' coordinator epochs here (lso does); each partition is let go as its scan ends, the
    // collector's hooks having taken its runs and commits (1 KiB a partition held to the end before: 19 MiB at 20,000)
    const scan = model.scanEach({ ...h, analyzer: (dir) => ({ ...h.analyzer(dir), markerEpochs: false }) }, () => {})
    const collected = c.finish(scan)
    // the filter applies at the join: its transactional id resolved from the coordinator's records the scan read
    return { stream: streamTransactions(collected, joinInput(model, opts)), model }
  } catch (e) {
    c.close()
    throw e
  }
}

/**
 * The broker model transactions reads, made to take a filter's transactional id's producer ids from the coordinator's
 * records as they are read. @throws TsdumpError USAGE for crossed bounds
 */
export function transactionsModel(paths: string[], opts: TransactionsLibraryOptions): BrokerModel {
  checkFilterBounds(opts.filter)
  return new BrokerModel(paths, {
    ...modelOptions(opts),
    metadataInScan: true,
    ...(needsIdResolved(opts.filter) ? { transactionalId: opts.filter.transactionalId } : {}),
  })
}

/** what transactionsStreamOf needs of transactionsHooks */
export interface TransactionsHooks {
  collector: TransactionsCollector
  model: BrokerModel
  opts: TransactionsLibraryOptions
}

/**
 * transactions' hooks for a scan of a model another command builds (doctor): given to `model.scan` beside its own,
 * then `transactionsStreamOf` with that scan (a filter's transactional id must be the model's
 * BrokerModelOptions.transactionalId, as transactionsModel makes it)
 */
export function transactionsHooks(
  model: BrokerModel,
  opts: TransactionsLibraryOptions = {},
  internals: CollectOptions = {},
): TransactionsHooks {
  checkFilterBounds(opts.filter)
  return { collector: new TransactionsCollector(model, internals), model, opts }
}

/** what a model's scan that ran with `transactionsHooks`' collector's hooks collected, and what the join takes */
export function transactionsJoinOf(
  hooks: TransactionsHooks,
  scan: Scanned,
): { collected: Collected; input: JoinInput } | { unusable: Finding[] } {
  if (scan.unusable.length > 0) {
    hooks.collector.close()
    return { unusable: scan.unusable }
  }
  try {
    return { collected: hooks.collector.finish(scan), input: joinInput(hooks.model, hooks.opts) }
  } catch (e) {
    hooks.collector.close()
    throw e
  }
}

/** the transactions of a model's scan that ran with `transactionsHooks`' collector's hooks, one at a time */
export function transactionsStreamOf(
  hooks: TransactionsHooks,
  scan: Scanned,
): TransactionsStream | { unusable: Finding[] } {
  const j = transactionsJoinOf(hooks, scan)
  if ('unusable' in j) return j
  try {
    return streamTransactions(j.collected, j.input)
  } catch (e) {
    hooks.collector.close()
    throw e
  }
}

/**
 * what the join takes of the options (a transactional id resolved from the model's coordinator read as the command
 * line resolves it: NOT_FOUND, never every record)
 */
function joinInput(model: BrokerModel, opts: TransactionsLibraryOptions): JoinInput {
  const only = opts.only
  const filter = resolveFilterIn(opts.filter, model)
  return {
    nowMs: opts.now ?? Date.now(),
    nowGiven: opts.now !== undefined,
    maxTransactionTimeoutMinutes: opts.maxTransactionTimeoutMinutes ?? 15,
    ...(filter !== undefined ? { filter } : {}),
    ...(only !== undefined
      ? { selects: (topic: string, partition: number) => selectsPartition(only, topic, partition) }
      : {}),
  }
}

/** forceTerminateTransaction for an open transaction's id; the model's metadata log read at the first open one */
function endIt(model: BrokerModel): (id: string) => ForceTerminateAdvice {
  let level: number | null | undefined
  return (id) => {
    level ??= metadataVersionOf(model.metadataConfigs())
    return forceTerminateAdvice(id, 'localhost:9092', level)
  }
}

export function runTransactions(opts: TransactionsOptions, ctx: CommandContext): number {
  const { paths, format: _format, color: _color, wide: _wide, ...lib } = opts
  const m = modelStream(paths, { ...lib, now: opts.now ?? ctx.now() })
  if ('unusable' in m) {
    writeUnusable(m.unusable, ctx)
    return EXIT_USAGE
  }
  const s = m.stream
  s.nowGiven = opts.now !== undefined
  // each transaction's findings counted as it passes to the printer, not kept
  const seen: Finding[] = []
  const items = s.items
  // in place: what the stream completes once its items are done (exactlyOnceNotChecked) is read by the printer after them
  const counted = s
  counted.items = (function* () {
    for (const t of items) {
      for (const f of t.findings) if (!seen.some((x) => x.code === f.code && x.severity === f.severity)) seen.push(f)
      yield t
    }
  })()
  try {
    const print = opts.format === 'json' ? printTransactionsJson : printTransactionsText
    const printOpts = {
      colorLevel: opts.color === false ? 0 : ctx.colorLevel,
      wide: opts.wide === true,
      endIt: endIt(m.model),
    } as const
    print(counted, ctx, printOpts)
  } finally {
    s.close()
  }
  return partitionExitCode([], s.findings.concat(seen))
}
