// One pass over a partition's batches, in log order, computing everything `reconcile`, `txns` and
// `lso` report. Memory is bounded by the open transactions and the producers, not by the batches:
// no per-batch object is kept. Which records are final and which pending, and so the LSO, is
// lso-intervals.ts (its invariant is written there); this file tracks the transactions and markers.
import { ConsumerView } from './consumer-view.js'
import { RecentMarkers } from './duplicate-markers.js'
import { FindingList } from './finding-list.js'
import type { Finding, FindingCode } from './findings.js'
import { finding } from './findings.js'
import type { I64 } from '../bytes/int64.js'
import { i64, i64Add, toBigInt, toI64 } from '../bytes/int64.js'
import type { AnalyzerInternals, AnalyzerOptions, AnalyzerStats, PartitionReport } from './partition-report.js'
import { ProducerInts } from './producer-map.js'
import { SnapshotChecks, seedFromSnapshots } from './snapshot-seeding.js'
import { LsoIntervals } from './lso-intervals.js'
import type { Txn } from './streaming-txn.js'
import { bigOrNull, toOpen } from './streaming-txn.js'
import { LANE_MARKER, LANE_TXN } from './timeline.js'
import { TimelineRecorder } from './timeline-recorder.js'
import { MARKER_TYPES } from './transactions.js'
import { outcomeOf } from './partition-transaction.js'
import type { ExpectedAbortedTxn } from './txn-index-check.js'
import type { BatchFacts } from './batch-facts.js'
import { refillableFacts } from './batch-facts.js'
import type { HighWatermarkSource, SnapshotInput } from './partition-input.js'
import type { VisibilityCounts } from './visibility.js'
import type { DamageRef } from './transactions.js'
import { DamageMarks, indexesNotChecked, unknownOutcome } from './damage-marks.js'
import * as H from './partition-analyzer-helpers.js'

export type {
  AnalyzerHook,
  AnalyzerInternals,
  AnalyzerOptions,
  AnalyzerProgress,
  AnalyzerStats,
  OpenTransaction,
  PartitionReport,
} from './partition-report.js'

// The analyzer composes: the transactions and markers below, the LSO intervals (lso-intervals.ts), the consumer's
// view (consumer-view.ts), snapshot seeding and checks (snapshot-seeding.ts), the txns timeline
// (timeline-recorder.ts) and producer maps (producer-map.ts); its stateless helpers are partition-analyzer-helpers.ts.

const NO_EPOCHS: PartitionReport['markerCoordinatorEpochs'] = { get: () => undefined, size: 0 }

export class PartitionAnalyzer {
  private readonly open = new Map<I64, Txn>()
  /**
   * `open` iterates in firstOffset order while every transaction was opened at or after the last one's first
   * offset (batches come in offset order; only snapshot seeding can break it): then the earliest other open
   * transaction is one of the first two entries, not a scan of all open ones per marker (quadratic in the
   * transactions open at once; on 1 GiB of small transactions, few are open at once and txns' CPU did not change)
   */
  private openSorted = true
  private lastOpenFirst: I64 | null = null
  private readonly intervals = new LsoIntervals()
  private uncommitted = 0
  private seq = 0
  private committed = 0
  private aborted = 0
  private empty = 0
  private readonly recentMarkers = new RecentMarkers()
  /** bytes of the log that could not be read, and the transactions they may hide the ends of (damage-marks.ts) */
  private readonly damage = new DamageMarks()
  /** control batches by type name, COMMIT and ABORT apart (the hot ones) */
  private readonly controlBatches: Record<string, number> = {}
  private commitMarkers = 0
  private abortMarkers = 0
  /** bounded: the first findings of each code, the rest counted (finding-list.ts) */
  private readonly findings = new FindingList()
  private prevLast: I64 | null = null
  private started = false
  private firstScannedOffset: I64 = 0
  private logStartOffset: I64 | null
  private seedSnapshot: Pick<SnapshotInput, 'offset' | 'file'> | null = null
  private newestTimestamp: I64 | null = null
  private batchCount = 0
  /** the checkpoint HW; null = the log end offset, not reached by any batch during the pass */
  private readonly hw: I64 | null
  /** null when the command says nobody reads it (AnalyzerHook.markerEpochs false) */
  private readonly markerEpochs: ProducerInts | null
  /** the consumer's view (txnindex trusted); null without txnindex files */
  private readonly consumer: ConsumerView | null
  /** producer snapshots after the first batch, checked when the scan passes their offset */
  private readonly snapChecks: SnapshotChecks
  /** runs and lane for `txns`; null unless asked */
  private readonly tl: TimelineRecorder | null
  private readonly abortedTxns: ExpectedAbortedTxn[] | null
  /** canonical copy of a batch given with non-canonical (bigint) fields */
  private readonly canon: BatchFacts = refillableFacts()

