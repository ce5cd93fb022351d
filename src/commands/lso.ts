// `tsdump lso`: for each partition whose LSO < HW, the blocking transaction and how to abort it.
import { EXIT_USAGE } from '../analysis/findings.js'
import type { LsoPartition, LsoResult } from '../analysis/partition-results.js'
import type { PartitionFormat } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import type { CommandContext } from './context.js'
import { LsoJudge } from './lso/judge.js'
import { writeUnusable } from './partition-command.js'
import { warnIfNowBeforeData } from './now-check.js'
import { SpillWriter } from './spill-writer.js'
import type { TopicPartitionFilter } from './topic-partition-filter.js'
import { scanPartitionsEach, threadsOf } from './workers/partition-pool.js'
import { BrokerModel } from '../scan/broker-model.js'
import type { Scanned } from '../scan/broker-model.js'
import type { WorkerInternals } from './workers/partition-pool.js'
import type { RemoteInput } from '../io/remote/spec.js'

/** lso()'s options (the library) */
export interface LsoOptions {
  /** --remote-storage: remote segments read before the local ones */
  remote?: RemoteInput
  /** the bootstrap server placed in the suggested kafka-transactions.sh commands (default localhost:9092) */
  bootstrapServer?: string
  /** age in minutes above which an open transaction is hanging, as find-hanging's --max-transaction-timeout (default 15) */
  maxTransactionTimeoutMinutes?: number
  /** also say which __transaction_state partition coordinates this transactional id */
  transactionalId?: string
  /** partition count of __transaction_state, for transactionalId (default: the metadata log's, else the directories present) */
  transactionStatePartitions?: number
  /** epoch ms that ages are measured against (--now); default the clock */
  now?: number
  /** false: stop at framing damage as Kafka's reader does (--no-resync); by default reading resumes at the next valid batch, as the dump does */
  resync?: boolean
  /** --topic / --partition: report these partitions only */
  only?: TopicPartitionFilter
}

/** `tsdump lso`'s: the library's and the command line's */
export interface LsoCommandOptions extends LsoOptions {
  paths: string[]
  format?: PartitionFormat
  color?: boolean
  /** every table column, whatever its width */
  wide?: boolean
  /** worker threads for the partitions (commands/workers/partition-pool.ts) */
  threads?: number
  /** tests: when workers are used, and how many ran */
  workerInternals?: WorkerInternals
}

/** The transaction holding back each partition's LSO, how to abort it, and (optionally) a transactional id's coordinator. */
export function lso(paths: string[], opts: LsoOptions = {}): LsoResult {
  const model = new BrokerModel(paths, { ...modelOptions(opts), metadataInScan: true })
  return lsoOf(model, model.scan(), opts)
}

/** the broker model's options of lso's */
export function modelOptions(opts: { remote?: RemoteInput; resync?: boolean }): {
  remote?: RemoteInput
  resync?: boolean
} {
  return {
    ...(opts.remote !== undefined ? { remote: opts.remote } : {}),
    ...(opts.resync === false ? { resync: false } : {}),
  }
}

/**
 * lso's result from the model's partition scan and the coordinator's states (the __transaction_state partitions
 * given or beside them, each read once: scan/broker-model.ts)
 */
export function lsoOf(model: BrokerModel, done: Scanned, opts: LsoOptions): LsoResult {
  const judge = new LsoJudge(model, opts, done.unusable.length === 0)
  const partitions: LsoPartition[] = []
  for (const s of done.scanned) {
    const p = judge.partition(s)
    if (p !== null) partitions.push(p)
  }
  const end = judge.end()
  return {
    unusable: done.unusable,
    ...(done.unreadable.length > 0 ? { unreadable: done.unreadable } : {}),
    ...judge.head,
    partitions,
    impact: end.impact ?? [],
    hanging: end.hanging,
    hangingTransactions: end.hangingTransactions,
    coordinator: end.coordinator,
    ...(end.coordinatorFindings !== undefined ? { coordinatorFindings: end.coordinatorFindings } : {}),
  }
}

/**
 * Each partition judged as its scan ends and written into held output (a scratch file past 64 KiB), none kept: the
 * impact lines that come first are known once all are judged (commands/lso/judge.ts).
 */
export async function runLso(opts: LsoCommandOptions, ctx: CommandContext): Promise<number> {
  const model = new BrokerModel(opts.paths, { ...modelOptions(opts), metadataInScan: true })
  const { unusable, unreadable } = model.resolved()
  writeUnusable([...unusable, ...unreadable], ctx)
  if (unusable.length > 0) return EXIT_USAGE
  // the clock comes from the context (tests inject it); the text says whether the time was given
  const judge = new LsoJudge(model, { ...opts, clock: ctx.now })
  const held = new SpillWriter('lso-held')
  try {
    const out = createPartitionPrinter(opts.format ?? 'text', ctx, {
      colorLevel: opts.color === false ? 0 : ctx.colorLevel,
      wide: opts.wide === true,
    }).lsoStream(judge.head, held)
    // the coordinator's partitions and the metadata log are scanned on this thread, first, their records read in
    // the same pass: the coordinator's states are known at the first data partition
    await model.scanSplitEach(
      async (dirs, _filter, here, each) =>
        await scanPartitionsEach(dirs, { markerEpochs: true, here, ...threadsOf(opts), ...modelOptions(opts) }, each),
      (s) => {
        const p = judge.partition(s)
        if (p !== null) out.partition(p)
      },
    )
    const end = judge.end()
    warnIfNowBeforeData(ctx, judge.head.nowMs, judge.head.nowGiven, judge.newest)
    out.end(end)
    // a hanging transaction is a problem in the data even when no file is damaged
    return judge.exitCode(end, unreadable)
  } finally {
    held.close()
  }
}
