// The broker model: what a command reads of a broker's log dir, built once per command from its paths. The paths are
// discovered once; the partitions given are scanned once (scan/partition-scan.ts), and each internal topic is read at
// most once, on first use, and shared by whatever the command asks of it:
//   __transaction_state   the newest state per transactional id (in the partition scan's own pass when it is scanned)
//   __consumer_offsets    the offset commits
//   __cluster_metadata    topic configs, partition counts (in the partition scan's own pass when it is scanned)
//   __remote_log_metadata each remote segment's newest state
// Which partitions of an internal topic are read is one rule (scan/internal-partitions.ts): given, or in the same
// log dir as a partition given.
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { internalPartitionsFor } from './internal-partitions.js'
import type { MetadataConfigs } from './metadata-configs.js'
import type { MetadataLog } from './metadata-log.js'
import { MetadataLogs } from './metadata-logs.js'
import type { MetadataPartitionCounts } from './metadata-partitions.js'
import { scanOffsetCommits } from './offset-commit-scan.js'
import type { PartitionScanOptions, ScannedPartition } from './partition-scan.js'
import { scanPartition } from './partition-scan.js'
import { remoteMetadataFirst, resolvePartitions } from './partition-paths.js'
import type { RemoteLogMetadata } from './remote-metadata.js'
import { readRemoteLogMetadata, REMOTE_LOG_METADATA_TOPIC } from './remote-metadata.js'
import type { StateRecordListener } from './transaction-state-read.js'
import { TransactionStateReader } from './transaction-state-read.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { needsIdResolved, resolveFilterIn } from './filter-resolve.js'
import { IdProducerIds } from './transactional-id.js'
import type {
  BrokerModelOptions,
  CoordinatorPartition,
  CoordinatorStates,
  ModelScanOptions,
  Scanned,
} from './broker-model-types.js'
import { composeFrames } from './broker-model-types.js'

export const TRANSACTION_STATE_TOPIC = '__transaction_state'
export const CONSUMER_OFFSETS_TOPIC = '__consumer_offsets'
export const CLUSTER_METADATA_TOPIC = '__cluster_metadata'

export type * from './broker-model-types.js'

export class BrokerModel {
  private resolvedMemo?: ReturnType<typeof resolvePartitions>
  private scanMemo?: Scanned
  private readonly readers = new Map<string, TransactionStateReader>()
  private txnMemo?: CoordinatorStates
  private readonly internal = new Map<string, PartitionDir[]>()
  private readonly commitsMemo = new Map<string, ReturnType<typeof scanOffsetCommits>>()
  private readonly metaLogs = new MetadataLogs()
  private remoteMetaMemo?: RemoteLogMetadata
  private stateRecords?: StateRecordListener
  private readonly watch: IdProducerIds | null
  /** the coordinator's partitions scanned before the others (a filter's transactional id resolved from them) */
  private readonly early = new Map<string, ScannedPartition>()
  /** the partitions scanned first whose end ModelScanOptions.scanned was told then (the remote metadata's) */
  private readonly told = new Set<string>()

  constructor(
    readonly paths: string[],
    readonly opts: BrokerModelOptions = {},
  ) {
    this.watch = opts.transactionalId === undefined ? null : new IdProducerIds(opts.transactionalId)
  }

  /** the producer ids of BrokerModelOptions.transactionalId, complete once transactionState() has run */
  watchedId(): IdProducerIds | null {
    return this.watch
  }

  /** the partitions under the paths (discovered once), or the paths that cannot be used */
  resolved(): ReturnType<typeof resolvePartitions> {
    this.resolvedMemo ??= resolvePartitions(this.paths, this.opts.remote)
    return this.resolvedMemo
  }

  /** the partitions of an internal topic this command reads: given, or in the same log dir as a partition given */
  internalPartitions(topic: string): PartitionDir[] {
    let d = this.internal.get(topic)
    if (d === undefined) {
      const given = this.resolved().partitions
      d = internalPartitionsFor(topic, given).dirs.map((p) => given.find((g) => g.path === p.path) ?? p)
      this.internal.set(topic, d)
    }
    return d
  }

  /**
   * `visit` is told every __transaction_state record as it is read (in the scan's pass or alone), before the scan:
   * `transactions` cuts the coordinator's episodes from them, with no second read and no copy of the records
   */
  onTransactionStateRecord(visit: StateRecordListener): void {
    this.stateRecords = visit
  }

