// What `transactions` takes from the broker model's one pass (scan/broker-model.ts), as hooks of the model's
// partition scan, alone or beside another command's (doctor's): each data partition's runs (scan/transaction-runs.ts),
// each __consumer_offsets partition's offset commits from the same frames, and the coordinator's records as the
// model's TransactionStateReader reads them (in that pass when the coordinator's partitions are scanned, else once
// on their own). Each goes to the bucket of its producer id as it comes (scan/transaction-buckets.ts); what spans
// producers is kept whole but small: the partitions read and damaged, each group's commits as int64 triples
// (GroupTimelines), when each id was first seen.
import * as path from 'node:path'
import type { BatchFacts } from '../analysis/batch-facts.js'
import { FindingList } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import type { AnalyzerHook } from '../analysis/partition-report.js'
import { EpisodeCutter, coordinatorState, valueFields } from '../analysis/transaction-join/episodes.js'
import { GroupTimelines } from '../analysis/transaction-join/group-positions.js'
import type { OffsetCommitRecord, PartitionRun } from '../analysis/transaction-join/types.js'
import { FileTable } from '../analysis/transaction-join/wire.js'
import { runLabel, runVersionOf } from '../analysis/transaction-join/join.js'
import { QuietBuckets } from '../analysis/transaction-join/quiet-buckets.js'
import type { DamageRef } from '../analysis/transactions.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { replacesNewest, sortStates } from '../analysis/transactional-id-state.js'
import { AsciiIntern } from '../bytes/ascii-intern.js'
import { toBigInt } from '../bytes/int64.js'
import { decodeTransactionLogValue } from '../decode/topics/transaction-state.js'
import type { TransactionValueFields } from '../decode/topics/transaction-value-fields.js'
import {
  FieldsWalk,
  PartitionLabels,
  readTransactionValueFields,
  transactionValueFields,
} from '../decode/topics/transaction-value-fields.js'
import type { PartitionDir } from '../io/discover.js'
import { SpillDir } from '../io/spill.js'
import type { BrokerModel, Scanned } from './broker-model.js'
import { CONSUMER_OFFSETS_TOPIC, TRANSACTION_STATE_TOPIC } from './broker-model.js'
import { offsetCommitTap } from './offset-commit-scan.js'
import type { ScannedCopy } from './partition-copies.js'
import { chooseCopy } from './partition-copies.js'
import type { PartitionScanOptions, ScannedPartition } from './partition-scan.js'
import { BUCKET_BYTES, Buckets, bucketCount, inputBytes } from './transaction-buckets.js'
import type { StateRecordListener } from './transaction-state-read.js'
import type { RunBytes } from './transaction-runs.js'
import { TransactionRunTap } from './transaction-runs.js'
import { txnRunW } from './run-bytes.js'
import { SharedMessages } from './shared-messages.js'

/** the hooks of the model's partition scan (doctor gives them beside its own) */
export interface TransactionsHooks {
  analyzer: (dir: PartitionDir) => AnalyzerHook
  batch: (s: BatchFacts) => void
  frames: NonNullable<PartitionScanOptions['frames']>
  scanned: (s: ScannedPartition) => void
}

export interface CollectOptions {
  /** input bytes per bucket (tests make it small to exercise the temp files); 0 or more than the input: one bucket in memory */
  bucketBytes?: number
  /** told the temp directory when there is one (tests check it is removed) */
  onSpill?: (dir: string) => void
  /**
   * false: the groups' committed offsets before and after each transaction are not wanted (doctor prints none, and
   * no finding reads them): each commit in effect is not kept (12 bytes each, 12 MiB for a million)
   */
  groupPositions?: boolean
  /**
   * true: which buckets the join would find nothing in is told as they fill (analysis/transaction-join/quiet-buckets.ts),
   * for doctor, which prints findings only
   */
  quiet?: boolean
  found?: Finding[] // where each partition's findings go as its scan ends (doctor's own list: it takes them then)
}

/** what the pass collected, for the join (scan/transactions-stream.ts) */
export interface Collected {
  buckets: Buckets
  spill: SpillDir | null
  files: FileTable
  /** the coordinator's newest state of each id (judged with where its records were lost), sorted by id */
  states: TransactionalIdState[]
  scanned: Set<string>
  damaged: Map<string, DamageRef>
  groups: GroupTimelines
  /** each __consumer_offsets partition's plain commits */
  plain: Map<string, OffsetCommitRecord[]>
  /** when each transactional id was first seen (its first coordinator record's time) */
  firstSeen: Map<string, bigint | null>
  /** the buckets the join would find nothing in (CollectOptions.quiet), else null */
  quiet: QuietBuckets | null
  findings: Finding[]
  stateLogs: string[]
  lookedIn: string[]
}

