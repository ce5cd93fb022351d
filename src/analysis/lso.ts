// The transaction holding a partition's LSO below its HW: the offline counterpart of
// `kafka-transactions.sh describe-producers` + `find-hanging` (TransactionsCommand). Its age is measured
// against the clock (or --now), as find-hanging does: the stuck producer is often the partition's last
// writer, so measuring against the newest batch would never flag it. The rules are in hanging.ts.
import type { Finding } from './findings.js'
import type { OpenTransaction, PartitionReport } from './partition-report.js'
import type { SnapshotInput } from './partition-input.js'
import type { AgeSource, HangingTransaction, HangingVerdict } from './hanging.js'
import { hangingFindings, hangingRow, judgeOpenTransaction } from './hanging.js'
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
  /** the age the verdict uses (analysis/hanging.ts): now − the coordinator's start, else now − lastTimestamp; null unknown */
  ageMs: bigint | null
  ageSource: AgeSource
  hanging: boolean
  verdict: HangingVerdict
  /** its transactional id is a KIP-939 two-phase-commit one: prepared, waiting for its external coordinator */
  twoPhaseCommit: boolean
}

/**
 * The producer's coordinator epoch as the broker's producer state holds it (describe-producers'
 * LatestCoordinatorEpoch): that of its newest COMMIT/ABORT marker. A marker in the scanned log is at least
 * as new as a snapshot's value (coordinator epochs only grow), so the larger one wins. A producer that never
 * had a marker written has -1 in its snapshot entry.
 */
export function coordinatorEpochOf(
  r: PartitionReport,
  t: OpenTransaction,
  snapshots: readonly SnapshotInput[],
): { epoch: number | null; source: CoordinatorEpochSource } {
  let snap: number | null = t.seeded ? t.coordinatorEpoch : null
  if (snap === null) {
    const newest = [...snapshots]
      .sort((a, b) => (a.offset > b.offset ? -1 : 1))
      .find((s) => s.coordinatorEpochs.get(t.producerId) !== undefined)
    const epoch = newest?.coordinatorEpochs.get(t.producerId)
    if (epoch !== undefined) snap = epoch
  }
  const marker = r.markerCoordinatorEpochs.get(t.producerId)
  if (marker !== undefined && (snap === null || marker >= snap)) return { epoch: marker, source: 'marker' }
  if (snap !== null) return { epoch: snap, source: 'snapshot' }
  return { epoch: null, source: 'unknown' }
}

/**
 * Records in [LSO, HW) that read_committed consumers get once the LSO moves: those pending, less those of
 * transactions already aborted. The one count every command prints as "waiting".
 */
export function recordsWaiting(r: Pick<PartitionReport, 'pendingRecords' | 'abortedBeyondLso'>): number {
  return r.pendingRecords - r.abortedBeyondLso
}

/** The earliest transaction holding the LSO, or null when LSO = HW. */
export function findBlockingTransaction(
  r: PartitionReport,
  snapshots: readonly SnapshotInput[],
  maxTransactionTimeoutMs: number,
  nowMs: number,
  label: string,
  states: readonly TransactionalIdState[] = [],
): BlockingTransaction | null {
  if (r.lastStableOffset >= r.highWatermark) return null
  const t = r.openTransactions[0]
  if (t === undefined) return null
  const ce = coordinatorEpochOf(r, t, snapshots)
  const verdict = judgeOpenTransaction(t, label, nowMs, maxTransactionTimeoutMs, states)
  return {
    ...t,
    coordinatorEpoch: ce.epoch,
    coordinatorEpochSource: ce.source,
    recordsWaiting: recordsWaiting(r),
    abortedBeyondLso: r.abortedBeyondLso,
    newestTimestamp: r.newestTimestamp,
    nowMs,
    ageMs: verdict.ageMs,
    ageSource: verdict.ageSource,
    hanging: verdict.hanging,
    verdict,
    twoPhaseCommit: verdict.twoPhaseCommit,
  }
}

/** What the hanging rule says of one partition: its blocking transaction, find-hanging's rows, the findings. */
export interface PartitionJudgement {
  blocking: BlockingTransaction | null
  hanging: HangingTransaction[]
  /** TXN_HANGING and TXN_COORDINATOR_OVERDUE of its open transactions */
  findings: Finding[]
}

/**
 * The one judgement of a partition's open transactions every command makes (lso, cleanup, report): find-hanging
 * lists every open producer, not only the one holding the LSO.
 */
export function judgePartition(
  r: PartitionReport,
  snapshots: readonly SnapshotInput[],
  label: string,
  nowMs: number,
  maxTransactionTimeoutMs: number,
  states: readonly TransactionalIdState[],
): PartitionJudgement {
  const hanging: HangingTransaction[] = []
  const findings: Finding[] = []
  for (const t of r.openTransactions) {
    const v = judgeOpenTransaction(t, label, nowMs, maxTransactionTimeoutMs, states)
    const row = hangingRow(t, v, r.topic, r.partition, coordinatorEpochOf(r, t, snapshots).epoch)
    if (row !== null) hanging.push(row)
    findings.push(...hangingFindings(t, v, label, nowMs, maxTransactionTimeoutMs))
  }
  return {
    blocking: findBlockingTransaction(r, snapshots, maxTransactionTimeoutMs, nowMs, label, states),
    hanging,
    findings,
  }
}

/** The two `kafka-transactions.sh abort` forms (KIP-664) that end the blocking transaction. */
export function abortCommands(
  bootstrap: string,
  topic: string | null,
  partition: number | null,
  t: BlockingTransaction,
): string[] {
  // none for a transaction whose marker may lie in unreadable bytes: its outcome is unknown (TXN_OUTCOME_UNKNOWN)
  if (t.damage !== undefined) return []
  // none either when the coordinator's records that may own it could not be read, or when it is committing it:
  // an ABORT here while the coordinator writes COMMIT elsewhere splits the transaction (hanging.ts)
  if (t.verdict.coordinatorLost !== null || t.verdict.coordinatorOwner?.state === 'PrepareCommit') return []
  const tp = `--topic ${topic ?? '<TOPIC>'} --partition ${partition ?? '<PARTITION>'}`
  const base = `kafka-transactions.sh --bootstrap-server ${bootstrap} abort ${tp}`
  // the tool would replace a negative coordinator epoch by 0 itself; print 0 when none is known
  return [
    `${base} --start-offset ${t.firstOffset}`,
    `${base} --producer-id ${t.producerId} --producer-epoch ${t.producerEpoch} --coordinator-epoch ${Math.max(0, t.coordinatorEpoch ?? 0)}`,
  ]
}