  /**
   * The partition scan's tap for `opts.frames`: a __transaction_state partition's coordinator records are read in
   * the same pass as its partition facts (unless they were read already)
   */
  readonly frames: NonNullable<PartitionScanOptions['frames']> = (dir) => {
    if (this.tapsMetadata(dir)) return this.metaLogs.tap(dir)
    if (
      dir.topic !== TRANSACTION_STATE_TOPIC ||
      this.opts.coordinatorInScan === false ||
      this.txnMemo !== undefined ||
      this.readers.has(dir.path)
    )
      return undefined
    const r = new TransactionStateReader(dir, this.stateRecords, this.watch ?? undefined)
    this.readers.set(dir.path, r)
    return (frames, src, file) => r.tap(frames, src, file)
  }

  /** every partition given, scanned once (the first call's options count; later calls get the same scan) */
  scan(opts: ModelScanOptions = {}): Scanned {
    if (this.scanMemo !== undefined) return this.scanMemo
    const { partitions, unusable, unreadable } = this.resolved()
    if (unusable.length > 0) {
      this.scanMemo = { unusable, unreadable, scanned: [] }
      return this.scanMemo
    }
    const cps = new Map<string, OffsetCheckpoint | null>()
    const filter = this.coordinatorFirst(partitions, cps, opts)
    const rest = filter === undefined ? opts : { ...opts, filter }
    this.scanMemo = {
      unusable,
      unreadable,
      scanned: partitions.map((p) => {
        const s = this.early.get(p.path) ?? this.scanOne(p, cps, this.scanOptions(rest))
        if (!this.told.has(p.path)) opts.scanned?.(s)
        return s
      }),
    }
    return this.scanMemo
  }

  /**
   * Each partition handed to `each` in order as its scan ends (told `scanned` then), none kept but the coordinator's
   * (transactionState reads them); `first`: those scanned before the rest, their states known at the first partition
   */
  scanEach(opts: ModelScanOptions, each: (s: ScannedPartition) => void, first = false): Omit<Scanned, 'scanned'> {
    const { partitions, unusable, unreadable } = this.resolved()
    if (unusable.length > 0) return { unusable, unreadable }
    const cps = new Map<string, OffsetCheckpoint | null>()
    const f = this.coordinatorFirst(partitions, cps, opts)
    const own = this.scanOptions(f === undefined ? opts : { ...opts, filter: f })
    const scan = (p: PartitionDir): ScannedPartition => {
      const s = this.early.get(p.path) ?? this.scanOne(p, cps, own)
      if (p.topic === TRANSACTION_STATE_TOPIC) this.early.set(p.path, s)
      if (!this.told.has(p.path)) opts.scanned?.(s)
      return s
    }
    const ahead = partitions.filter((p) => first && this.isHere(p)).map(scan)
    for (const p of partitions) each(ahead.find((s) => s.dir.path === p.path) ?? scan(p))
    return { unusable, unreadable }
  }

  /**
   * With a filter whose transactional id is to be resolved (BrokerModelOptions.transactionalId), the coordinator's
   * partitions among the paths are scanned first, their records read in that pass (those beside the paths read
   * alone), so that the other partitions are scanned with the id's producer ids and each file is read once. The
   * coordinator writes its own records with no producer id (-1: TransactionStateManager's appends), so a filter of
   * no producer lets in what the id's would; a coordinator partition holding a batch of one of the id's producers
   * (not Kafka's writing) is scanned again with them, to stay exact. Returns the filter the rest are scanned with.
   * @throws TsdumpError NOT_FOUND when the id has no record (scan/filter-resolve.ts)
   */
  private coordinatorFirst(
    partitions: readonly PartitionDir[],
    cps: Map<string, OffsetCheckpoint | null>,
    opts: ModelScanOptions,
  ): RangeSpec | undefined {
    const f = opts.filter
    // __remote_log_metadata's partitions before any other: their scans read the metadata that the others' remote
    // plans (or notes of remote offsets not read) need as each scan starts (scan/remote-metadata-read.ts)
    const meta = remoteMetadataFirst(this.resolved())
    // a metadata partition is told as its scan ends, as the hooks that saw it begin expect (transactions' collector)
    const first = (p: PartitionDir, s: ScannedPartition): void => {
      this.early.set(p.path, s)
      if (!meta.includes(p)) return
      opts.scanned?.(s)
      this.told.add(p.path)
    }
    if (!needsIdResolved(f)) {
      for (const p of meta) first(p, this.scanOne(p, cps, this.scanOptions(opts)))
      return f
    }
    const producers = new Map<string, Set<bigint>>()
    for (const p of [...meta, ...partitions.filter((x) => x.topic === TRANSACTION_STATE_TOPIC)]) {
      const seen = new Set<bigint>()
      const theirs = opts.batch
      const s = this.scanOne(
        p,
        cps,
        this.scanOptions({
          ...opts,
          filter: { ...f, producerIds: [] },
          batch: (b) => {
            seen.add(BigInt(b.producerId))
            theirs?.(b)
          },
        }),
      )
      first(p, s)
      producers.set(p.path, seen)
    }
    const resolved = resolveFilterIn(f, this)!
    for (const p of partitions) {
      if (resolved.producerIds!.some((id) => producers.get(p.path)?.has(id) === true))
        first(p, this.scanOne(p, cps, this.scanOptions({ ...opts, filter: resolved })))
    }
    return resolved
  }