type Event = ['r', PartitionRun] | ['c', OffsetCommitRecord]
interface Copy extends ScannedCopy {
  events: Event[]
  commitFindings: readonly Finding[]
}

const labelOf = (d: PartitionDir): string => (d.topic !== null ? `${d.topic}-${d.partition}` : d.path)

export class TransactionsCollector {
  readonly hooks: TransactionsHooks
  private readonly buckets: Buckets
  private readonly spill: SpillDir | null
  private readonly files = new FileTable()
  private readonly runTap = new TransactionRunTap()
  private readonly cut: EpisodeCutter
  private readonly firstSeen = new Map<string, bigint | null>()
  /** per id the producer ids its newest record named (producer, previous, next), so that each is put once until it changes */
  private readonly named = new Map<string, [bigint, bigint, bigint]>()
  // what each coordinator record's value is read into, its topics' and partitions' strings made once
  private readonly fields = transactionValueFields()
  private readonly ids = new AsciiIntern()
  private readonly labels = new PartitionLabels()
  private readonly walk = new FieldsWalk(this.ids, this.labels)
  private readonly scannedLabels = new Set<string>()
  private readonly damaged = new Map<string, DamageRef>()
  private readonly groups = new GroupTimelines()
  private readonly positions: boolean
  private readonly quiet: QuietBuckets | null
  private readonly plain = new Map<string, OffsetCommitRecord[]>()
  private readonly found: Finding[]
  /** the messages of the findings kept to the join, equal ones one string */
  private readonly messages = new SharedMessages()
  /** partitions held in several log directories: how many copies, and the ones scanned so far */
  private readonly copies = new Map<string, { n: number; done: Copy[] }>()
  // the partition being scanned: its label, its events when it is one of several copies, its commits' findings, its plain commits
  private label = ''
  private reading = false
  private held: Event[] | null = null
  private commitFindings = new FindingList()
  private plainHere: OffsetCommitRecord[] = []
  /** the partition's transactional offset commits whose transaction has not ended yet, per producer */
  private readonly pending = new Map<bigint, OffsetCommitRecord[]>()

  constructor(
    private readonly model: BrokerModel,
    opts: CollectOptions = {},
  ) {
    this.positions = opts.groupPositions !== false
    this.found = opts.found ?? []
    const given = model.resolved().partitions.filter((d) => d.topic !== TRANSACTION_STATE_TOPIC)
    const count = new Map<string, number>()
    for (const d of given) count.set(labelOf(d), (count.get(labelOf(d)) ?? 0) + 1)
    for (const [k, n] of count) if (n > 1) this.copies.set(k, { n, done: [] })
    const n = bucketCount(
      inputBytes(given) + inputBytes(model.internalPartitions(TRANSACTION_STATE_TOPIC)),
      opts.bucketBytes ?? BUCKET_BYTES,
    )
    this.spill = n > 1 ? new SpillDir('tsdump-transactions-', n) : null
    this.buckets = new Buckets(n, this.spill, this.files)
    this.quiet = opts.quiet === true ? new QuietBuckets(n) : null
    if (this.spill !== null) opts.onSpill?.(this.spill.dir)
    // the coordinator's records: episodes to their producer's bucket as they are cut
    this.cut = new EpisodeCutter((e, seq) => {
      this.quiet?.episode(this.buckets.of(e.producerId), e, seq)
      this.buckets.put(e.producerId, ['e', seq, e])
    })
    model.onTransactionStateRecord(this.coordinatorRecord)
    this.hooks = {
      analyzer: (dir) => this.start(dir),
      batch: (s) => {
        if (this.reading) this.runTap.batch(s)
      },
      frames: (dir) =>
        dir.topic === CONSUMER_OFFSETS_TOPIC
          ? offsetCommitTap(this.commitFindings, (c) => {
              if (this.held !== null) this.held.push(['c', c])
              else this.commit(c)
            })
          : undefined,
      scanned: (s) => {
        this.end(s)
      },
    }
  }

  /** the temp files removed (the join does it when done; this when it never runs) */
  close(): void {
    this.spill?.close()
  }

