// `tsdump cleanup`: per partition, what the log cleaner and retention will do next and what holds them back.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import { EXIT_USAGE, finding, locatePartitionFindings } from '../analysis/findings.js'
import { abortCommands, judgePartition } from '../analysis/lso.js'
import type { PartitionJudgement } from '../analysis/lso.js'
import { resolveConfigs, settingsOf } from '../analysis/cleanup/configs.js'
import { predictCompaction } from '../analysis/cleanup/compaction.js'
import { predictRetention } from '../analysis/cleanup/retention.js'
import type { CleanupBlocker, CleanupPartition, CleanupResult } from '../analysis/cleanup/result.js'
import { printCleanupJson } from '../format/cleanup-json.js'
import { printCleanupText } from '../format/cleanup-text.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { discover } from '../io/discover.js'
import type { PartitionDir } from '../io/discover.js'
import { cleanupHooks, cleanupSegments, readCleanerCheckpoint, readCleanupSegment } from '../scan/cleanup-scan.js'
import type { CleanupHooks } from '../scan/cleanup-scan.js'
import { localFilesOf, remoteRetentionFacts } from '../scan/remote-retention-facts.js'
import type { RemoteRetentionFacts } from '../scan/remote-retention-facts.js'
import { tieredRetentionOf } from '../analysis/cleanup/remote-retention.js'
import type { RemoteInput } from '../io/remote/spec.js'
import type { HeaderFacts } from '../analysis/cleanup/txn-metadata.js'
import type { ReadSegment } from '../analysis/cleanup/model.js'
import { FindingList } from '../analysis/finding-list.js'
import { lostText } from '../analysis/lost-records.js'
import { offsetMapEntries } from '../analysis/cleanup/configs.js'
import { checkConfigFlags } from '../analysis/cleanup/config-flags.js'
import type { MetadataConfigs } from '../scan/metadata-configs.js'
import { readMetadataConfigs } from '../scan/metadata-configs.js'
import type { ScannedPartition } from '../scan/partition-scan.js'
import { BrokerModel } from '../scan/broker-model.js'
import type { Scanned } from '../scan/broker-model.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import type { CommandContext } from './context.js'
import { newestOf, warnIfNowBeforeData } from './now-check.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'

/** cleanup()'s options (the library) */
export interface CleanupOptions {
  /** epoch ms the rules measure against (--now); default the clock */
  now?: number
  /** --config key=value */
  configs?: Map<string, string>
  bootstrapServer?: string
  /** --top N: keys with most records in the dirty section */
  top?: number
  /** false: stop at framing damage as Kafka's reader does (--no-resync); by default reading resumes at the next valid batch, as the dump does */
  resync?: boolean
  /** age in minutes above which an open transaction is hanging, as find-hanging's --max-transaction-timeout (default 15) */
  maxTransactionTimeoutMinutes?: number
  /** --remote-storage: the remote segments are read with the local ones, and retention is predicted across tiers */
  remote?: RemoteInput
}

/** `tsdump cleanup`'s: the library's and the command line's */
export interface CleanupCommandOptions extends CleanupOptions {
  paths: string[]
  format?: 'text' | 'json'
  color?: boolean
  /** no line cut at 80 columns */
  wide?: boolean
}

const METADATA = '__cluster_metadata'

/** The metadata log among the partitions given, else beside them in a log dir given. */
function findMetadata(scanned: readonly ScannedPartition[]): MetadataConfigs | null {
  const given = scanned.find((p) => p.dir.topic === METADATA)
  if (given !== undefined) return readMetadataConfigs(given.dir)
  // beside the partition directories, named as they were given
  for (const logDir of new Set(scanned.map((p) => path.dirname(p.dir.path)))) {
    const d = discover([path.join(logDir, `${METADATA}-0`)])
    if (d.problems.length === 0 && d.partitions[0] !== undefined) return readMetadataConfigs(d.partitions[0])
  }
  return null
}

