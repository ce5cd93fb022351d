// The analyzer's working form of a transaction and of an LSO interval while the batches stream past,
// shared by the analyzer (partition-analyzer.ts), its LSO intervals (lso-intervals.ts) and the timeline recorder.
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import type { OpenTransaction } from './partition-report.js'
import type { Transaction } from './transactions.js'
import type { TransactionFacts, TransactionMarker } from './partition-transaction.js'
import { outcomeOf } from './partition-transaction.js'

/** A Transaction with I64 fields while streaming; finish() turns them into bigints in place. */
export interface Txn extends TransactionFacts<I64> {
  /** Transaction.seq */
  seq: number
  /** Transaction.completionLastStableOffset */
  completionLastStableOffset: I64 | null
  /** its interval while it holds the LSO */
  iv: Interval | null
  /** it was open where bytes could not be read (analysis/damage-marks.ts): data of another epoch begins a new one */
  cut: boolean
  /** timeline: batch indexes of its first and last batch (data or marker) and their count */
  firstIndex: number
  lastIndex: number
  spanBatches: number
  /** timeline: what the recorder keeps while the transaction is open (analysis/timeline-recorder.ts), else null */
  tl: OpenRec | null
}

/** what the timeline recorder knows of an open transaction: lane groups of its data, whether it was listed early */
export interface OpenRec {
  groups: number[]
  early: boolean
}

export interface Interval {
  owner: Txn
  visible: number
  aborted: number
  consumer: number
  /** records of the owner while it is open (the common case, kept out of `pending`) */
  own: number
  /** records of other still-open transactions; null until there are any */
  pending: Map<Txn, number> | null
}

/** `n` more records of the open transaction `t` in interval `iv` */
export function addPending(iv: Interval, t: Txn, n: number): void {
  if (iv.owner === t) {
    iv.own += n
    return
  }
  iv.pending ??= new Map()
  iv.pending.set(t, (iv.pending.get(t) ?? 0) + n)
}

export function bigOrNull(v: I64 | null): bigint | null {
  return v === null ? null : toBigInt(v)
}

function markerOf(t: Txn): TransactionMarker | null {
  return t.marker === null ? null : { offset: toBigInt(t.marker.offset), type: t.marker.type }
}

/** `t` as it stands, as a Transaction (bigint fields; the analyzer goes on with `t`) */
export function toTransaction(t: Txn): Transaction {
  return {
    seq: t.seq,
    producerId: toBigInt(t.producerId),
    producerEpoch: t.producerEpoch,
    markerEpoch: t.markerEpoch,
    firstOffset: toBigInt(t.firstOffset),
    lastDataOffset: bigOrNull(t.lastDataOffset),
    records: t.records,
    batches: t.batches,
    firstTimestamp: bigOrNull(t.firstTimestamp),
    lastTimestamp: bigOrNull(t.lastTimestamp),
    marker: markerOf(t),
    outcome: t.outcome,
    coordinatorEpoch: t.coordinatorEpoch,
    seeded: t.seeded,
    empty: t.empty,
    completionLastStableOffset: bigOrNull(t.completionLastStableOffset),
    ...(t.damage !== undefined ? { damage: t.damage } : {}),
  }
}

export function toOpen(t: Txn, hw: I64): OpenTransaction {
  return {
    producerId: toBigInt(t.producerId),
    producerEpoch: t.producerEpoch,
    firstOffset: toBigInt(t.firstOffset),
    lastDataOffset: bigOrNull(t.lastDataOffset),
    // one whose marker waits for the high watermark is still open to a consumer
    records: t.records,
    marker: markerOf(t),
    outcome: outcomeOf(null, t.damage),
    firstTimestamp: bigOrNull(t.firstTimestamp),
    lastTimestamp: bigOrNull(t.lastTimestamp),
    coordinatorEpoch: t.coordinatorEpoch,
    state: t.marker !== null && t.marker.offset >= hw ? 'awaiting-high-watermark' : 'open',
    seeded: t.seeded,
    ...(t.damage !== undefined ? { damage: t.damage } : {}),
  }
}
