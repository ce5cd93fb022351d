// One pass over a partition's batches, in log order, computing everything `reconcile`, `txns` and
// `lso` report. Memory is bounded by the open transactions and the producers, not by the batches:
// no per-batch object is kept (spec §6.1, §6.4).
//
// Visibility without keeping batches. H is the high watermark (from the checkpoint; without one it is
// the log end offset, which no batch reaches, so H = +∞ during the pass). Let m be the first offset of
// the earliest transaction that is still unstable (open, or ended by a marker at or above H). Every
// batch before m belongs to a stable transaction or to none, and the final LSO is ≥ m (a transaction
// unstable at the end is unstable now or starts later), so batches before m are final: `fin*`.
// Batches after m go into *intervals*, one per unstable transaction, starting at its first batch: each
// holds the records of stable transactions and plain batches (visible / aborted) and, per still-open
// transaction, its pending records. When a transaction becomes stable (marker below H) its pending
// records turn visible or aborted, and its interval merges into the previous one (or into `fin*`).
// At the end the LSO is the first interval's start (or H); what is left in intervals is pending.
// This relies on offsets increasing along the log; where they do not (OFFSETS_NOT_INCREASING) the
// counts follow log order.
import type { Finding } from './findings.js'
import type { I64 } from './i64.js'
import { i64, i64Add, toBigInt, toI64 } from './i64.js'
import type { Timeline, TimelineRun } from './timeline.js'
import { LANE_CONTROL, LANE_MARKER, LANE_PLAIN, LANE_TXN } from './timeline.js'
import type { Transaction } from './transactions.js'
import { MARKER_TYPES, pickSeedSnapshot } from './transactions.js'
import type { ExpectedAbortedTxn, TxnIndexTable } from './txn-index-check.js'
import { TxnIndexChecker } from './txn-index-check.js'
import type { BatchFacts, HighWatermarkSource, PartitionMeta, SnapshotInput } from './txn-input.js'
import type { VisibilityCounts } from './visibility.js'

export interface OpenTransaction {
  producerId: bigint
  producerEpoch: number
  firstOffset: bigint
  /** last data offset seen; null when none was (a snapshot-seeded transaction with no data left in the log) */
  lastOffset: bigint | null
  records: number
  firstTimestamp: bigint | null
  lastTimestamp: bigint | null
  coordinatorEpoch: number | null
  /** 'open': no marker yet; 'awaiting-high-watermark': its marker is at or above the HW */
  state: 'open' | 'awaiting-high-watermark'
  /** began before the first scanned offset (from a producer snapshot) */
  seeded: boolean
}

export interface PartitionReport extends VisibilityCounts {
  topic: string | null
  partition: number | null
  logStartOffset: bigint
  logEndOffset: bigint
  highWatermark: bigint
  highWatermarkSource: HighWatermarkSource
  lastStableOffset: bigint
  /** read_committed as a consumer trusting .txnindex would count it; null when no txnindex could be read */
  readCommittedByTxnIndex: number | null
  controlBatches: Record<string, number>
  transactions: { committed: number, aborted: number, empty: number, open: number }
  /** transactions holding the LSO, earliest first */
  openTransactions: OpenTransaction[]
  /** records of aborted transactions in [LSO, HW): part of pendingRecords, yet no read_committed consumer will get them */
  abortedBeyondLso: number
  /** newest batch timestamp in the partition (maxTimestamp), null without batches */
  newestTimestamp: bigint | null
  findings: Finding[]
  /** per producer, the coordinator epoch of its latest COMMIT/ABORT marker (for `lso`) */
  markerCoordinatorEpochs: { get: (producerId: bigint) => number | undefined, readonly size: number }
  /** the snapshot that seeded transactions open at the first scanned offset, if any */
  seedSnapshot: SnapshotInput | null
  /** first offset the scan saw (first batch, else the log start) */
  firstScannedOffset: bigint
  batches: number
  /** runs and lane, when asked for (`timeline: true`) */
  timeline: Timeline | null
  /** the txnindex entries the markers imply, in marker order, when asked for (`collectAbortedTxns: true`) */
  abortedTxns: ExpectedAbortedTxn[] | null
}

