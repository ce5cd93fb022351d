// The transaction holding a partition's LSO below its HW: the offline counterpart of
// `kafka-transactions.sh describe-producers` + `find-hanging` (TransactionsCommand). Its age is measured
// against the clock (or --now), as find-hanging does: the stuck producer is often the partition's last
// writer, so measuring against the newest batch would never flag it. The rules are in hanging.ts.
import type { OpenTransaction, PartitionReport } from './partition-report.js'
import type { SnapshotInput } from './partition-input.js'
import type { HangingVerdict } from './hanging.js'
import { judgeOpenTransaction } from './hanging.js'
import type { TransactionalIdState } from './transactional-id-state.js'

export type CoordinatorEpochSource = 'snapshot' | 'marker' | 'unknown'

export interface BlockingTransaction extends OpenTransaction {
  coordinatorEpochSource: CoordinatorEpochSource
  /** data records in [LSO, HW) that read_committed consumers will get once the LSO moves (aborted ones excluded) */
  recordsWaiting: number
  /** records in [LSO, HW) of transactions already aborted: not waiting for anything */
  abortedBeyondLso: number
  newestTimestamp: bigint | null
  /** the time the age is measured against (the clock, or --now) */
  nowMs: number
  /** nowMs − lastTimestamp, ms; null when the timestamp is unknown */
  ageMs: bigint | null
  hanging: boolean
  verdict: HangingVerdict
  /** its transactional id is a KIP-939 two-phase-commit one: prepared, waiting for its external coordinator (set by the caller, who has __transaction_state) */
  twoPhaseCommit: boolean
}

/**
 * The producer's coordinator epoch as the broker's producer state holds it (describe-producers'
 * LatestCoordinatorEpoch): that of its newest COMMIT/ABORT marker. A marker in the scanned log is at least
 * as new as a snapshot's value (coordinator epochs only grow), so the larger one wins. A producer that never
 * had a marker written has -1 in its snapshot entry.
 */
export function coordinatorEpochOf (r: PartitionReport, t: OpenTransaction, snapshots: readonly SnapshotInput[]): { epoch: number | null, source: CoordinatorEpochSource } {
  let snap: number | null = t.seeded ? t.coordinatorEpoch : null
  if (snap === null) {
    const newest = [...snapshots].sort((a, b) => (a.offset > b.offset ? -1 : 1)).find((s) => s.coordinatorEpochs.get(t.producerId) !== undefined)
    const epoch = newest?.coordinatorEpochs.get(t.producerId)
    if (epoch !== undefined) snap = epoch
  }
  const marker = r.markerCoordinatorEpochs.get(t.producerId)
  if (marker !== undefined && (snap === null || marker >= snap)) return { epoch: marker, source: 'marker' }
  if (snap !== null) return { epoch: snap, source: 'snapshot' }
  return { epoch: null, source: 'unknown' }
}

/** The earliest transaction holding the LSO, or null when LSO = HW. */
export function findBlockingTransaction (r: PartitionReport, snapshots: readonly SnapshotInput[], maxTransactionTimeoutMs: number,
  nowMs: number, label: string, states: readonly TransactionalIdState[] = []): BlockingTransaction | null {
  if (r.lastStableOffset >= r.highWatermark) return null
  const t = r.openTransactions[0]
  if (t === undefined) return null
  const ce = coordinatorEpochOf(r, t, snapshots)
  const verdict = judgeOpenTransaction(t, label, nowMs, maxTransactionTimeoutMs, states)
  return {
    ...t, coordinatorEpoch: ce.epoch, coordinatorEpochSource: ce.source, recordsWaiting: r.pendingRecords - r.abortedBeyondLso,
    abortedBeyondLso: r.abortedBeyondLso, newestTimestamp: r.newestTimestamp, nowMs, ageMs: verdict.durationMs, hanging: verdict.hanging, verdict, twoPhaseCommit: false,
  }
}

/** The two `kafka-transactions.sh abort` forms (KIP-664) that end the blocking transaction. */
export function abortCommands (bootstrap: string, topic: string | null, partition: number | null, t: BlockingTransaction): string[] {
  const tp = `--topic ${topic ?? '<TOPIC>'} --partition ${partition ?? '<PARTITION>'}`
  const base = `kafka-transactions.sh --bootstrap-server ${bootstrap} abort ${tp}`
  // the tool would replace a negative coordinator epoch by 0 itself; print 0 when none is known
  return [`${base} --start-offset ${t.firstOffset}`,
    `${base} --producer-id ${t.producerId} --producer-epoch ${t.producerEpoch} --coordinator-epoch ${Math.max(0, t.coordinatorEpoch ?? 0)}`]
}