/**
 * What the log cleaner and retention will do next to each partition under `paths`.
 * @throws TsdumpError USAGE when `configs` holds a key or value Kafka would refuse (as --config's exit 2)
 */
export function cleanup(
  paths: string[],
  opts: CleanupOptions = {},
): CleanupResult & { unusable: Finding[]; unreadable?: Finding[]; newestTimestamp: bigint | null } {
  const bad = opts.configs === undefined ? null : checkConfigFlags(opts.configs)
  if (bad !== null) throw new TsdumpError('USAGE', bad)
  const model = new BrokerModel(paths, {
    ...(opts.resync === false ? { resync: false } : {}),
    ...(opts.remote !== undefined ? { remote: opts.remote } : {}),
  })
  const cleanupScan = cleanupHooks()
  return cleanupOf(model, { ...model.scan(cleanupScan.hooks), headers: cleanupScan.headers }, opts)
}

/**
 * cleanup's result from a broker model's scan made with cleanupHooks (doctor shares its own); the coordinator's
 * states are the model's (the __transaction_state partitions given or beside them, read in the scan's pass)
 */
export function cleanupOf(
  model: BrokerModel,
  done: Scanned & { headers: CleanupHooks['headers'] },
  opts: CleanupOptions,
): CleanupResult & { unusable: Finding[]; unreadable?: Finding[]; newestTimestamp: bigint | null } {
  const nowMs = opts.now ?? Date.now()
  const meta = findMetadata(done.scanned)
  const states = done.unusable.length > 0 ? [] : model.transactionState().states
  const checkpoints = new Map<string, OffsetCheckpoint | null>()
  const partitions: CleanupPartition[] = []
  const remote = remoteRetentionFacts(done.scanned.map((p) => p.dir))
  for (const p of done.scanned) {
    if (p.dir.topic === METADATA) continue
    partitions.push(
      partitionOf(p, done.headers.get(p.dir)!, meta, checkpoints, states, nowMs, opts, remote.get(p.dir.path)),
    )
  }
  const lost = meta?.lost[0]
  return {
    unusable: done.unusable,
    ...(done.unreadable.length > 0 ? { unreadable: done.unreadable } : {}),
    nowMs,
    nowGiven: opts.now !== undefined,
    metadataLog: meta?.path ?? null,
    ...(lost !== undefined ? { metadataLost: lostText(lost) } : {}),
    partitions,
    newestTimestamp: newestOf(
      done.scanned.filter((p) => p.dir.topic !== METADATA).map((p) => p.report.newestTimestamp),
    ),
  }
}