export interface AnalyzerOptions extends PartitionMeta {
  /** the partition's .txnindex entries; null when they could not be looked for */
  txnIndex: TxnIndexTable | null
  /** collect runs and lane for `txns` (output-proportional memory) */
  timeline?: boolean
  /** keep the implied txnindex entries (tests) */
  collectAbortedTxns?: boolean
}

/** Sizes of the analyzer's growing structures, for tests that memory does not follow the batch count. */
export interface AnalyzerStats {
  batches: number
  openTransactions: number
  intervals: number
  pendingEntries: number
  producersWithMarkers: number
  abortedProducers: number
}

/** A Transaction with I64 fields while streaming; finish() turns them into bigints in place. */
interface Txn extends Omit<Transaction, 'producerId' | 'firstOffset' | 'lastDataOffset' | 'firstTimestamp' | 'lastTimestamp' | 'markerOffset' | 'completionLastStableOffset'> {
  producerId: I64
  firstOffset: I64
  lastDataOffset: I64 | null
  firstTimestamp: I64 | null
  lastTimestamp: I64 | null
  markerOffset: I64 | null
  completionLastStableOffset: I64 | null
  /** its interval while it holds the LSO */
  iv: Interval | null
  /** timeline: batch indexes of its first and last batch (data or marker) and their count */
  firstIndex: number
  lastIndex: number
  spanBatches: number
}

interface Interval {
  owner: Txn
  visible: number
  aborted: number
  consumer: number
  /** records of the owner while it is open (the common case, kept out of `pending`) */
  own: number
  /** records of other still-open transactions; null until there are any */
  pending: Map<Txn, number> | null
}

/**
 * Producer id → int32, as an open-addressing hash table in typed arrays (12 bytes a slot): one entry per
 * producer that ever wrote a marker, without a heap object each (a Map of 10^5 producers made the heap
 * grow by tens of MB). Producer ids outside [-2^53, 2^53) (none in practice) go to a Map.
 */
export class ProducerInts {
  private keys = new Float64Array(1024)
  private vals = new Int32Array(1024)
  private used = new Uint8Array(1024)
  private n = 0
  private readonly big = new Map<bigint, number>()

  get size (): number { return this.n + this.big.size }

  private slot (k: number, keys: Float64Array, used: Uint8Array): number {
    const mask = keys.length - 1
    let h = Math.imul((k >>> 0) ^ Math.imul(Math.floor(k / 4294967296) | 0, 0x9e3779b1), 0x85ebca6b)
    h = (h ^ (h >>> 15)) & mask
    while (used[h] === 1 && keys[h] !== k) h = (h + 1) & mask
    return h
  }

  get (pid: I64): number | undefined {
    const k = toI64(pid)
    if (typeof k === 'bigint') return this.big.get(k)
    const i = this.slot(k, this.keys, this.used)
    return this.used[i] === 1 ? this.vals[i] : undefined
  }

  set (pid: I64, v: number): void {
    const k = toI64(pid)
    if (typeof k === 'bigint') { this.big.set(k, v); return }
    let i = this.slot(k, this.keys, this.used)
    if (this.used[i] === 0) {
      if ((this.n + 1) * 2 > this.keys.length) { this.grow(); i = this.slot(k, this.keys, this.used) }
      this.used[i] = 1
      this.keys[i] = k
      this.n++
    }
    this.vals[i] = v
  }

  private grow (): void {
    const { keys, vals, used } = this
    const cap = keys.length * 2
    this.keys = new Float64Array(cap); this.vals = new Int32Array(cap); this.used = new Uint8Array(cap)
    for (let j = 0; j < keys.length; j++) {
      if (used[j] === 0) continue
      const i = this.slot(keys[j]!, this.keys, this.used)
      this.used[i] = 1; this.keys[i] = keys[j]!; this.vals[i] = vals[j]!
    }
  }
}

interface SnapshotCheck { s: SnapshotInput, findings: Finding[] | null }

