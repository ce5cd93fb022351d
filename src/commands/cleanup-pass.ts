// cleanup's partitions one at a time (`tsdump cleanup` and doctor): the configs, the cleaner's and retention's rules
// and the open transaction holding the LSO of each partition as its scan ends.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { finding, locatePartitionFindings } from '../analysis/findings.js'
import { abortCommands, judgePartition } from '../analysis/lso.js'
import type { PartitionJudgement } from '../analysis/lso.js'
import { resolveConfigs, settingsOf } from '../analysis/cleanup/configs.js'
import { predictCompaction } from '../analysis/cleanup/compaction.js'
import { predictRetention } from '../analysis/cleanup/retention.js'
import type { CleanupBlocker, CleanupPartition, CleanupResult } from '../analysis/cleanup/result.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { discover } from '../io/discover.js'
import type { PartitionDir } from '../io/discover.js'
import { cleanupHooks, cleanupSegments, readCleanerCheckpoint, readCleanupSegment } from '../scan/cleanup-scan.js'
import { localFilesOf, remoteRetentionFacts } from '../scan/remote-retention-facts.js'
import type { RemoteRetentionFacts } from '../scan/remote-retention-facts.js'
import { tieredRetentionOf } from '../analysis/cleanup/remote-retention.js'
import type { HeaderFacts } from '../analysis/cleanup/txn-metadata.js'
import type { ReadSegment } from '../analysis/cleanup/model.js'
import { FindingList } from '../analysis/finding-list.js'
import { lostText } from '../analysis/lost-records.js'
import { offsetMapEntries } from '../analysis/cleanup/configs.js'
import type { MetadataConfigs } from '../scan/metadata-configs.js'
import type { ScannedPartition } from '../scan/partition-scan.js'
import type { BrokerModel } from '../scan/broker-model.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { holdDuring, YoungGenerationHold } from '../io/young-generation.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'

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

const METADATA = '__cluster_metadata'

/**
 * The metadata log among the partitions given, else beside them in a log dir given; its configs are the model's
 * (read in its partition scan's pass when it is scanned, BrokerModelOptions.metadataInScan)
 */
function findMetadata(model: BrokerModel, partitions: readonly PartitionDir[]): MetadataConfigs | null {
  const given = partitions.find((d) => d.topic === METADATA)
  if (given !== undefined) return model.metadataLogOf(given).configs
  // beside the partition directories, named as they were given
  for (const logDir of new Set(partitions.map((d) => path.dirname(d.path)))) {
    const d = discover([path.join(logDir, `${METADATA}-0`)])
    if (d.problems.length === 0 && d.partitions[0] !== undefined) return model.metadataLogOf(d.partitions[0]).configs
  }
  return null
}

/** what cleanup says before its partitions, and what its command line checks after them */
export type CleanupHead = Omit<CleanupResult, 'partitions'> & { unusable: Finding[]; unreadable?: Finding[] }

/**
 * cleanup's partitions one at a time, each made as its scan ends (BrokerModel.scanEach with `hooks`) and its header
 * facts let go: what they share (the metadata log's configs, the cleaner checkpoints, the remote segments' metadata)
 * is read once, before the first (the metadata log's configs in its own partition scan, which goes first: `head`
 * is known once the first partition is handed out, or after run()).
 */
export class CleanupPass {
  /** paths that cannot be used (exit 2) and partition directories inside them that cannot be read (exit 1) */
  readonly unusable: Finding[]
  readonly unreadable: Finding[]
  private headMemo?: CleanupHead
  private metaMemo?: MetadataConfigs | null
  private readonly nowMs: number
  private readonly partitions: readonly PartitionDir[]
  /** the newest batch timestamp of the partitions so far (--now's check) */
  newestTimestamp: bigint | null = null
  private readonly scan = cleanupHooks()
  readonly hooks = this.scan.hooks
  private readonly checkpoints = new Map<string, OffsetCheckpoint | null>()
  private readonly remote: (dir: PartitionDir) => RemoteRetentionFacts | undefined
  private states: TransactionalIdState[] | null = null

  constructor(
    private readonly model: BrokerModel,
    private readonly opts: CleanupOptions,
  ) {
    // the young generation held through the discovery and what is read of it (io/young-generation.ts holdDuring)
    const { partitions, unusable, unreadable } = holdDuring(() => model.resolved())
    this.unusable = unusable
    this.unreadable = unreadable
    this.partitions = partitions
    this.nowMs = opts.now ?? Date.now()
    this.remote = remoteRetentionFacts(model.resolved().remoteMetadata)
  }

  /** the metadata log's configs (null: none), asked first at the first partition or the head */
  private get meta(): MetadataConfigs | null {
    if (this.metaMemo === undefined)
      this.metaMemo = this.unusable.length > 0 ? null : holdDuring(() => findMetadata(this.model, this.partitions))
    return this.metaMemo
  }

  /** what cleanup says before its partitions: asked before run(), the metadata log is read alone */
  get head(): CleanupHead {
    if (this.headMemo === undefined) {
      const lost = this.meta?.lost[0]
      this.headMemo = {
        unusable: this.unusable,
        ...(this.unreadable.length > 0 ? { unreadable: this.unreadable } : {}),
        nowMs: this.nowMs,
        nowGiven: this.opts.now !== undefined,
        metadataLog: this.meta?.path ?? null,
        ...(lost !== undefined ? { metadataLost: lostText(lost) } : {}),
      }
    }
    return this.headMemo
  }

  /**
   * Every partition of the model scanned (the coordinator's first), each handed to `each` in partition order as its
   * scan ends; V8's young generation held once grown to 16 MiB, as in doctor (io/young-generation.ts)
   */
  run(each: (p: CleanupPartition) => void): void {
    const young = new YoungGenerationHold()
    try {
      this.model.scanEach(
        {
          ...this.hooks,
          batch: (s) => {
            young.tick()
            this.hooks.batch(s)
          },
        },
        (s) => {
          young.check()
          const p = this.partition(s)
          if (p !== null) each(p)
        },
        true,
      )
    } finally {
      young.release()
    }
  }

  /**
   * A partition as its scan ends (null: the metadata log's own). The coordinator's states are the model's (the
   * __transaction_state partitions given or beside them, read in the scan's pass): asked at the first partition,
   * so the coordinator's partitions are scanned first (scanEach's coordinatorFirst) or this is called after the scan.
   */
  partition(p: ScannedPartition): CleanupPartition | null {
    const headers = this.scan.headers.get(p.dir)!
    this.scan.headers.delete(p.dir)
    if (p.dir.topic === METADATA) return null
    const t = p.report.newestTimestamp
    if (t !== null && (this.newestTimestamp === null || t > this.newestTimestamp)) this.newestTimestamp = t
    this.states ??= this.model.transactionState().states
    return partitionOf(p, headers, this.meta, this.checkpoints, this.states, this.nowMs, this.opts, this.remote(p.dir))
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
  // the partition's result before a rule of compaction or retention runs (a policy 'unknown' where configs are lost)
  const bare = (cleanupPolicy: string): CleanupPartition => ({
    label: p.label,
    topic: r.topic,
    partition: r.partition,
    cleanupPolicy,
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
  })
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
    return bare('unknown')
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
  const out: CleanupPartition = bare(configs['cleanup.policy']!.value)
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