  constructor(
    private readonly opts: AnalyzerOptions,
    internals: AnalyzerInternals = {},
  ) {
    this.hw = opts.checkpointHighWatermark === null ? null : i64(opts.checkpointHighWatermark)
    this.logStartOffset = opts.logStartOffset === null ? null : i64(opts.logStartOffset)
    this.consumer = opts.txnIndex !== null ? new ConsumerView(opts.txnIndex) : null
    this.snapChecks = new SnapshotChecks(opts.snapshots)
    this.markerEpochs = opts.markerEpochs === false ? null : new ProducerInts()
    this.tl =
      opts.timeline === undefined
        ? null
        : new TimelineRecorder(opts.timeline === true ? null : opts.timeline, internals.maxHeldRuns)
    this.abortedTxns = internals.collectAbortedTxns === true ? [] : null
    opts.progress?.({
      logStart: () => (this.started && this.logStartOffset !== null ? toBigInt(this.logStartOffset) : null),
      unstableFrom: () => this.intervals.earliestFirst(),
    })
  }

  stats(): AnalyzerStats {
    return {
      batches: this.batchCount,
      openTransactions: this.open.size,
      intervals: this.intervals.length,
      pendingEntries: this.intervals.pendingEntries(),
      producersWithMarkers: this.markerEpochs?.size ?? 0,
      abortedProducers: this.consumer?.abortedProducers ?? 0,
    }
  }

  private start(firstOffset: I64): void {
    this.started = true
    this.firstScannedOffset = firstOffset
    if (this.logStartOffset === null) this.logStartOffset = firstOffset
    const seed = seedFromSnapshots(this.opts.snapshots, firstOffset)
    this.seedSnapshot =
      seed.snapshot === null
        ? null
        : { offset: seed.snapshot.offset, ...(seed.snapshot.file !== undefined ? { file: seed.snapshot.file } : {}) }
    for (const p of seed.open) {
      const t = this.newTxn(i64(p.producerId), p.producerEpoch, i64(p.currentTxnFirstOffset!))
      t.seeded = true
      t.coordinatorEpoch = p.coordinatorEpoch >= 0 ? p.coordinatorEpoch : null
      t.lastTimestamp = p.lastTimestamp >= 0n ? i64(p.lastTimestamp) : null
      this.setOpen(t.producerId, t)
      this.intervals.open(t)
    }
    if (seed.finding !== null) this.findings.push(seed.finding)
    this.snapChecks.start(firstOffset)
  }

  private newTxn(producerId: I64, producerEpoch: number, firstOffset: I64): Txn {
    const t = H.newTxn(this.seq++, producerId, producerEpoch, firstOffset)
    if (this.tl !== null) this.tl.transaction(t)
    return t
  }

  /** Bytes at `at` could not be read (between the batches given before and after): see damage-marks.ts. */
  damaged(at: DamageRef, lost: boolean): void {
    this.damage.damaged(at, this.open.values(), lost ? this.prevLast : undefined)
  }

  /** The next batch, in log order. `b` may be reused by the caller afterwards. */
  add(input: BatchFacts): void {
    const b = H.needsCanonical(input) ? H.canonicalInto(this.canon, input) : input
    if (!this.started) this.start(b.baseOffset)
    this.damage.next(b.baseOffset)
    this.snapChecks.passTo(b.baseOffset, this.openFirstOffsets)
    if (this.prevLast !== null && b.baseOffset <= this.prevLast) {
      if (this.wanted('OFFSETS_NOT_INCREASING'))
        this.find('OFFSETS_NOT_INCREASING', b, H.notFollowingText(b, this.prevLast))
    }
    this.prevLast = b.lastOffset
    if (this.newestTimestamp === null || b.maxTimestamp > this.newestTimestamp) this.newestTimestamp = b.maxTimestamp
    const counted = this.hw === null || b.lastOffset < this.hw
    const seen = this.consumer !== null ? this.consumer.step(b) : 0
    if (!b.isControl) this.addData(b, counted, seen)
    else this.addControl(b)
    this.batchCount++
  }