export class PartitionAnalyzer {
  private readonly open = new Map<I64, Txn>()
  private readonly intervals: Interval[] = []
  private finVisible = 0
  private finAborted = 0
  private finConsumer = 0
  private uncommitted = 0
  private seq = 0
  private committed = 0
  private aborted = 0
  private empty = 0
  /** control batches by type name, COMMIT and ABORT apart (the hot ones) */
  private readonly controlBatches: Record<string, number> = {}
  private commitMarkers = 0
  private abortMarkers = 0
  private readonly findings: Finding[] = []
  private prevLast: I64 | null = null
  private started = false
  private firstScannedOffset: I64 = 0
  private logStartOffset: I64 | null
  private seedSnapshot: SnapshotInput | null = null
  private newestTimestamp: I64 | null = null
  private batchCount = 0
  /** the checkpoint HW; null = the log end offset, not reached by any batch during the pass */
  private readonly hw: I64 | null
  private readonly markerEpochs = new ProducerInts()
  // the consumer's view (txnindex trusted)
  private readonly checker: TxnIndexChecker | null
  private readonly table: TxnIndexTable | null
  /** the consumer's queue: txnindex entries by firstOffset (null permutation = file order) */
  private readonly queue: Uint32Array | null
  private qi = 0
  /** firstOffset of the queue's head, null when the queue is empty */
  private qHead: I64 | null = null
  private readonly abortedPids = new Set<I64>()
  // producer snapshots after the first batch, checked when the scan passes their offset
  private readonly snapChecks: SnapshotCheck[]
  private snapQueue: SnapshotCheck[] = []
  private snapQi = 0
  // timeline
  private readonly tl: { txnRuns: Run[], otherRuns: Run[], plain: (Run & { kind: 'plain' }) | null, codes: Uint32Array } | null
  private readonly abortedTxns: ExpectedAbortedTxn[] | null
  /** canonical copy of a batch given with non-canonical (bigint) fields */
  private readonly canon: BatchFacts = { baseOffset: 0, lastOffset: 0, recordsCount: 0, producerId: -1, producerEpoch: -1, isTransactional: false,
    isControl: false, baseTimestamp: -1, maxTimestamp: -1, control: undefined, legacy: undefined, file: undefined, position: undefined }

  constructor (private readonly opts: AnalyzerOptions) {
    this.hw = opts.checkpointHighWatermark === null ? null : i64(opts.checkpointHighWatermark)
    this.logStartOffset = opts.logStartOffset === null ? null : i64(opts.logStartOffset)
    this.table = opts.txnIndex
    this.checker = opts.txnIndex !== null ? new TxnIndexChecker(opts.txnIndex) : null
    this.queue = opts.txnIndex !== null ? opts.txnIndex.sortedByFirst() : null
    this.qHead = opts.txnIndex !== null && opts.txnIndex.length > 0 ? i64(opts.txnIndex.firstOffset(this.queueAt(0))) : null
    this.snapChecks = opts.snapshots.map((s) => ({ s, findings: null }))
    this.tl = opts.timeline === true ? { txnRuns: [], otherRuns: [], plain: null, codes: new Uint32Array(1024) } : null
    this.abortedTxns = opts.collectAbortedTxns === true ? [] : null
  }

  stats (): AnalyzerStats {
    let pendingEntries = 0
    for (const iv of this.intervals) pendingEntries += (iv.pending?.size ?? 0) + (iv.own > 0 ? 1 : 0)
    return { batches: this.batchCount, openTransactions: this.open.size, intervals: this.intervals.length, pendingEntries,
      producersWithMarkers: this.markerEpochs.size, abortedProducers: this.abortedPids.size }
  }

