// `tsdump doctor`: every analysis tsdump has, over one or several brokers' log directories, its findings once each,
// ranked by harm (analysis/doctor/rank.ts), with where, how much and what to do. One broker model
// (scan/broker-model.ts) is built of the paths: its partition scan gives reconcile's, lso's and transactions'
// results (the coordinator's records and the offset commits read in the same pass); cleanup (and replicas over two or
// more brokers' log dirs holding the same partitions, remote with --remote-storage) still run their own reads after it.
import * as path from 'node:path'
import { DoctorCollector } from '../analysis/doctor/collect.js'
import {
  gatherCleanup,
  gatherLso,
  gatherReconcile,
  gatherRemote,
  gatherReplicas,
  gatherTallied,
  gatherTransactions,
} from '../analysis/doctor/gather.js'
import { remedyFor } from '../analysis/doctor/remedy.js'
import type { DoctorBroker, DoctorResult, DoctorSummary, DoctorTransactions } from '../analysis/doctor/types.js'
import type { CleanupResult } from '../analysis/cleanup/result.js'
import type { LsoResult } from '../analysis/partition-results.js'
import type { AnalyzerHook } from '../analysis/partition-report.js'
import type { RemoteResult } from '../analysis/remote-inventory.js'
import type { PartitionComparison } from '../analysis/replicas/compare.js'
import type { PartitionDir } from '../io/discover.js'
import type { Scanned } from '../scan/broker-model.js'
import type { Finding } from '../analysis/findings.js'
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, finding } from '../analysis/findings.js'
import { formatFinding } from '../format/finding-text.js'
import { printDoctorJson } from '../format/doctor-json.js'
import { printDoctorText } from '../format/doctor-text.js'
import { discover } from '../io/discover.js'
import { closeRemoteStores } from '../io/remote/store.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { remoteSpecOf } from '../io/remote/spec.js'
import { dataExtent, EarliestFirstBatch } from '../scan/data-extent.js'
import { brokersOf, lookDirs } from './doctor/brokers.js'
import { holdDuring, YoungGenerationHold } from '../io/young-generation.js'
import { toBigInt } from '../bytes/int64.js'
import { CleanupPass } from './cleanup-pass.js'
import type { CleanupPartition } from '../analysis/cleanup/result.js'
import type { ScannedPartition } from '../scan/partition-scan.js'
import type { CommandContext } from './context.js'
import { lsoOf } from './lso.js'
import { reconciled } from './reconcile.js'
import { BrokerModel, TRANSACTION_STATE_TOPIC } from '../scan/broker-model.js'
import { remoteInventory } from './remote.js'
import { replicas } from './replicas.js'
import { bothSinks } from '../analysis/run-sink.js'
import { transactionsHooks, transactionsJoinOf } from './transactions.js'
import type { Collected } from '../scan/transactions-collect.js'
import type { JoinInput } from '../scan/transactions-stream.js'
import { streamTransactions } from '../scan/transactions-stream.js'
import { tallyTransactions } from '../scan/transactions-tally.js'

/** the young generation doctor's scan holds (both semi-spaces) */
const DOCTOR_YOUNG_BYTES = 8 * 1024 * 1024

/** doctor()'s options (the library) */
export interface DoctorOptions {
  /** --remote-storage: a directory or s3://bucket/prefix; the partition analyses read the remote segments, and `remote` runs */
  remote?: RemoteInput
  /** epoch ms that ages are measured against (--now); default the clock */
  now?: number
  /** age in minutes above which an open transaction is hanging (find-hanging's --max-transaction-timeout, default 15) */
  maxTransactionTimeoutMinutes?: number
  /** the bootstrap server placed in the kafka-transactions.sh commands (default localhost:9092) */
  bootstrapServer?: string
}

/** `tsdump doctor`'s: the library's and the command line's */
export interface DoctorCommandOptions extends DoctorOptions {
  paths: string[]
  format?: 'text' | 'json'
  color?: boolean
  /** no wrapping at 80 columns */
  wide?: boolean
}

/** Not user options: what `tsdump report` adds to doctor's one run to draw its page from the same reads. */
export interface DoctorInternals {
  /** a hook into each partition's analyzer (the report's lanes), beside cleanup's */
  analyzer?: (dir: PartitionDir) => AnalyzerHook
  /** keep this many transactions (the first in transactions' order) and tally the rest by outcome */
  keepTransactions?: number
  /** false: stop at framing damage as Kafka's reader does (the report's --no-resync) */
  resync?: boolean
  /**
   * the broker model of the same paths, already resolved by the caller (the report, to find what cannot be used):
   * its discovery and side files are not read again
   */
  model?: BrokerModel
  /**
   * each partition once doctor is done with it, with cleanup's result of it, and its place in the order the scans
   * ended: as its scan ends, or after the join for one with an open transaction (held until the coordinator's states
   * are known, as doctor holds it); with it, no partition is kept for the report to the run's end
   */
  ended?: (s: ScannedPartition, cleanup: CleanupPartition | null, at: number) => void
}