  private addData(b: BatchFacts, counted: boolean, seen: number): void {
    const pid = b.producerId
    const open = pid >= 0 ? this.open.get(pid) : undefined
    const n = b.recordsCount
    if (!b.isTransactional || b.legacy === true) {
      if (open !== undefined) {
        const code = 'NON_TRANSACTIONAL_IN_OPEN_TXN'
        if (this.wanted(code)) this.find(code, b, H.nonTransactionalInOpenText(b, open))
      }
      if (counted) {
        this.uncommitted += n
        this.intervals.plain(n, seen)
      }
      if (this.tl !== null) this.tl.plain(b, this.batchCount)
      this.opts.sink?.plainBatch(b)
      return
    }
    let t = open
    if (t !== undefined && t.cut && b.producerEpoch !== t.producerEpoch) {
      // data of a new epoch: the transaction open at the damage ended there (its marker in the unreadable bytes, or
      // the coordinator's abort); it stays unstable with an unknown outcome, and this batch begins the next one
      this.open.delete(pid)
      t = undefined
    }
    if (t === undefined) {
      t = this.newTxn(pid, b.producerEpoch, b.baseOffset)
      const lost = this.damage.beginning(pid)
      if (lost !== undefined) {
        t.damage = lost
        t.outcome = 'unknown'
      }
      this.setOpen(pid, t)
      this.intervals.open(t)
    }
    t.records += n
    t.batches++
    t.lastDataOffset = b.lastOffset
    if (t.firstTimestamp === null) t.firstTimestamp = b.baseTimestamp
    if (t.lastTimestamp === null || b.maxTimestamp > t.lastTimestamp) t.lastTimestamp = b.maxTimestamp
    if (counted) {
      this.uncommitted += n
      this.intervals.pending(t, n, seen)
    }
    if (this.tl !== null) this.tl.txnBatch(t, LANE_TXN + t.seq, this.batchCount)
  }

  private addControl(b: BatchFacts): void {
    const c = b.control
    if (c === undefined || c === null) {
      const name = b.recordsCount === 0 ? 'EMPTY' : 'UNREADABLE'
      this.count(name)
      const code = name === 'EMPTY' ? 'EMPTY_CONTROL_BATCH' : 'UNREADABLE_CONTROL_BATCH'
      if (this.wanted(code)) this.find(code, b, H.controlWithoutRecordText(b, name))
      if (this.tl !== null) this.tl.control(b, name, this.batchCount)
      this.opts.sink?.controlBatch(b, name)
      return
    }
    const type = MARKER_TYPES[c.type]
    this.count(c.typeName)
    if (type === undefined) {
      if (this.tl !== null) this.tl.control(b, c.typeName, this.batchCount)
      this.opts.sink?.controlBatch(b, c.typeName)
      return
    }
    const pid = b.producerId
    let t = this.open.get(pid)
    if (t === undefined && this.recentMarkers.isDuplicate(pid, b.producerEpoch, type)) {
      // KAFKA-19999: the same marker again, no transaction open: one transaction, not one more empty one
      if (this.wanted('DUPLICATE_MARKER')) this.find('DUPLICATE_MARKER', b, H.duplicateMarkerText(b, type))
      if (type === 'ABORT') this.consumer?.emptyAbort(pid, b.baseOffset)
      if (this.tl !== null) this.tl.control(b, `${type} (duplicate marker, KAFKA-19999)`, this.batchCount)
      this.opts.sink?.controlBatch(b, c.typeName)
      return
    }
    this.recentMarkers.ended(pid, b.producerEpoch, type)
    if (t === undefined) {
      t = this.newTxn(pid, b.producerEpoch, b.baseOffset)
      t.empty = true
      const lost = this.damage.beginning(pid)
      if (lost !== undefined) {
        t.damage = lost
        t.outcome = 'unknown'
      }
    } else {
      this.open.delete(pid)
    }
    this.damage.ended(pid)
    if (t.damage !== undefined && this.wanted('TXN_OUTCOME_UNKNOWN'))
      this.findings.push(unknownOutcome(t, { type, offset: b.baseOffset }))
    // one object per transaction that ends, as the Txn itself: the marker's offset and type as every result names them
    t.marker = { offset: b.baseOffset, type }
    t.outcome = outcomeOf(type, t.damage)
    t.markerEpoch = b.producerEpoch
    t.coordinatorEpoch = c.coordinatorEpoch ?? null
    if (c.coordinatorEpoch !== undefined) this.markerEpochs?.set(pid, c.coordinatorEpoch)
    if (t.empty) {
      this.empty++
      if (type === 'ABORT') this.consumer?.emptyAbort(pid, b.baseOffset)
    } else {
      t.completionLastStableOffset = H.earliestOtherOpen(this.open, this.openSorted, pid) ?? i64Add(b.baseOffset, 1)
      if (type === 'COMMIT') this.committed++
      else {
        this.aborted++
        if (this.consumer !== null || this.abortedTxns !== null) {
          const x = H.abortedTxnOf(t, b.baseOffset)
          this.consumer?.abortedTxn(x)
          this.abortedTxns?.push(x)
        }
      }
      // Kafka keeps a completed transaction unstable until the HW passes its marker
      if (this.hw === null || b.baseOffset < this.hw) this.intervals.stabilize(t)
    }
    if (this.tl !== null) this.tl.txnBatch(t, LANE_MARKER, this.batchCount)
    this.opts.sink?.transactionEnded(t)
  }