  private start (firstOffset: I64): void {
    this.started = true
    this.firstScannedOffset = firstOffset
    if (this.logStartOffset === null) this.logStartOffset = firstOffset
    const seed = pickSeedSnapshot(this.opts.snapshots, toBigInt(firstOffset))
    this.seedSnapshot = seed
    if (seed !== null) {
      const seeded = seed.producers.filter((p) => p.currentTxnFirstOffset !== null && p.currentTxnFirstOffset < firstOffset)
      seeded.sort((a, b) => (a.currentTxnFirstOffset! < b.currentTxnFirstOffset! ? -1 : 1))
      for (const p of seeded) {
        const t = this.newTxn(i64(p.producerId), p.producerEpoch, i64(p.currentTxnFirstOffset!))
        t.seeded = true
        t.coordinatorEpoch = p.coordinatorEpoch >= 0 ? p.coordinatorEpoch : null
        t.lastTimestamp = p.lastTimestamp >= 0n ? i64(p.lastTimestamp) : null
        this.open.set(t.producerId, t)
        this.openInterval(t)
      }
      if (seed.offset < firstOffset && seeded.length > 0) {
        this.findings.push({ severity: 'info', code: 'SNAPSHOT_BEFORE_FIRST_BATCH', ...(seed.file !== undefined ? { file: seed.file } : {}),
          message: `producer snapshot at ${seed.offset} predates the first batch (${firstOffset}): a transaction it lists as open may have ended in between` })
      }
    }
    this.snapQueue = this.snapChecks.filter((c) => c.s.offset > firstOffset).sort((a, b) => (a.s.offset < b.s.offset ? -1 : a.s.offset > b.s.offset ? 1 : 0))
  }

  private newTxn (producerId: I64, producerEpoch: number, firstOffset: I64): Txn {
    const t: Txn = {
      seq: this.seq++, producerId, producerEpoch, markerEpoch: null, firstOffset, lastDataOffset: null,
      records: 0, batches: 0, firstTimestamp: null, lastTimestamp: null, outcome: null, markerOffset: null,
      coordinatorEpoch: null, seeded: false, empty: false, completionLastStableOffset: null,
      iv: null, firstIndex: -1, lastIndex: -1, spanBatches: 0,
    }
    if (this.tl !== null) this.tl.txnRuns.push({ kind: 'transaction', firstOffset, txn: t, interleaved: false })
    return t
  }

  private openInterval (t: Txn): void {
    const iv: Interval = { owner: t, visible: 0, aborted: 0, consumer: 0, own: 0, pending: null }
    t.iv = iv
    this.intervals.push(iv)
  }

  /** `t` ended below the HW: its records are final wherever they are, and it no longer bounds the LSO. */
  private stabilize (t: Txn): void {
    const iv = t.iv
    if (iv === null) return
    t.iv = null
    const ivs = this.intervals
    const at = ivs.indexOf(iv)
    const commit = t.outcome === 'COMMIT'
    if (commit) iv.visible += iv.own
    else iv.aborted += iv.own
    iv.own = 0
    for (let j = at + 1; j < ivs.length; j++) {
      const x = ivs[j]!
      const p = x.pending?.get(t)
      if (p === undefined) continue
      x.pending!.delete(t)
      if (commit) x.visible += p
      else x.aborted += p
    }
    if (at === 0) {
      // nothing still open can have records here: a transaction writes into the newest interval, at or after its own
      this.finVisible += iv.visible; this.finAborted += iv.aborted; this.finConsumer += iv.consumer
    } else {
      const prev = ivs[at - 1]!
      prev.visible += iv.visible; prev.aborted += iv.aborted; prev.consumer += iv.consumer
      if (iv.pending !== null) for (const [k, v] of iv.pending) addPending(prev, k, v)
    }
    if (at === ivs.length - 1) ivs.pop()
    else ivs.splice(at, 1)
  }

  /** The next batch, in log order. `b` may be reused by the caller afterwards. */
  add (input: BatchFacts): void {
    const b = typeof input.baseOffset === 'bigint' || typeof input.lastOffset === 'bigint' || typeof input.producerId === 'bigint' ||
      typeof input.baseTimestamp === 'bigint' || typeof input.maxTimestamp === 'bigint' ? this.canonical(input) : input
    if (!this.started) this.start(b.baseOffset)
    while (this.snapQi < this.snapQueue.length && this.snapQueue[this.snapQi]!.s.offset <= b.baseOffset) this.checkSnapshot(this.snapQueue[this.snapQi++]!)
    if (this.prevLast !== null && b.baseOffset <= this.prevLast) {
      this.find('warning', 'OFFSETS_NOT_INCREASING', b, `batch at offset ${b.baseOffset} does not follow offset ${this.prevLast}`)
    }
    this.prevLast = b.lastOffset
    if (this.newestTimestamp === null || b.maxTimestamp > this.newestTimestamp) this.newestTimestamp = b.maxTimestamp
    const counted = this.hw === null || b.lastOffset < this.hw
    const seen = this.table !== null ? this.consumerStep(b) : 0
    if (!b.isControl) this.addData(b, counted, seen)
    else this.addControl(b)
    this.batchCount++
  }