  /** what was collected, once the model's scan is done (the coordinator's partitions not scanned are read now) */
  finish(scan: Omit<Scanned, 'scanned'>): Collected {
    const coordinator = scan.unusable.length > 0 ? { partitions: [], states: [] } : this.model.transactionState()
    this.cut.end()
    this.named.clear()
    // per id its newest state (copies of a partition in several log dirs hold the same ids)
    const newest = new Map<string, TransactionalIdState>()
    for (const s of coordinator.states) {
      const p = newest.get(s.transactionalId)
      if (p === undefined || replacesNewest(s.offset, p.offset)) newest.set(s.transactionalId, s)
    }
    const findings: Finding[] = [...scan.unreadable]
    for (const p of coordinator.partitions) {
      // the partition's framing damage is its scan's when it was scanned; the coordinator's timeouts are said per transaction
      const own = (p.scanned?.report.findings ?? []).filter((f) => f.severity !== 'info')
      const said = new Set(own.map((f) => `${f.code} ${f.file ?? ''} ${f.position ?? ''}`))
      for (const f of own) findings.push(f)
      for (const f of p.read.findings.listed)
        if (f.code !== 'TXN_TIMED_OUT' && !said.has(`${f.code} ${f.file ?? ''} ${f.position ?? ''}`)) findings.push(f)
    }
    for (const f of this.found) findings.push(f)
    const lookedIn = [...new Set(this.model.resolved().partitions.map((d) => path.resolve(d.logDir)))]
    return {
      buckets: this.buckets,
      spill: this.spill,
      files: this.files,
      states: sortStates([...newest.values()]),
      scanned: this.scannedLabels,
      damaged: this.damaged,
      groups: this.groups,
      plain: this.plain,
      firstSeen: this.firstSeen,
      quiet: this.quiet,
      findings,
      stateLogs: coordinator.partitions.map((p) => p.dir.path),
      lookedIn,
    }
  }

  /** one coordinator record (StateRecordListener): its value's fields read in place, the whole value only when they cannot be */
  private readonly coordinatorRecord: StateRecordListener = (id, offset, file, pos, _t, buf, at, len, whole, head) => {
    let v: TransactionValueFields | null = null
    if (whole !== null) v = whole.value === null ? null : valueFields(whole.value)
    else if (len >= 0) {
      v = this.fields
      if (!readTransactionValueFields(buf, at, len, v, this.walk, head))
        // (the reader decoded whatever its own walk refused: this one is read without an error)
        v = valueFields(decodeTransactionLogValue(buf.subarray(at, at + len), pos))
    }
    if (this.cut.isNew(id, offset)) this.cut.addState(id, v === null ? null : coordinatorState(v, file, pos, offset))
    if (!this.firstSeen.has(id)) this.firstSeen.set(id, v?.transactionLastUpdateTimestampMs ?? null)
    if (v === null) return
    const named = this.named.get(id)
    if (
      named !== undefined &&
      named[0] === v.producerId &&
      named[1] === v.previousProducerId &&
      named[2] === v.nextProducerId
    )
      return
    this.named.set(id, [v.producerId, v.previousProducerId, v.nextProducerId])
    for (const pid of [v.producerId, v.previousProducerId, v.nextProducerId])
      if (pid >= 0n) this.buckets.put(pid, ['i', pid, id])
  }

  /** a partition's scan begins (the coordinator's own are read by the model) */
  private start(dir: PartitionDir): AnalyzerHook {
    this.reading = dir.topic !== TRANSACTION_STATE_TOPIC
    if (!this.reading) return {}
    this.label = labelOf(dir)
    this.held = this.copies.has(this.label) ? [] : null
    this.commitFindings = new FindingList()
    this.plainHere = []
    this.pending.clear()
    return {
      sink: this.runTap.start(
        dir,
        (r) => {
          if (this.held !== null) this.held.push(['r', r])
          else this.run(r)
        },
        this.held === null && !this.buckets.inMemory ? this.runBytes : null,
      ),
    }
  }

