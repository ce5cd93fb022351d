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
  gatherTransactions,
} from '../analysis/doctor/gather.js'
import { HARM_CATEGORIES } from '../analysis/doctor/rank.js'
import type { HarmRank } from '../analysis/doctor/rank.js'
import { remedyFor } from '../analysis/doctor/remedy.js'
import type { DoctorBroker, DoctorResult, DoctorSummary } from '../analysis/doctor/types.js'
import type { Finding } from '../analysis/findings.js'
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, finding } from '../analysis/findings.js'
import { formatFinding } from '../format/finding-text.js'
import { printDoctorJson } from '../format/doctor-json.js'
import { printDoctorText } from '../format/doctor-text.js'
import { brokerName, openBrokerLogDir } from '../io/broker-dir.js'
import { discover } from '../io/discover.js'
import { closeRemoteStores } from '../io/remote/store.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { remoteSpecOf } from '../io/remote/spec.js'
import { dataExtent } from '../scan/data-extent.js'
import { toBigInt } from '../bytes/int64.js'
import { cleanupOf } from './cleanup.js'
import { cleanupHooks } from '../scan/cleanup-scan.js'
import type { CommandContext } from './context.js'
import { lsoOf } from './lso.js'
import { reconciled } from './reconcile.js'
import { BrokerModel } from '../scan/broker-model.js'
import { remoteInventory } from './remote.js'
import { replicas } from './replicas.js'
import { transactionsHooks, transactionsOf } from './transactions.js'

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

/** the given paths that are brokers' log directories, each with the name it goes by (as `tsdump replicas` names them) */
function brokersOf(paths: readonly string[]): Array<DoctorBroker & { logDir: boolean; partitions: string[] }> {
  const opened = paths.map((p) => ({ p, o: openBrokerLogDir(p) }))
  const plain = opened.map(({ p, o }) =>
    o.dir === null ? null : paths.length === 1 ? o.dir.nodeId : brokerName(o.dir),
  )
  return opened.map(({ p, o }, i) => {
    const n = plain[i] ?? null
    const name = n !== null && plain.filter((x) => x === n).length > 1 ? `${n}#${i + 1}` : n
    return {
      name,
      path: p,
      logDir: o.dir !== null,
      partitions: o.dir === null ? [] : o.dir.partitions.map((d) => path.basename(path.resolve(d.path))),
    }
  })
}