  private canonical (x: BatchFacts): BatchFacts {
    const c = this.canon
    c.baseOffset = toI64(x.baseOffset); c.lastOffset = toI64(x.lastOffset); c.recordsCount = x.recordsCount; c.producerId = toI64(x.producerId)
    c.producerEpoch = x.producerEpoch; c.isTransactional = x.isTransactional; c.isControl = x.isControl
    c.baseTimestamp = toI64(x.baseTimestamp); c.maxTimestamp = toI64(x.maxTimestamp); c.control = x.control; c.legacy = x.legacy
    c.file = x.file; c.position = x.position
    return c
  }

  private queueAt (k: number): number { return this.queue === null ? k : this.queue[k]! }

  /** CompletedFetch.nextFetchedRecord for one batch: the records a consumer trusting .txnindex returns. */
  private consumerStep (b: BatchFacts): number {
    const pid = b.producerId
    if (pid >= 0) {
      while (this.qHead !== null && this.qHead <= b.lastOffset) {
        const t = this.table!
        this.abortedPids.add(i64(t.producerId(this.queueAt(this.qi++))))
        this.qHead = this.qi < t.length ? i64(t.firstOffset(this.queueAt(this.qi))) : null
      }
      if (b.isControl) {
        if (b.control?.type === 0) this.abortedPids.delete(pid)
        return 0
      }
      if (b.isTransactional && this.abortedPids.size > 0 && this.abortedPids.has(pid)) return 0
    }
    return b.isControl ? 0 : b.recordsCount
  }

  private addData (b: BatchFacts, counted: boolean, seen: number): void {
    const pid = b.producerId
    const open = pid >= 0 ? this.open.get(pid) : undefined
    const n = b.recordsCount
    const ivs = this.intervals
    if (!b.isTransactional || b.legacy === true) {
      if (open !== undefined) {
        this.find('warning', 'NON_TRANSACTIONAL_IN_OPEN_TXN', b,
          `producer ${pid} wrote a non-transactional batch at ${b.baseOffset} while its transaction from ${open.firstOffset} was open (brokers reject this)`)
      }
      if (counted) {
        this.uncommitted += n
        const last = ivs[ivs.length - 1]
        if (last === undefined) { this.finVisible += n; this.finConsumer += seen } else { last.visible += n; last.consumer += seen }
      }
      if (this.tl !== null) this.timelinePlain(b)
      return
    }
    let t = open
    if (t === undefined) {
      t = this.newTxn(pid, b.producerEpoch, b.baseOffset)
      this.open.set(pid, t)
      this.openInterval(t)
    }
    t.records += n
    t.batches++
    t.lastDataOffset = b.lastOffset
    if (t.firstTimestamp === null) t.firstTimestamp = b.baseTimestamp
    if (t.lastTimestamp === null || b.maxTimestamp > t.lastTimestamp) t.lastTimestamp = b.maxTimestamp
    if (counted) {
      this.uncommitted += n
      const last = ivs[ivs.length - 1]! // t is open, so its interval (or a later one) exists
      addPending(last, t, n)
      last.consumer += seen
    }
    if (this.tl !== null) this.timelineTxn(t, LANE_TXN + t.seq)
  }

