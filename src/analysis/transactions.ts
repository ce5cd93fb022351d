// The transaction model of one partition, from batch headers and control records alone.
//
// Per producerId (ProducerStateManager / ProducerAppendInfo): a transaction begins at the producer's
// first transactional data batch and ends at that producer's next COMMIT or ABORT control batch,
// recognised by the parsed control type (never by key bytes). Epochs are reported, not matched: a
// coordinator that times a transaction out bumps the epoch, and with transaction.version 2 (KIP-890)
// every marker carries epoch + 1. A marker with no open transaction is an empty transaction
// (KAFKA-10702: no txnindex entry, no effect on the LSO). Transactions open before the first scanned
// offset come from the newest producer snapshot at or before it (its currentTxnFirstOffset).
import type { Finding } from './findings.js'
import type { BatchSummary, SnapshotInput, SnapshotProducer } from './txn-input.js'

export type TxnOutcome = 'COMMIT' | 'ABORT'

export interface Transaction {
  /** creation order, stable across runs */
  seq: number
  producerId: bigint
  /** epoch of the first data batch (or of the snapshot entry for seeded transactions) */
  producerEpoch: number
  /** epoch of the marker batch that ended it */
  markerEpoch: number | null
  firstOffset: bigint
  /** lastOffset of the last data batch; null when no data batch was seen */
  lastDataOffset: bigint | null
  records: number
  batches: number
  firstTimestamp: bigint | null
  lastTimestamp: bigint | null
  outcome: TxnOutcome | null
  markerOffset: bigint | null
  coordinatorEpoch: number | null
  /** opened before the first scanned offset, known from a producer snapshot */
  seeded: boolean
  /** a marker without data (an empty transaction) */
  empty: boolean
  /**
   * for completed transactions: the LSO Kafka writes into the txnindex entry, i.e. the first offset of
   * the earliest other producer's ongoing transaction, else markerOffset + 1
   * (ProducerStateManager.lastStableOffset(CompletedTxn))
   */
  completionLastStableOffset: bigint | null
}

/** What each batch is, parallel to the input batches. */
export type BatchRole =
  | { kind: 'data', txn: Transaction | null }
  | { kind: 'marker', txn: Transaction }
  | { kind: 'control', typeName: string }

export interface TxnModel {
  transactions: Transaction[]
  roles: BatchRole[]
  /** count of control batches by type name (COMMIT, ABORT, LEADER_CHANGE, ..., EMPTY, UNREADABLE) */
  controlBatches: Record<string, number>
  /** the snapshot that seeded transactions open at the first scanned offset, if any */
  seedSnapshot: SnapshotInput | null
  /** first offset the scan saw (first batch, else the log start) */
  firstScannedOffset: bigint
  findings: Finding[]
}

const MARKER_TYPES: Record<number, TxnOutcome> = { 0: 'ABORT', 1: 'COMMIT' }

/** The newest snapshot whose offset is ≤ `offset` (it describes producer state at that point). */
export function pickSeedSnapshot (snapshots: readonly SnapshotInput[], offset: bigint): SnapshotInput | null {
  let best: SnapshotInput | null = null
  for (const s of snapshots) if (s.offset <= offset && (best === null || s.offset > best.offset)) best = s
  return best
}

class ModelBuilder {
  readonly open = new Map<bigint, Transaction>()
  readonly transactions: Transaction[] = []
  readonly roles: BatchRole[] = []
  readonly controlBatches: Record<string, number> = {}
  readonly findings: Finding[] = []
  private prevLast: bigint | null = null

  seed (p: SnapshotProducer, file: string | undefined): void {
    if (p.currentTxnFirstOffset === null) return
    const t = this.newTxn(p.producerId, p.producerEpoch, p.currentTxnFirstOffset)
    t.seeded = true
    t.coordinatorEpoch = p.coordinatorEpoch >= 0 ? p.coordinatorEpoch : null
    t.lastTimestamp = p.lastTimestamp >= 0n ? p.lastTimestamp : null
    this.open.set(p.producerId, t)
    void file
  }

  private newTxn (producerId: bigint, producerEpoch: number, firstOffset: bigint): Transaction {
    const t: Transaction = {
      seq: this.transactions.length, producerId, producerEpoch, markerEpoch: null, firstOffset, lastDataOffset: null,
      records: 0, batches: 0, firstTimestamp: null, lastTimestamp: null, outcome: null, markerOffset: null,
      coordinatorEpoch: null, seeded: false, empty: false, completionLastStableOffset: null,
    }
    this.transactions.push(t)
    return t
  }

  add (b: BatchSummary): void {
    if (this.prevLast !== null && b.baseOffset <= this.prevLast) {
      this.find('warning', 'OFFSETS_NOT_INCREASING', b, `batch at offset ${b.baseOffset} does not follow offset ${this.prevLast}`)
    }
    this.prevLast = b.lastOffset
    if (!b.isControl) this.addData(b)
    else this.addControl(b)
  }