function partitionOf(
  p: ScannedPartition,
  headers: HeaderFacts,
  meta: MetadataConfigs | null,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  states: TransactionalIdState[],
  nowMs: number,
  opts: CleanupOptions,
  remote: RemoteRetentionFacts | undefined,
): CleanupPartition {
  const r = p.report
  // the one hanging rule, as lso applies it, on every partition (not only one whose compaction it blocks)
  const judged = judgePartition(
    r,
    p.snapshots,
    p.label,
    nowMs,
    (opts.maxTransactionTimeoutMinutes ?? 15) * 60_000,
    states,
  )
  const findings: Finding[] = [...r.findings, ...judged.findings]
  const cp = checkpointOf(p.dir, checkpoints)
  const configs = resolveConfigs(r.topic, {
    ...(r.topic !== null && meta?.topics.get(r.topic) !== undefined ? { topic: meta.topics.get(r.topic)! } : {}),
    ...(meta?.brokers.get('') !== undefined ? { brokerDefault: meta.brokers.get('')! } : {}),
    ...(opts.configs !== undefined ? { flags: opts.configs } : {}),
    metadataRead: meta !== null,
    inCleanerCheckpoint: cp?.has(p.label) === true,
  })
  if (configs['cleanup.policy']!.source === 'UNKNOWN') {
    findings.push(
      finding(
        'CLEANUP_POLICY_UNKNOWN',
        `cleanup.policy of ${p.label} is unknown: no __cluster_metadata log among the paths or in their log directories, ` +
          "no --config cleanup.policy, and the log directory's cleaner-offset-checkpoint does not list it (a compacting cleaner would): " +
          'what the cleaner and retention by time or size will do is not predicted; give --config cleanup.policy=delete|compact or the metadata log',
        { firstOffset: r.logStartOffset, lastOffset: r.logEndOffset - 1n },
      ),
    )
  }
  if (meta !== null) findings.push(...meta.findings.listed.map((f) => ({ ...f })))
  const lost = meta?.lost[0]
  if (lost !== undefined) {
    // a ConfigRecord of this topic (or a broker default) may be in the lost bytes: no rule runs on a config that may be wrong
    findings.push(
      finding(
        'CONFIGS_UNKNOWN',
        `${p.label}: its configs are unknown: ${lostText(lost)}, where a config record may be; cleanup.policy, compaction and retention are not predicted`,
        { file: lost.file, position: lost.position },
      ),
    )
    return {
      label: p.label,
      topic: r.topic,
      partition: r.partition,
      cleanupPolicy: 'unknown',
      configs,
      logStartOffset: r.logStartOffset,
      lastStableOffset: r.lastStableOffset,
      highWatermark: r.highWatermark,
      logEndOffset: r.logEndOffset,
      compaction: null,
      retention: null,
      blockedBy: null,
      openTransaction: blockerOf(p, judged, opts.bootstrapServer ?? 'localhost:9092'),
      findings,
    }
  }
  const cfg = settingsOf(configs)
  const readFindings = new FindingList()
  const segments = cleanupSegments(localFilesOf(p.dir), readFindings)
  const reported = new Set<string>()
  const read: ReadSegment = (seg, visit) => {
    readCleanupSegment(seg, visit, readFindings, reported, opts.resync !== false)
  }
  // the segments' timestamps (retention, min.compaction.lag.ms) and the aborted transactions, from the scan's headers
  headers.fill(segments)
  const now = BigInt(nowMs)
  const out: CleanupPartition = {
    label: p.label,
    topic: r.topic,
    partition: r.partition,
    cleanupPolicy: configs['cleanup.policy']!.value,
    configs,
    logStartOffset: r.logStartOffset,
    lastStableOffset: r.lastStableOffset,
    highWatermark: r.highWatermark,
    logEndOffset: r.logEndOffset,
    compaction: null,
    retention: null,
    blockedBy: null,
    openTransaction: blockerOf(p, judged, opts.bootstrapServer ?? 'localhost:9092'),
    findings,
  }
  if (segments.length === 0) return located(out)
  if (cfg.compact) {
    if (cp === null)
      findings.push(
        finding(
          'CLEANER_CHECKPOINT_UNREADABLE',
          `${path.join(p.dir.logDir, 'cleaner-offset-checkpoint')} is missing or malformed: the first dirty offset is the log start ${r.logStartOffset}`,
          { file: path.join(p.dir.logDir, 'cleaner-offset-checkpoint') },
        ),
      )
    const entry = cp?.get(p.label)
    out.compaction = predictCompaction({
      segments,
      read,
      aborted: headers.abortedTxns(),
      offsetMapEntries: offsetMapEntries(configs),
      countKeys: (opts.top ?? 0) > 0,
      logStartOffset: r.logStartOffset,
      logEndOffset: r.logEndOffset,
      lastStableOffset: r.lastStableOffset,
      openTransaction: r.lastStableOffset < r.highWatermark,
      checkpoint: entry,
      settings: cfg,
      nowMs: now,
    })
    if (out.compaction.checkpointReset) {
      findings.push(
        finding(
          'CLEANER_CHECKPOINT_OUT_OF_RANGE',
          `cleaner-offset-checkpoint has ${entry} for ${p.label}, outside its log [${r.logStartOffset}, ${r.logEndOffset}]: the cleaner resets it to the log start ${r.logStartOffset}`,
          { file: path.join(p.dir.logDir, 'cleaner-offset-checkpoint') },
        ),
      )
    }
    if (out.compaction.uncleanableBecause === 'last-stable-offset') out.blockedBy = out.openTransaction
  }
  // the log-start rule deletes under every policy (UnifiedLog.deleteOldSegments: compact only skips the time and size rules)
  // a topic with remote storage: local.retention.* locally, retention.* over the whole log (remote-retention.ts)
  const tiered = tieredRetentionOf(configs, cfg, remote, {
    local: segments,
    logStartOffset: r.logStartOffset,
    highWatermark: r.highWatermark,
    logEndOffset: r.logEndOffset,
    nowMs: now,
  })
  const retention = predictRetention(segments, r.logStartOffset, r.highWatermark, r.logEndOffset, cfg, now)
  if (tiered !== null) out.tieredRetention = tiered
  else if (cfg.delete || retention.deleted.length > 0) out.retention = retention
  findings.push(...readFindings.listed)
  return located(out)
}