  private addControl (b: BatchFacts): void {
    const c = b.control
    if (c === undefined || c === null) {
      const name = b.recordsCount === 0 ? 'EMPTY' : 'UNREADABLE'
      this.count(name)
      this.find(name === 'EMPTY' ? 'info' : 'warning', name === 'EMPTY' ? 'EMPTY_CONTROL_BATCH' : 'UNREADABLE_CONTROL_BATCH', b,
        name === 'EMPTY'
          ? `control batch at offset ${b.baseOffset} has no records (compacted marker, KAFKA-7467); not counted as COMMIT/ABORT`
          : `control batch at offset ${b.baseOffset} could not be read; not counted as COMMIT/ABORT`)
      if (this.tl !== null) this.timelineControl(b, name)
      return
    }
    const outcome = MARKER_TYPES[c.type]
    this.count(c.typeName)
    if (outcome === undefined) { if (this.tl !== null) this.timelineControl(b, c.typeName); return }
    const pid = b.producerId
    let t = this.open.get(pid)
    if (t === undefined) {
      t = this.newTxn(pid, b.producerEpoch, b.baseOffset)
      t.empty = true
    } else {
      this.open.delete(pid)
    }
    t.outcome = outcome
    t.markerOffset = b.baseOffset
    t.markerEpoch = b.producerEpoch
    t.coordinatorEpoch = c.coordinatorEpoch ?? null
    if (c.coordinatorEpoch !== undefined) this.markerEpochs.set(pid, c.coordinatorEpoch)
    if (t.empty) {
      this.empty++
      if (outcome === 'ABORT') this.checker?.emptyAbort(toBigInt(pid), toBigInt(b.baseOffset))
    } else {
      t.completionLastStableOffset = this.earliestOtherOpen(pid) ?? i64Add(b.baseOffset, 1)
      if (outcome === 'COMMIT') this.committed++
      else {
        this.aborted++
        if (this.checker !== null || this.abortedTxns !== null) {
          const x = { producerId: toBigInt(pid), firstOffset: toBigInt(t.firstOffset), lastOffset: toBigInt(b.baseOffset), lastStableOffset: toBigInt(t.completionLastStableOffset) }
          this.checker?.abortedTxn(x)
          this.abortedTxns?.push(x)
        }
      }
      // Kafka keeps a completed transaction unstable until the HW passes its marker
      if (this.hw === null || b.baseOffset < this.hw) this.stabilize(t)
    }
    if (this.tl !== null) this.timelineTxn(t, LANE_MARKER)
  }

  private earliestOtherOpen (producerId: I64): I64 | null {
    let min: I64 | null = null
    for (const [pid, t] of this.open) if (pid !== producerId && (min === null || t.firstOffset < min)) min = t.firstOffset
    return min
  }

  /** A producer snapshot at offset n lists the transactions open at n: compare with ours (those open now). */
  private checkSnapshot (c: SnapshotCheck): void {
    const s = c.s
    const out: Finding[] = []
    const ours = new Map<I64, I64>()
    for (const [pid, t] of this.open) ours.set(pid, t.firstOffset)
    const theirs = new Map(s.producers.filter((p) => p.currentTxnFirstOffset !== null).map((p) => [i64(p.producerId), i64(p.currentTxnFirstOffset!)]))
    const at = s.file !== undefined ? { file: s.file } : {}
    for (const [pid, first] of theirs) {
      const mine = ours.get(pid)
      if (mine !== first) {
        out.push({ severity: 'warning', code: 'SNAPSHOT_TXN_MISMATCH', ...at,
          message: `producer snapshot at ${s.offset} says producer ${pid} has a transaction open since ${first}; the log says ${mine === undefined ? 'none is open' : `it is open since ${mine}`}` })
      }
    }
    for (const [pid, first] of ours) {
      if (!theirs.has(pid)) {
        out.push({ severity: 'warning', code: 'SNAPSHOT_TXN_MISMATCH', ...at,
          message: `the log has producer ${pid}'s transaction open since ${first} at offset ${s.offset}, the producer snapshot there lists none (marker removed by compaction?)` })
      }
    }
    c.findings = out
  }

  private count (name: string): void {
    if (name === 'COMMIT') this.commitMarkers++
    else if (name === 'ABORT') this.abortMarkers++
    else this.controlBatches[name] = (this.controlBatches[name] ?? 0) + 1
  }

  private find (severity: Finding['severity'], code: string, b: BatchFacts, message: string): void {
    this.findings.push({ severity, code, message, ...(b.file !== undefined ? { file: b.file } : {}),
      ...(b.position !== undefined ? { position: b.position } : {}) })
  }

  // ---- timeline (txns) ----