  private addData (b: BatchSummary): void {
    const open = b.producerId >= 0n ? this.open.get(b.producerId) : undefined
    if (!b.isTransactional || b.legacy === true) {
      if (open !== undefined) {
        this.find('warning', 'NON_TRANSACTIONAL_IN_OPEN_TXN', b,
          `producer ${b.producerId} wrote a non-transactional batch at ${b.baseOffset} while its transaction from ${open.firstOffset} was open (brokers reject this)`)
      }
      this.roles.push({ kind: 'data', txn: null })
      return
    }
    const t = open ?? this.newTxn(b.producerId, b.producerEpoch, b.baseOffset)
    if (open === undefined) this.open.set(b.producerId, t)
    t.records += b.recordsCount
    t.batches++
    t.lastDataOffset = b.lastOffset
    if (t.firstTimestamp === null) t.firstTimestamp = b.baseTimestamp
    if (t.lastTimestamp === null || b.maxTimestamp > t.lastTimestamp) t.lastTimestamp = b.maxTimestamp
    this.roles.push({ kind: 'data', txn: t })
  }

  private addControl (b: BatchSummary): void {
    const c = b.control
    if (c === undefined || c === null) {
      const name = b.recordsCount === 0 ? 'EMPTY' : 'UNREADABLE'
      this.count(name)
      this.find(name === 'EMPTY' ? 'info' : 'warning', name === 'EMPTY' ? 'EMPTY_CONTROL_BATCH' : 'UNREADABLE_CONTROL_BATCH', b,
        name === 'EMPTY'
          ? `control batch at offset ${b.baseOffset} has no records (compacted marker, KAFKA-7467); not counted as COMMIT/ABORT`
          : `control batch at offset ${b.baseOffset} could not be read; not counted as COMMIT/ABORT`)
      this.roles.push({ kind: 'control', typeName: name })
      return
    }
    const outcome = MARKER_TYPES[c.type]
    this.count(c.typeName)
    if (outcome === undefined) { this.roles.push({ kind: 'control', typeName: c.typeName }); return }
    let t = this.open.get(b.producerId)
    if (t === undefined) {
      t = this.newTxn(b.producerId, b.producerEpoch, b.baseOffset)
      t.empty = true
    } else {
      this.open.delete(b.producerId)
    }
    t.outcome = outcome
    t.markerOffset = b.baseOffset
    t.markerEpoch = b.producerEpoch
    t.coordinatorEpoch = c.coordinatorEpoch ?? null
    if (!t.empty) t.completionLastStableOffset = this.earliestOtherOpen(b.producerId) ?? b.baseOffset + 1n
    this.roles.push({ kind: 'marker', txn: t })
  }

  private earliestOtherOpen (producerId: bigint): bigint | null {
    let min: bigint | null = null
    for (const [pid, t] of this.open) if (pid !== producerId && (min === null || t.firstOffset < min)) min = t.firstOffset
    return min
  }

  private count (name: string): void { this.controlBatches[name] = (this.controlBatches[name] ?? 0) + 1 }

  private find (severity: Finding['severity'], code: string, b: BatchSummary, message: string): void {
    this.findings.push({ severity, code, message, ...(b.file !== undefined ? { file: b.file } : {}),
      ...(b.position !== undefined ? { position: b.position } : {}) })
  }
}

/** Build the transaction model of a partition. Pure; batches must be in log order. */
export function buildTxnModel (batches: readonly BatchSummary[], snapshots: readonly SnapshotInput[], logStartOffset: bigint): TxnModel {
  const firstScannedOffset = batches[0]?.baseOffset ?? logStartOffset
  const m = new ModelBuilder()
  const seedSnapshot = pickSeedSnapshot(snapshots, firstScannedOffset)
  if (seedSnapshot !== null) {
    const seeded = seedSnapshot.producers.filter((p) => p.currentTxnFirstOffset !== null && p.currentTxnFirstOffset < firstScannedOffset)
    seeded.sort((a, b) => (a.currentTxnFirstOffset! < b.currentTxnFirstOffset! ? -1 : 1))
    for (const p of seeded) m.seed(p, seedSnapshot.file)
    if (seedSnapshot.offset < firstScannedOffset && seeded.length > 0) {
      m.findings.push({ severity: 'info', code: 'SNAPSHOT_BEFORE_FIRST_BATCH', ...(seedSnapshot.file !== undefined ? { file: seedSnapshot.file } : {}),
        message: `producer snapshot at ${seedSnapshot.offset} predates the first batch (${firstScannedOffset}): a transaction it lists as open may have ended in between` })
    }
  }
  for (const b of batches) m.add(b)
  return {
    transactions: m.transactions, roles: m.roles, controlBatches: m.controlBatches, seedSnapshot, firstScannedOffset, findings: m.findings,
  }
}

/** Transactions open at offset `n` (started before n, not ended before n). */
export function openAt (model: TxnModel, n: bigint): Transaction[] {
  return model.transactions.filter((t) => !t.empty && t.firstOffset < n && (t.markerOffset === null || t.markerOffset >= n))
}