/** doctor's one run: its result and each analysis' own result, for a page drawn from the same reads */
export interface DoctorRun {
  result: DoctorResult
  /** the broker model the analyses read (null when no path could be read) */
  model: BrokerModel | null
  scanned: Scanned | null
  lso: LsoResult | null
  cleanup: CleanupResult | null
  transactions: DoctorTransactions | null
  replicas: PartitionComparison[] | null
  remote: RemoteResult | null
}

/** Every analysis over `paths`, its findings once each, in the order of harm. */
export function doctor(paths: string[], opts: DoctorOptions = {}): DoctorResult {
  return doctorRun(paths, opts).result
}

/** doctor(), with each analysis' result beside it (`tsdump report` draws them) */
export function doctorRun(paths: string[], opts: DoctorOptions = {}, internals: DoctorInternals = {}): DoctorRun {
  const nowMs = opts.now ?? Date.now()
  const timeoutMin = opts.maxTransactionTimeoutMinutes ?? 15
  const unusable: Finding[] = []
  const usable: string[] = []
  // each path on its own: one that cannot be read is reported, and the others are examined
  // the young generation held through the discoveries (io/young-generation.ts holdDuring)
  const opened = holdDuring(() => {
    for (const p of paths) {
      const problems = discover([p]).problems
      for (const pr of problems) unusable.push(finding('UNREADABLE', pr.message, { file: pr.path }))
      // a partition directory inside it that cannot be read leaves the rest of the log dir to examine
      if (problems.every((pr) => pr.inside === true)) usable.push(p)
    }
    return brokersOf(usable)
  })
  const brokers = opened.brokers
  const resolved = brokers.map((b) => ({ dir: path.resolve(b.path), name: b.name }))
  const brokerOf = (x: string): string | null => {
    const abs = path.resolve(x)
    const hit = resolved
      .filter((b) => abs === b.dir || abs.startsWith(b.dir + path.sep))
      .sort((a, b) => b.dir.length - a.dir.length)[0]
    return hit?.name ?? null
  }
  const summary: DoctorSummary = {
    brokers: brokers.map((b) => ({ name: b.name, path: b.path })),
    partitions: 0,
    segments: 0,
    bytes: 0,
    firstTimestamp: null,
    newestTimestamp: null,
    nowMs,
    nowGiven: opts.now !== undefined,
    maxTransactionTimeoutMinutes: timeoutMin,
    checked: [],
    remoteStorage: opts.remote === undefined ? null : remoteSpecOf(opts.remote).storage,
    counts: { error: 0, warning: 0, info: 0 },
    ranks: [],
  }
  const run: DoctorRun = {
    result: { summary, findings: [], groups: [], unusable },
    model: null,
    scanned: null,
    lso: null,
    cleanup: null,
    transactions: null,
    replicas: null,
    remote: null,
  }
  if (usable.length === 0) return run
  const remote = opts.remote !== undefined ? { remote: opts.remote } : {}
  // V8's young generation held once grown to 8 MiB (io/young-generation.ts): 32 MiB of RSS otherwise, and the scan's
  // and the tally's garbage is about as cheap to collect in 8 as in 16; the report's too, which joins every
  // transaction to list the first ones: held at 16 there, it took the report of 20,000 partitions past 128 MiB
  const young = new YoungGenerationHold(DOCTOR_YOUNG_BYTES)
  try {
    const given = internals.model
    const model =
      given !== undefined && given.paths.length === usable.length && given.paths.every((p, i) => p === usable[i])
        ? given
        : new BrokerModel(usable, {
            ...remote,
            metadataInScan: true,
            ...(internals.resync === false ? { resync: false } : {}),
          })
    holdDuring(() => model.resolved())
    run.model = model
    // each segment's first batch timestamp, for the summary's time window (a negative one, or a legacy entry, says
    // none), held until its partition's end, and the earliest of the partitions' then
    const firstSeen = new Map<string, bigint | null>()
    const firstTimestamp = new EarliestFirstBatch()
    // the file of the previous batch: batches come file by file, so the map is asked once per file
    let lastFile: string | undefined
    // cleanup's header facts are taken in the same pass (scan/cleanup-scan.ts cleanupHooks); not a literal: cleanup
    // takes the options it knows (the hanging rule's timeout, where it has one)
    const cleanup = new CleanupPass(model, {
      now: nowMs,
      maxTransactionTimeoutMinutes: timeoutMin,
      ...(opts.bootstrapServer !== undefined ? { bootstrapServer: opts.bootstrapServer } : {}),
    })
    // the directories of the partitions whose findings are kept to the end, found then (lookDirs)
    let dirsOf = new Map<string, string[]>()
    const partitionDir = (broker: string | null, label: string): string | null =>
      (dirsOf.get(label) ?? []).find((d) => brokerOf(d) === broker) ?? null
    const c = new DoctorCollector(
      brokerOf,
      (f, loc, command) =>
        remedyFor(f, loc, command, {
          paths: usable,
          remote: opts.remote === undefined ? null : remoteSpecOf(opts.remote).storage,
          partitionDir,
        }).look,
    )
    // transactions' runs, offset commits and coordinator episodes are taken in the same pass
    const txOpts = { ...remote, now: nowMs, maxTransactionTimeoutMinutes: timeoutMin }
    // no group's committed offsets around each transaction: doctor prints none, and no finding reads them
    // and which buckets of producer ids the join would find nothing in, told as they fill: those are not joined;
    // a partition's findings are transactions' too: taken once reconcile's are gathered (its scan ends before), then
    // those reconcile gave are told now, the others kept for after the join, in their place among transactions'
    const found: Finding[] = []
    const foundLater: Finding[] = []
    const tx = transactionsHooks(model, txOpts, {
      groupPositions: false,
      quiet: internals.keepTransactions === undefined,
      found,
    })
    // the report draws every partition: all are kept to the end, as lso and cleanup take them there
    const keepAll = internals.analyzer !== undefined && internals.ended === undefined
    // a partition kept past its scan: one with an open transaction (judged once the coordinator's states are known),
    // and its place among the partitions
    const held: ScannedPartition[] = []
    const heldAt: number[] = []
    let partitions = 0
    const scan = model.scanEach(
      {
        ...tx.collector.hooks,
        analyzer: (dir) => {
          const t = tx.collector.hooks.analyzer(dir)
          const lanes = internals.analyzer?.(dir)
          const sink = bothSinks(t.sink, lanes?.sink)
          return { ...cleanup.hooks.analyzer(dir), ...lanes, ...t, ...(sink !== undefined ? { sink } : {}) }
        },
        batch: (s) => {
          young.tick()
          tx.collector.hooks.batch(s)
          if (s.file !== undefined && s.file !== lastFile && !firstSeen.has(s.file))
            firstSeen.set(
              s.file,
              s.legacy === true ? null : toBigInt(s.baseTimestamp) >= 0n ? toBigInt(s.baseTimestamp) : null,
            )
          lastFile = s.file
          cleanup.hooks.batch(s)
        },
      },
      (s) => {
        partitions++
        // a partition's end makes garbage of its own (its findings gathered, its cleanup): looked at each time
        young.check()
        const t = s.report.newestTimestamp
        if (t !== null && (summary.newestTimestamp === null || t > summary.newestTimestamp)) summary.newestTimestamp = t
        firstTimestamp.partition(firstSeen, s)
        // reconcile's findings, and lso's of the same partition (lso reads no coordinator's partition)
        const broker = brokerOf(s.dir.path)
        gatherReconcile(c, reconciled({ unusable: [], unreadable: [], scanned: [s] }, undefined), brokerOf)
        if (s.dir.topic !== TRANSACTION_STATE_TOPIC)
          for (const f of s.report.findings) c.add(f, { command: 'lso', broker, partition: s.label })
        for (const f of found) if (!c.addSeen(f, { command: 'transactions' })) foundLater.push(f)
        found.length = 0
        if (keepAll || s.report.openTransactions.length > 0) {
          held.push(s)
          heldAt.push(partitions - 1)
          return
        }
        // no open transaction: nothing of it waits for the coordinator's states, and cleanup's findings are its own
        // codes or those reconcile gave first (collect.ts orders who reported what)
        const p = cleanup.partition(s)
        if (p !== null) gatherCleanup(c, { partitions: [p] }, () => [s.dir.path], brokerOf)
        internals.ended?.(s, p, partitions - 1)
      },
      // the coordinator's partitions first: cleanup asks their states at the first partition's end
      true,
    )
    run.scanned = { ...scan, scanned: held }
    // what is left (the join, cleanup) grows it too: held at the size the scan is let grow it to
    young.check()
    const lsoOpts = {
      ...remote,
      now: nowMs,
      maxTransactionTimeoutMinutes: timeoutMin,
      ...(opts.bootstrapServer !== undefined ? { bootstrapServer: opts.bootstrapServer } : {}),
    }
    // the held partitions' (their findings added again change nothing: the collector takes a report once)
    run.lso = lsoOf(model, run.scanned, lsoOpts)
    gatherLso(c, run.lso, brokerOf)
    // the transactions one at a time (transactions' bounded join over the same scan), none held past its findings
    // unless kept
    const txs = transactionsJoinOf(tx, run.scanned)
    if (!('unusable' in txs)) {
      // (the collector's own are last among the findings of the pass, before the join's)
      for (const f of foundLater) txs.collected.findings.push(f)
      try {
        run.transactions = doctorTransactions(c, txs, usable, internals.keepTransactions ?? 0)
      } finally {
        txs.collected.spill?.close()
      }
    }
    // the model's scan (its remote segments too: cleanup predicts retention across tiers)
    const late: CleanupPartition[] = []
    held.forEach((s, i) => {
      const p = cleanup.partition(s)
      if (p !== null) {
        gatherCleanup(c, { partitions: [p] }, () => [s.dir.path], brokerOf)
        if (keepAll) late.push(p)
      }
      internals.ended?.(s, p, heldAt[i]!)
    })
    run.cleanup = { ...cleanup.head, partitions: late }
    summary.checked.push('reconcile', 'lso', 'transactions', 'cleanup')
    const logDirs = brokers.filter((b) => b.logDir)
    if (logDirs.length >= 2 && opened.shared) {
      run.replicas = replicas(logDirs.map((b) => b.path)).partitions
      gatherReplicas(c, run.replicas, brokerOf)
      summary.checked.push('replicas')
    }
    if (opts.remote !== undefined) {
      const inv = remoteInventory(usable, opts.remote, {
        partitions: model.resolved().partitions,
        metadata: () => model.remoteLogMetadata(),
      })
      for (const u of inv.unusable) unusable.push(u)
      gatherRemote(c, inv)
      run.remote = inv
      summary.checked.push('remote')
    }
    // the model's partitions (the same .log files), not a second listing held beside them at the scan's end; the
    // paths' own when the model could not use them (a remote storage in no known layout: none was scanned, each
    // first header is read here)
    const { partitions: listed, unusable: notModelled } = model.resolved()
    const extent =
      notModelled.length === 0
        ? { ...dataExtent(listed, () => null), firstTimestamp: firstTimestamp.earliest }
        : dataExtent(discover(usable).partitions)
    summary.partitions = partitions
    summary.segments = extent.segments
    summary.bytes = extent.bytes
    summary.firstTimestamp = extent.firstTimestamp
    // every partition was handed on as its scan ended, unless the model could not be scanned
    if (scan.unusable.length === 0) dirsOf = lookDirs(listed, c.partitionsToLook())
    const { findings, groups, counts, ranks } = c.collected()
    summary.counts = counts
    summary.ranks = ranks
    run.result = { summary, findings, groups, unusable }
    return run
  } finally {
    young.release()
    if (opts.remote !== undefined) closeRemoteStores()
  }
}