  private laneCode (code: number): void {
    const tl = this.tl!
    if (this.batchCount === tl.codes.length) {
      const c = new Uint32Array(tl.codes.length * 2)
      c.set(tl.codes)
      tl.codes = c
    }
    tl.codes[this.batchCount] = code
  }

  private timelinePlain (b: BatchFacts): void {
    const tl = this.tl!
    const p = tl.plain
    if (p !== null && p.producerId === b.producerId && p.producerEpoch === b.producerEpoch) {
      p.lastOffset = b.lastOffset; p.records += b.recordsCount; p.batches++
    } else {
      tl.plain = { kind: 'plain', firstOffset: b.baseOffset, lastOffset: b.lastOffset, producerId: b.producerId, producerEpoch: b.producerEpoch, records: b.recordsCount, batches: 1 }
      tl.otherRuns.push(tl.plain)
    }
    this.laneCode(LANE_PLAIN)
  }

  private timelineControl (b: BatchFacts, typeName: string): void {
    const tl = this.tl!
    tl.plain = null // any other batch ends a plain run, so runs read in log order
    tl.otherRuns.push({ kind: 'control', firstOffset: b.baseOffset, typeName, producerId: b.producerId })
    this.laneCode(LANE_CONTROL)
  }

  private timelineTxn (t: Txn, code: number): void {
    this.tl!.plain = null
    if (t.spanBatches === 0) t.firstIndex = this.batchCount
    t.lastIndex = this.batchCount
    t.spanBatches++
    this.laneCode(code)
  }

  /** The runs and transactions, their I64 fields turned into bigints in place (the analyzer is done with them). */
  private buildTimeline (): Timeline {
    const tl = this.tl!
    const transactions: Transaction[] = []
    for (const r of tl.txnRuns) {
      if (r.kind !== 'transaction') continue
      const t = r.txn
      // interleaved: other batches sit between its first and last batch (data + marker)
      r.interleaved = t.spanBatches > 0 && t.lastIndex - t.firstIndex + 1 > t.spanBatches
      transactions.push(bigTxn(t))
    }
    const runs = tl.txnRuns.concat(tl.otherRuns).sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0))
    for (const r of runs) {
      r.firstOffset = toBigInt(r.firstOffset)
      if (r.kind !== 'transaction') r.producerId = toBigInt(r.producerId)
      if (r.kind === 'plain') r.lastOffset = toBigInt(r.lastOffset)
    }
    return { runs: runs as TimelineRun[], laneCodes: tl.codes.subarray(0, this.batchCount), transactions }
  }

  /**
   * After the last batch. `lastSegmentBaseOffset`: an empty active segment still moves the log end
   * (null: no segment name is numeric, the log start stands in).
   */
  finish (lastSegmentBaseOffset: bigint | null, scanFindings: readonly Finding[]): PartitionReport {
    if (!this.started) this.start(this.logStartOffset ?? 0)
    const logStartOffset = this.logStartOffset ?? 0
    const lastBase = lastSegmentBaseOffset === null ? logStartOffset : i64(lastSegmentBaseOffset)
    const afterLast = this.prevLast === null ? logStartOffset : i64Add(this.prevLast, 1)
    const leo = afterLast > lastBase ? afterLast : lastBase
    while (this.snapQi < this.snapQueue.length && this.snapQueue[this.snapQi]!.s.offset <= leo) this.checkSnapshot(this.snapQueue[this.snapQi++]!)
    const findings: Finding[] = scanFindings.concat(this.findings)
    let hw = leo
    let highWatermarkSource: HighWatermarkSource = 'logEndOffset'
    if (this.hw !== null) {
      highWatermarkSource = 'checkpoint'
      hw = this.hw
      if (hw > leo) {
        findings.push({ severity: 'warning', code: 'HIGH_WATERMARK_BEYOND_LOG_END',
          message: `replication-offset-checkpoint has high watermark ${hw} but the log ends at ${leo} (files copied from a running broker, or truncated?)` })
      }
    }
    const unstable = this.intervals.map((iv) => iv.owner)
      .sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : a.seq - b.seq))
    const first = unstable[0]
    const lso = first === undefined || first.firstOffset >= hw ? hw : first.firstOffset < logStartOffset ? logStartOffset : first.firstOffset
    const counts: VisibilityCounts = {
      readUncommitted: this.uncommitted, readCommitted: this.finVisible, abortedRecords: this.finAborted,
      pendingRecords: this.uncommitted - this.finVisible - this.finAborted,
    }
    let readCommittedByTxnIndex: number | null = null
    if (this.checker !== null) {
      for (const f of this.checker.findings(toBigInt(this.firstScannedOffset), toBigInt(leo))) findings.push(f)
      readCommittedByTxnIndex = this.finConsumer
      if (readCommittedByTxnIndex !== counts.readCommitted) {
        findings.push({ severity: 'error', code: 'CONSUMER_VIEW_DIFFERS',
          message: `markers say read_committed consumers should read ${counts.readCommitted} records below the LSO ${lso}; trusting .txnindex as consumers do, they read ${readCommittedByTxnIndex}` })
      }
    }
    for (const c of this.snapChecks) for (const f of c.findings ?? []) findings.push(f)
    const openTransactions = unstable.map((t) => toOpen(t, hw))
    return {
      topic: this.opts.topic, partition: this.opts.partition, logStartOffset: toBigInt(logStartOffset), logEndOffset: toBigInt(leo),
      highWatermark: toBigInt(hw), highWatermarkSource, lastStableOffset: toBigInt(lso), ...counts, readCommittedByTxnIndex,
      controlBatches: { COMMIT: this.commitMarkers, ABORT: this.abortMarkers, ...this.controlBatches },
      transactions: { committed: this.committed, aborted: this.aborted, empty: this.empty, open: this.open.size },
      openTransactions, abortedBeyondLso: this.intervals.reduce((n, iv) => n + iv.aborted, 0), newestTimestamp: bigOrNull(this.newestTimestamp), findings,
      markerCoordinatorEpochs: this.markerEpochs, seedSnapshot: this.seedSnapshot, firstScannedOffset: toBigInt(this.firstScannedOffset),
      batches: this.batchCount, timeline: this.tl !== null ? this.buildTimeline() : null, abortedTxns: this.abortedTxns,
    }
  }
}