  private setOpen(pid: I64, t: Txn): void {
    if (this.lastOpenFirst !== null && t.firstOffset < this.lastOpenFirst) this.openSorted = false
    this.lastOpenFirst = t.firstOffset
    this.open.set(pid, t)
  }

  /** producer -> first offset of its open transaction, for the snapshot checks */
  private readonly openFirstOffsets = (): Map<I64, I64> => H.openFirstOffsets(this.open)

  private count(name: string): void {
    if (name === 'COMMIT') this.commitMarkers++
    else if (name === 'ABORT') this.abortMarkers++
    else this.controlBatches[name] = (this.controlBatches[name] ?? 0) + 1
  }

  private find(code: FindingCode, b: BatchFacts, message: string): void {
    this.findings.push(finding(code, message, { file: b.file, position: b.position }))
  }

  /**
   * Whether a finding of `code` is still listed; if not, it is counted here and the caller skips building its
   * message (a log can have one duplicate marker or empty control batch in two batches).
   */
  private wanted(code: FindingCode): boolean {
    if (this.findings.listing(code)) return true
    this.findings.count(code, 1)
    return false
  }

  /**
   * After the last batch. `lastSegmentBaseOffset`: an empty active segment still moves the log end
   * (null: no segment name is numeric, the log start stands in).
   */
  finish(lastSegmentBaseOffset: bigint | null, scanFindings: FindingList | readonly Finding[]): PartitionReport {
    if (!this.started) this.start(this.logStartOffset ?? 0)
    const logStartOffset = this.logStartOffset ?? 0
    const leo = H.logEndOffsetOf(lastSegmentBaseOffset, this.prevLast, logStartOffset)
    this.snapChecks.passTo(leo, this.openFirstOffsets)
    const findings = new FindingList()
    findings.absorb(scanFindings)
    findings.absorb(this.findings)
    const { hw, source: highWatermarkSource } = H.highWatermarkOf(this.hw, logStartOffset, leo, findings)
    const unstable = H.inLogOrder(this.intervals.owners())
    const lso = H.lastStableOffset(unstable[0], hw, logStartOffset)
    const counts: VisibilityCounts = {
      readUncommitted: this.uncommitted,
      readCommitted: this.intervals.finalVisible,
      abortedRecords: this.intervals.finalAborted,
      pendingRecords: this.uncommitted - this.intervals.finalVisible - this.intervals.finalAborted,
    }
    let readCommittedByTxnIndex: number | null = null
    const damaged = this.damage.first
    if (this.consumer !== null) {
      readCommittedByTxnIndex = this.intervals.finalConsumer
      if (damaged === null)
        this.consumer.findings(
          this.firstScannedOffset,
          leo,
          this.intervals.finalConsumer,
          counts.readCommitted,
          lso,
          findings,
        )
    }
    if (damaged === null) for (const f of this.snapChecks.findings()) findings.push(f)
    else if (this.consumer !== null || this.opts.snapshots.length > 0) findings.push(indexesNotChecked(damaged))
    for (const t of unstable) if (t.damage !== undefined && t.marker === null) findings.push(unknownOutcome(t, null))
    const openTransactions = unstable.map((t) => toOpen(t, hw))
    return {
      topic: this.opts.topic,
      partition: this.opts.partition,
      logStartOffset: toBigInt(logStartOffset),
      logEndOffset: toBigInt(leo),
      highWatermark: toBigInt(hw),
      highWatermarkSource,
      lastStableOffset: toBigInt(lso),
      ...counts,
      readCommittedByTxnIndex,
      controlBatches: { COMMIT: this.commitMarkers, ABORT: this.abortMarkers, ...this.controlBatches },
      transactions: { committed: this.committed, aborted: this.aborted, empty: this.empty, open: this.open.size },
      openTransactions,
      abortedBeyondLso: this.intervals.abortedBeyond(),
      newestTimestamp: bigOrNull(this.newestTimestamp),
      findings: findings.listed,
      omittedFindings: findings.omitted,
      markerCoordinatorEpochs: this.markerEpochs ?? NO_EPOCHS,
      seedSnapshot: this.seedSnapshot,
      firstScannedOffset: toBigInt(this.firstScannedOffset),
      batches: this.batchCount,
      timeline: this.tl !== null ? this.tl.build(this.batchCount) : null,
      abortedTxns: this.abortedTxns,
    }
  }
}