  /**
   * The same scan with the partitions other than __transaction_state's handed to `others` (worker threads); the
   * coordinator's are scanned on this thread by `here.run`, their records read in the same pass, which `others`
   * calls while its workers scan the rest.
   */
  async scanSplit(
    others: (
      dirs: PartitionDir[],
      filter: RangeSpec | undefined,
      here: { dirs: PartitionDir[]; run: () => void },
    ) => Promise<ScannedPartition[]>,
    opts: Omit<PartitionScanOptions, 'remote' | 'resync' | 'frames'> = {},
  ): Promise<Scanned> {
    if (this.scanMemo !== undefined) return this.scanMemo
    const scanned: ScannedPartition[] = []
    const { unusable, unreadable } = await this.scanSplitEach(
      async (dirs, filter, here, each) => {
        for (const s of await others(dirs, filter, here)) each(s)
      },
      (s) => scanned.push(s),
      opts,
    )
    this.scanMemo = { unusable, unreadable, scanned }
    return this.scanMemo
  }

  /**
   * scanSplit with each partition handed to `each` in partition order as soon as it is scanned, and not kept (nor is
   * the scan memoized): `others` hands its partitions on in the order given. A command that writes each partition as
   * it comes holds none of them (reconcile).
   */
  async scanSplitEach(
    others: (
      dirs: PartitionDir[],
      filter: RangeSpec | undefined,
      here: { dirs: PartitionDir[]; run: () => void },
      each: (s: ScannedPartition) => void,
    ) => Promise<void>,
    each: (s: ScannedPartition) => void,
    opts: Omit<PartitionScanOptions, 'remote' | 'resync' | 'frames'> = {},
  ): Promise<Omit<Scanned, 'scanned'>> {
    const { partitions, unusable, unreadable } = this.resolved()
    if (unusable.length > 0) return { unusable, unreadable }
    const cps = new Map<string, OffsetCheckpoint | null>()
    // a filter's transactional id first (coordinatorFirst), then the coordinator's partitions the scan did not take
    const filter = this.coordinatorFirst(partitions, cps, opts)
    // which are scanned here is decided once: the metadata log's tap is no longer wanted once it is read; the remote
    // metadata's partitions were scanned first, here
    const here = new Set(partitions.filter((p) => this.isHere(p) || this.early.has(p.path)).map((p) => p.path))
    const isState = (p: PartitionDir): boolean => here.has(p.path)
    const own = filter === undefined ? opts : { ...opts, filter }
    const states = partitions.filter((p) => isState(p) && !this.early.has(p.path))
    let ran = false
    const run = (): void => {
      if (ran) return
      ran = true
      for (const p of states) this.early.set(p.path, this.scanOne(p, cps, this.scanOptions(own)))
    }
    // the coordinator's partitions go in their places among the others'
    let at = 0
    const statesAhead = (): void => {
      for (; at < partitions.length; at++) {
        const p = partitions[at]!
        if (!isState(p)) return
        run()
        each(this.early.get(p.path)!)
      }
    }
    await others(
      partitions.filter((p) => !isState(p)),
      filter,
      { dirs: states, run },
      (s) => {
        statesAhead()
        at++
        each(s)
      },
    )
    run()
    statesAhead()
    return { unusable, unreadable }
  }