/** `n` more records of the open transaction `t` in interval `iv` */
function addPending (iv: Interval, t: Txn, n: number): void {
  if (iv.owner === t) { iv.own += n; return }
  iv.pending ??= new Map()
  iv.pending.set(t, (iv.pending.get(t) ?? 0) + n)
}

function bigOrNull (v: I64 | null): bigint | null { return v === null ? null : toBigInt(v) }

/** `t` with bigint fields, converted in place: it becomes the Transaction it is typed as. */
function bigTxn (t: Txn): Transaction {
  t.producerId = toBigInt(t.producerId)
  t.firstOffset = toBigInt(t.firstOffset)
  t.lastDataOffset = bigOrNull(t.lastDataOffset)
  t.firstTimestamp = bigOrNull(t.firstTimestamp)
  t.lastTimestamp = bigOrNull(t.lastTimestamp)
  t.markerOffset = bigOrNull(t.markerOffset)
  t.completionLastStableOffset = bigOrNull(t.completionLastStableOffset)
  return t as Transaction
}

function toOpen (t: Txn, hw: I64): OpenTransaction {
  return {
    producerId: toBigInt(t.producerId), producerEpoch: t.producerEpoch, firstOffset: toBigInt(t.firstOffset), lastOffset: bigOrNull(t.lastDataOffset),
    records: t.records, firstTimestamp: bigOrNull(t.firstTimestamp), lastTimestamp: bigOrNull(t.lastTimestamp), coordinatorEpoch: t.coordinatorEpoch,
    state: t.markerOffset !== null && t.markerOffset >= hw ? 'awaiting-high-watermark' : 'open', seeded: t.seeded,
  }
}

/** TimelineRun with I64 fields while streaming (buildTimeline converts them). */
type Run =
  | { kind: 'transaction', firstOffset: I64, txn: Txn, interleaved: boolean }
  | { kind: 'plain', firstOffset: I64, lastOffset: I64, producerId: I64, producerEpoch: number, records: number, batches: number }
  | { kind: 'control', firstOffset: I64, typeName: string, producerId: I64 }