/**
 * The transactions' findings and counts: tallied bucket by bucket (scan/transactions-tally.ts), or, when more
 * producers than the exactly-once check takes make the listed order decide which it checks, taken from that list
 */
function doctorTransactions(
  c: DoctorCollector,
  j: { collected: Collected; input: JoinInput },
  paths: readonly string[],
  keep: number,
): DoctorTransactions {
  const t = tallyTransactions(j.collected, j.input, keep)
  if (t !== null) return gatherTallied(c, t, paths)
  return gatherTransactions(c, streamTransactions(j.collected, j.input), paths, keep)
}

/** 0 nothing but notes, 1 problems in the data (or a path among others that could not be read), 2 nothing readable */
export function doctorExitCode(r: DoctorResult): number {
  if (r.summary.checked.length === 0) return EXIT_USAGE
  const problem = r.findings.some((f) => f.severity !== 'info') || r.groups.some((g) => g.severity !== 'info')
  return r.unusable.length > 0 || problem ? EXIT_FINDINGS : EXIT_OK
}

export function runDoctor(opts: DoctorCommandOptions, ctx: CommandContext): number {
  const r = doctor(opts.paths, { ...opts, now: opts.now ?? ctx.now() })
  // the clock comes from the context (tests inject it); the text says whether the time was given
  r.summary.nowGiven = opts.now !== undefined
  for (const u of r.unusable) ctx.stderr.write(formatFinding(u) + '\n')
  if (r.summary.checked.length === 0) return EXIT_USAGE
  const print = opts.format === 'json' ? printDoctorJson : printDoctorText
  print(r, ctx, { colorLevel: opts.color === false ? 0 : ctx.colorLevel, wide: opts.wide === true })
  return doctorExitCode(r)
}