  /**
   * A run as run() would put it, written to its bucket as bytes from the analyzer's transaction: one without damage
   * (run() notes a damaged one), in the temp files
   */
  private readonly runBytes: RunBytes = (
    topic,
    partition,
    t,
    file,
    position,
    timestamp,
    markerFile,
    markerPosition,
  ) => {
    if (t.damage !== undefined) return false
    if (topic === CONSUMER_OFFSETS_TOPIC && this.pending.size > 0) {
      // (a run ended by its marker: the marker's offset ends it)
      const pid = toBigInt(t.producerId)
      if (this.pending.has(pid)) {
        const m = toBigInt(t.marker!.offset)
        this.commitsEnded(pid, toBigInt(t.firstOffset), m, t.marker!.type === 'COMMIT' ? m : null)
      }
    }
    this.quiet?.streamedRun(this.buckets.ofI64(t.producerId), runLabel({ topic, partition }), t)
    const epoch = t.markerEpoch ?? t.producerEpoch
    const version = runVersionOf(t.producerEpoch, epoch, t.marker!.type, t.records, t.seeded)
    const o = this.buckets.beginRun(t.producerId, epoch, version)
    txnRunW(o, this.files, topic, partition, t, file, position, timestamp, markerFile, markerPosition)
    this.buckets.end(t.producerId)
    return true
  }

  private end(s: ScannedPartition): void {
    if (!this.reading) return
    this.reading = false
    this.runTap.end(s)
    if (this.held === null) {
      this.ended(s.report.findings, this.commitFindings.listed)
      return
    }
    const c = this.copies.get(this.label)!
    c.done.push({
      dir: s.dir,
      runs: this.held.flatMap((e) => (e[0] === 'r' ? [e[1]] : [])),
      findings: s.report.findings,
      logStartOffset: s.report.logStartOffset,
      logEndOffset: s.report.logEndOffset,
      events: this.held,
      commitFindings: this.commitFindings.listed,
    })
    this.held = null
    if (c.done.length < c.n) return
    // every copy read: the one a leader election keeps is used
    const { best, findings } = chooseCopy(this.label, c.done)
    c.done = []
    this.plainHere = []
    this.pending.clear()
    for (const e of best.events)
      if (e[0] === 'r') this.run(e[1])
      else this.commit(e[1])
    this.ended(findings, best.commitFindings)
  }

  /** the partition's runs and commits are in: its commits still pending belong to open transactions (not in effect) */
  private ended(findings: readonly Finding[], commitFindings: readonly Finding[]): void {
    this.pending.clear()
    this.scannedLabels.add(this.label)
    for (const f of findings)
      if (f.severity !== 'info' || f.code === 'PARTITION_COPY_CHOSEN') this.found.push(this.messages.share(f))
    if (!this.label.startsWith(`${CONSUMER_OFFSETS_TOPIC}-`)) return
    this.plain.set(this.label, this.plainHere)
    if (this.positions) this.groups.addPlain(this.label, this.plainHere)
    for (const f of commitFindings) this.found.push(this.messages.share(f))
  }

  private run(r: PartitionRun): void {
    // the last damaged run of a partition says where (as the join always took it)
    if (r.damage !== undefined) this.damaged.set(`${r.topic}-${r.partition}`, r.damage)
    if (r.topic === CONSUMER_OFFSETS_TOPIC)
      this.commitsEnded(
        r.producerId,
        r.firstOffset,
        r.marker?.offset ?? r.lastDataOffset ?? r.firstOffset,
        r.marker?.type === 'COMMIT' ? r.marker.offset : null,
      )
    this.quiet?.partitionRun(this.buckets.of(r.producerId), runLabel(r), r)
    this.buckets.put(r.producerId, ['r', r])
  }

  private commit(c: OffsetCommitRecord): void {
    if (!c.transactional) {
      this.plainHere.push(c)
      return
    }
    this.buckets.put(c.producerId, ['c', this.label, c])
    let l = this.pending.get(c.producerId)
    if (l === undefined) {
      l = []
      this.pending.set(c.producerId, l)
    }
    l.push(c)
  }

  /**
   * A __consumer_offsets run of producer `pid` ended: its transactional commits inside it (from its first offset
   * `first` to its marker, or its last data `end`) take effect at its marker `at` when it is a COMMIT, never when an
   * ABORT (GroupMetadata.completePendingTxnOffsetCommit, OffsetMetadataManager.replayEndTransactionMarker)
   */
  private commitsEnded(pid: bigint, first: bigint, end: bigint, at: bigint | null): void {
    const l = this.pending.get(pid)
    if (l === undefined) return
    let keep = 0
    for (const x of l) {
      if (x.recordOffset > end) {
        l[keep++] = x
        continue
      }
      if (at !== null && x.recordOffset >= first && this.positions)
        this.groups.add(this.label, x.group, x.topic, x.partition, { record: x.recordOffset, at, offset: x.offset })
    }
    l.length = keep
    if (keep === 0) this.pending.delete(pid)
  }
}
