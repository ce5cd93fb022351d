// `tsdump lso`: for each partition whose LSO < HW, the blocking transaction and how to abort it.
import { transactionStatePartitionFor, javaStringHashCode } from '../analysis/coordinator.js'
import type { Finding } from '../analysis/findings.js'
import { EXIT_FINDINGS, EXIT_USAGE } from '../analysis/findings.js'
import type { HangingTransaction } from '../analysis/hanging.js'
import { abortCommands, judgePartition } from '../analysis/lso.js'
import { lsoImpact } from '../analysis/lso-impact.js'
import type { LsoResult } from '../analysis/partition-results.js'
import type { PartitionFormat } from '../format/partition-printer.js'
import { createPartitionPrinter } from '../format/partition-printer.js'
import type { CommandContext } from './context.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'
import { selectsPartition } from './topic-partition-filter.js'
import { newestOf, warnIfNowBeforeData } from './now-check.js'
import type { TopicPartitionFilter } from './topic-partition-filter.js'
import { scanPartitions, threadsOf } from './workers/partition-pool.js'
import { BrokerModel } from '../scan/broker-model.js'
import type { Scanned } from '../scan/broker-model.js'
import { coordinatorPartitionCountFrom } from '../scan/metadata-partitions.js'
import { metadataVersionOf } from '../scan/metadata-version.js'
import type { ScannedPartition } from '../scan/partition-scan.js'
import type { ScannedPaths } from '../scan/partition-paths.js'
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
  const paths = model.paths
  const timeoutMin = opts.maxTransactionTimeoutMinutes ?? 15
  const bootstrap = opts.bootstrapServer ?? 'localhost:9092'
  const isState = (p: ScannedPartition): boolean => p.dir.topic === '__transaction_state'
  const coordinatorFindings: NonNullable<LsoResult['coordinatorFindings']> = []
  const coordinator = done.unusable.length > 0 ? { partitions: [], states: [] } : model.transactionState()
  // lso answers for the data partitions it reports: a coordinator timeout abort elsewhere is not its to say
  const data = done.scanned.filter(
    (p) => !isState(p) && selectsPartition(opts.only, p.report.topic, p.report.partition),
  )
  const reported = new Set(data.map((p) => p.label))
  for (const p of coordinator.partitions) {
    // the partition's own findings (its framing damage among them) and what reading its records found besides
    const own = p.scanned?.report.findings ?? []
    const said = new Set(own.map((f) => `${f.code} ${f.file ?? ''} ${f.position ?? ''}`))
    for (const a of p.read.timedOut)
      if (!a.partitions.some((l) => reported.has(l))) said.add(`TXN_TIMED_OUT ${a.file} ${a.position}`)
    const findings = [
      ...own,
      ...p.read.findings.listed.filter((f) => !said.has(`${f.code} ${f.file ?? ''} ${f.position ?? ''}`)),
    ]
    if (findings.length > 0) coordinatorFindings.push({ label: p.label, findings })
  }
  const states = coordinator.states
  // ages are measured against the clock (or --now), as find-hanging does (analysis/hanging.ts)
  const nowMs = opts.now ?? Date.now()
  const hanging: HangingTransaction[] = []
  const partitions = data.map((p) => {
    const j = judgePartition(p.report, p.snapshots, p.label, nowMs, timeoutMin * 60_000, states)
    const blocking = j.blocking
    hanging.push(...j.hanging)
    const commands = blocking === null ? [] : abortCommands(bootstrap, p.report.topic, p.report.partition, blocking)
    const ids = blocking === null ? [] : states.filter((s) => s.producerId === blocking.producerId)
    return { label: p.label, path: p.dir.path, report: p.report, blocking, commands, ids, findings: j.findings }
  })
  const n =
    opts.transactionalId === undefined
      ? null
      : coordinatorPartitionCountFrom(
          '__transaction_state',
          paths,
          () => model.partitionCounts(),
          opts.transactionStatePartitions,
        )
  const coordinatorOf =
    opts.transactionalId === undefined
      ? null
      : {
          transactionalId: opts.transactionalId,
          hashCode: javaStringHashCode(opts.transactionalId),
          partitionCount: n?.count ?? null,
          partitionCountFrom: n,
          partition: n === null ? null : transactionStatePartitionFor(opts.transactionalId, n.count),
        }
  return {
    unusable: done.unusable,
    ...(done.unreadable.length > 0 ? { unreadable: done.unreadable } : {}),
    maxTransactionTimeoutMinutes: timeoutMin,
    nowMs,
    nowGiven: opts.now !== undefined,
    partitions,
    impact: lsoImpact(partitions, bootstrap, {
      states,
      metadataVersion: () => metadataVersionOf(model.metadataConfigs()),
    }),
    hanging: hanging.length > 0,
    hangingTransactions: hanging,
    coordinator: coordinatorOf,
    ...(coordinatorFindings.length > 0 ? { coordinatorFindings } : {}),
  }
}

export async function runLso(opts: LsoCommandOptions, ctx: CommandContext): Promise<number> {
  const model = new BrokerModel(opts.paths, { ...modelOptions(opts), metadataInScan: true })
  // the coordinator's partitions and the metadata log are scanned on this thread, their records read in the same pass
  const done = await model.scanSplit(
    async (dirs, _filter, here) =>
      await scanPartitions(dirs, { markerEpochs: true, here, ...threadsOf(opts), ...modelOptions(opts) }),
  )
  const r = lsoOf(model, done, { ...opts, now: opts.now ?? ctx.now() })
  // the clock comes from the context (tests inject it); the text says whether the time was given
  r.nowGiven = opts.now !== undefined
  writeUnusable([...r.unusable, ...(r.unreadable ?? [])], ctx)
  if (r.unusable.length > 0) return EXIT_USAGE
  warnIfNowBeforeData(ctx, r.nowMs, r.nowGiven, newestOf(r.partitions.map((p) => p.report.newestTimestamp)))
  createPartitionPrinter(opts.format ?? 'text', ctx, {
    colorLevel: opts.color === false ? 0 : ctx.colorLevel,
    wide: opts.wide === true,
  }).lso(r)
  // a hanging transaction is a problem in the data even when no file is damaged
  return partitionExitCode(
    r.unusable,
    [
      ...r.partitions.flatMap((p) => [...p.report.findings, ...p.findings]),
      ...(r.coordinatorFindings ?? []).flatMap((c) => c.findings),
    ],
    r.hanging ? EXIT_FINDINGS : 0,
    r.unreadable,
  )
}