/** every finding located: one without a byte position names the partition and its offsets */
function located(p: CleanupPartition): CleanupPartition {
  locatePartitionFindings(
    p.findings,
    p.label,
    p.logStartOffset,
    p.logEndOffset > p.logStartOffset ? p.logEndOffset - 1n : p.logStartOffset,
  )
  return p
}

function checkpointOf(dir: PartitionDir, cache: Map<string, OffsetCheckpoint | null>): OffsetCheckpoint | null {
  if (!cache.has(dir.logDir)) cache.set(dir.logDir, readCleanerCheckpoint(dir.logDir))
  return cache.get(dir.logDir)!
}

/** the open transaction holding the LSO, its verdict and `lso`'s abort commands for it */
function blockerOf(p: ScannedPartition, judged: PartitionJudgement, bootstrap: string): CleanupBlocker | null {
  const t = judged.blocking
  if (t === null) return null
  return {
    producerId: t.producerId,
    producerEpoch: t.producerEpoch,
    firstOffset: t.firstOffset,
    lastDataOffset: t.lastDataOffset,
    records: t.records,
    marker: t.marker,
    outcome: t.outcome,
    ...(t.damage !== undefined ? { damage: t.damage } : {}),
    lastTimestamp: t.lastTimestamp,
    ageMs: t.ageMs,
    ageSource: t.ageSource,
    hanging: t.hanging,
    overdue: t.verdict.overdue,
    ...(t.verdict.candidate && t.verdict.coordinatorLost !== null ? { coordinatorUnknown: true as const } : {}),
    commands: abortCommands(bootstrap, p.report.topic, p.report.partition, t),
  }
}

export function runCleanup(opts: CleanupCommandOptions, ctx: CommandContext): number {
  const bad = opts.configs === undefined ? null : checkConfigFlags(opts.configs)
  if (bad !== null) {
    ctx.stderr.write(`tsdump: error: ${bad}\n`)
    return EXIT_USAGE
  }
  const { paths, format: _format, color: _color, wide: _wide, ...lib } = opts
  const r = cleanup(paths, { ...lib, now: opts.now ?? ctx.now() })
  r.nowGiven = opts.now !== undefined
  writeUnusable([...r.unusable, ...(r.unreadable ?? [])], ctx)
  if (r.unusable.length > 0) return EXIT_USAGE
  warnIfNowBeforeData(ctx, r.nowMs, r.nowGiven, r.newestTimestamp)
  const print = opts.format === 'json' ? printCleanupJson : printCleanupText
  print(r, ctx, { colorLevel: opts.color === false ? 0 : ctx.colorLevel, wide: opts.wide === true, top: opts.top ?? 0 })
  return partitionExitCode(
    r.unusable,
    r.partitions.flatMap((p) => p.findings),
    0,
    r.unreadable,
  )
}