  /** the options of a partition scan of this model (its remote storage, resync and the coordinator's tap) */
  scanOptions(opts: ModelScanOptions = {}): PartitionScanOptions {
    const { scanned: _scanned, frames: theirs, ...own } = opts
    return {
      ...own,
      frames: theirs === undefined ? this.frames : composeFrames(this.frames, theirs),
      ...(this.opts.remote !== undefined ? { remote: this.opts.remote } : {}),
      ...(this.opts.resync === false ? { resync: false } : {}),
    }
  }

  /**
   * The coordinator's states: each __transaction_state partition the rule picks, read once (in the partition scan when
   * it ran, else alone now)
   */
  transactionState(): CoordinatorStates {
    if (this.txnMemo !== undefined) return this.txnMemo
    const scanned = new Map([...this.early, ...(this.scanMemo?.scanned ?? []).map((s) => [s.dir.path, s] as const)])
    const partitions = this.internalPartitions(TRANSACTION_STATE_TOPIC).map((dir): CoordinatorPartition => {
      const s = scanned.get(dir.path) ?? null
      let r = this.readers.get(dir.path)
      if (r === undefined || s === null) {
        r = new TransactionStateReader(dir, this.stateRecords, this.watch ?? undefined)
        r.readAlone()
      }
      const label = dir.topic !== null ? `${dir.topic}-${dir.partition}` : dir.path
      return { dir, label, read: r.finish(s?.report.findings), scanned: s }
    })
    this.readers.clear()
    this.txnMemo = { partitions, states: partitions.flatMap((p) => p.read.states) }
    return this.txnMemo
  }

  /** a __consumer_offsets partition's offset commits, read once */
  offsetCommits(dir: PartitionDir): ReturnType<typeof scanOffsetCommits> {
    let c = this.commitsMemo.get(dir.path)
    if (c === undefined) {
      c = scanOffsetCommits(dir)
      this.commitsMemo.set(dir.path, c)
    }
    return c
  }

  /** the metadata log's topic configs (null: no metadata log), read once */
  metadataConfigs(): MetadataConfigs | null {
    const d = this.metadataDir()
    return d === null ? null : this.metadataLogOf(d).configs
  }

  /** the metadata log's partition counts (null: no metadata log), read once */
  partitionCounts(): MetadataPartitionCounts | null {
    const d = this.metadataDir()
    return d === null ? null : this.metadataLogOf(d).counts
  }

  /**
   * A metadata log's configs and partition counts, read once: in the partition scan's pass when it was scanned with
   * its records (metadataInScan), else alone now. Its `path` is `dir`'s as given.
   */
  metadataLogOf(dir: PartitionDir): MetadataLog {
    return this.metaLogs.of(dir)
  }

  /** a partition scan of this model, and the metadata log's records it read, when it read them */
  private scanOne(
    p: PartitionDir,
    cps: Map<string, OffsetCheckpoint | null>,
    opts: PartitionScanOptions,
  ): ScannedPartition {
    const s = scanPartition(p, cps, opts)
    this.metaLogs.scanned(p, s.report.findings)
    return s
  }

  /** the model's metadata log, when its records are to be read in its partition scan's pass and were not read yet */
  private tapsMetadata(dir: PartitionDir): boolean {
    if (this.opts.metadataInScan !== true || this.opts.resync === false || dir.topic !== CLUSTER_METADATA_TOPIC)
      return false
    const m = this.metadataDir()
    return m !== null && m.path === dir.path && !this.metaLogs.has(dir)
  }

  /** scanned on this thread (not by a command's workers), and first with scanEach's `first`: taps of the model's own */
  private isHere(p: PartitionDir): boolean {
    return p.topic === TRANSACTION_STATE_TOPIC || this.tapsMetadata(p)
  }

  /** __remote_log_metadata's segments, read once: in its partitions' scans when they ran (resolvePartitions' read) */
  remoteLogMetadata(): RemoteLogMetadata {
    this.remoteMetaMemo ??=
      this.resolved().remoteMetadata.metadata() ??
      readRemoteLogMetadata(this.internalPartitions(REMOTE_LOG_METADATA_TOPIC))
    return this.remoteMetaMemo
  }

  private metadataDir(): PartitionDir | null {
    return this.internalPartitions(CLUSTER_METADATA_TOPIC).find((d) => d.partition === 0) ?? null
  }
}