/** Every analysis over `paths`, its findings once each, in the order of harm. */
export function doctor(paths: string[], opts: DoctorOptions = {}): DoctorResult {
  const nowMs = opts.now ?? Date.now()
  const timeoutMin = opts.maxTransactionTimeoutMinutes ?? 15
  const unusable: Finding[] = []
  const usable: string[] = []
  // each path on its own: one that cannot be read is reported, and the others are examined
  for (const p of paths) {
    const problems = discover([p]).problems
    for (const pr of problems) unusable.push(finding('UNREADABLE', pr.message, { file: pr.path }))
    // a partition directory inside it that cannot be read leaves the rest of the log dir to examine
    if (problems.every((pr) => pr.inside === true)) usable.push(p)
  }
  const brokers = brokersOf(usable)
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
  if (usable.length === 0) return { summary, findings: [], unusable }
  const remote = opts.remote !== undefined ? { remote: opts.remote } : {}
  try {
    const model = new BrokerModel(usable, remote)
    // each segment's first batch timestamp, for the summary's time window (a negative one, or a legacy entry, says none)
    const firstSeen = new Map<string, bigint | null>()
    // cleanup's header facts are taken in the same pass (scan/cleanup-scan.ts cleanupHooks)
    const cleanupScan = cleanupHooks()
    // transactions' runs, offset commits and coordinator episodes are taken in the same pass
    const txOpts = { ...remote, now: nowMs, maxTransactionTimeoutMinutes: timeoutMin }
    const tx = transactionsHooks(model, txOpts)
    const scan = model.scan({
      ...tx.collector.hooks,
      analyzer: (dir) => ({ ...cleanupScan.hooks.analyzer(dir), ...tx.collector.hooks.analyzer(dir) }),
      batch: (s) => {
        tx.collector.hooks.batch(s)
        if (s.file !== undefined && !firstSeen.has(s.file))
          firstSeen.set(
            s.file,
            s.legacy === true ? null : toBigInt(s.baseTimestamp) >= 0n ? toBigInt(s.baseTimestamp) : null,
          )
        cleanupScan.hooks.batch(s)
      },
    })
    const rec = reconciled(scan, undefined)
    const dirsOf = new Map<string, string[]>()
    for (const p of rec.partitions) dirsOf.set(p.label, [...(dirsOf.get(p.label) ?? []), p.path])
    const partitionDir = (broker: string | null, label: string): string | null =>
      (dirsOf.get(label) ?? []).find((d) => brokerOf(d) === broker) ?? null
    const c = new DoctorCollector(brokerOf, (f, loc, command) =>
      remedyFor(f, loc, command, {
        paths: usable,
        remote: opts.remote === undefined ? null : remoteSpecOf(opts.remote).storage,
        partitionDir,
      }),
    )
    gatherReconcile(c, rec, brokerOf)
    const lsoOpts = {
      ...remote,
      now: nowMs,
      maxTransactionTimeoutMinutes: timeoutMin,
      ...(opts.bootstrapServer !== undefined ? { bootstrapServer: opts.bootstrapServer } : {}),
    }
    gatherLso(c, lsoOf(model, scan, lsoOpts), brokerOf)
    const txs = transactionsOf(tx, scan, txOpts)
    if ('transactions' in txs) gatherTransactions(c, txs, usable)
    // not a literal: cleanup takes the options it knows (the hanging rule's timeout, where it has one)
    const cleanupOpts = {
      now: nowMs,
      maxTransactionTimeoutMinutes: timeoutMin,
      ...(opts.bootstrapServer !== undefined ? { bootstrapServer: opts.bootstrapServer } : {}),
    }
    // the model's scan (its remote segments too: cleanup predicts retention across tiers)
    gatherCleanup(
      c,
      cleanupOf(model, { ...scan, headers: cleanupScan.headers }, cleanupOpts),
      (label) => dirsOf.get(label) ?? [],
      brokerOf,
    )
    summary.checked.push('reconcile', 'lso', 'transactions', 'cleanup')
    const logDirs = brokers.filter((b) => b.logDir)
    const shared = logDirs.some((b, i) =>
      b.partitions.some((l) => logDirs.some((o, j) => j !== i && o.partitions.includes(l))),
    )
    if (logDirs.length >= 2 && shared) {
      gatherReplicas(c, replicas(logDirs.map((b) => b.path)).partitions, brokerOf)
      summary.checked.push('replicas')
    }
    if (opts.remote !== undefined) {
      const inv = remoteInventory(usable, opts.remote)
      for (const u of inv.unusable) unusable.push(u)
      gatherRemote(c, inv)
      summary.checked.push('remote')
    }
    const extent = dataExtent(discover(usable).partitions, (f) => firstSeen.get(f))
    summary.partitions = rec.partitions.length
    summary.segments = extent.segments
    summary.bytes = extent.bytes
    summary.firstTimestamp = extent.firstTimestamp
    for (const p of rec.partitions) {
      const t = p.report.newestTimestamp
      if (t !== null && (summary.newestTimestamp === null || t > summary.newestTimestamp)) summary.newestTimestamp = t
    }
    const findings = c.ranked()
    for (const f of findings) summary.counts[f.severity]++
    summary.ranks = ([1, 2, 3, 4, 5] as HarmRank[]).map((rank) => ({
      rank,
      category: HARM_CATEGORIES[rank],
      count: findings.filter((f) => f.rank === rank).length,
    }))
    return { summary, findings, unusable }
  } finally {
    if (opts.remote !== undefined) closeRemoteStores()
  }
}

/** 0 nothing but notes, 1 problems in the data (or a path among others that could not be read), 2 nothing readable */
export function doctorExitCode(r: DoctorResult): number {
  if (r.summary.checked.length === 0) return EXIT_USAGE
  return r.unusable.length > 0 || r.findings.some((f) => f.severity !== 'info') ? EXIT_FINDINGS : EXIT_OK
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
