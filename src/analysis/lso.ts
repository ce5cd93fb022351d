// The transaction holding a partition's LSO below its HW: the offline counterpart of
// `kafka-transactions.sh describe-producers` + `find-hanging` (TransactionsCommand): a candidate is
// hanging when its last timestamp is older than --max-transaction-timeout. Offline, "now" is the
// newest batch timestamp in the partition (the broker's clock at the last append), not the wall clock.
import type { OpenTransaction, PartitionReport } from './reconcile.js'
import type { SnapshotInput } from './txn-input.js'

export type CoordinatorEpochSource = 'snapshot' | 'marker' | 'unknown'

export interface BlockingTransaction extends OpenTransaction {
  coordinatorEpochSource: CoordinatorEpochSource
  /** data records in [LSO, HW) */
  recordsWaiting: number
  newestTimestamp: bigint | null
  /** newestTimestamp − lastTimestamp, ms; null when either is unknown */
  ageMs: bigint | null
  hanging: boolean
  /** its transactional id is a KIP-939 two-phase-commit one: prepared, waiting for its external coordinator (set by the caller, who has __transaction_state) */
  twoPhaseCommit: boolean
}

function coordinatorEpochOf (r: PartitionReport, t: OpenTransaction, snapshots: readonly SnapshotInput[]): { epoch: number | null, source: CoordinatorEpochSource } {
  if (t.coordinatorEpoch !== null && t.seeded) return { epoch: t.coordinatorEpoch, source: 'snapshot' }
  const snaps = [...snapshots].sort((a, b) => (a.offset > b.offset ? -1 : 1))
  for (const s of snaps) {
    const p = s.producers.find((x) => x.producerId === t.producerId && x.coordinatorEpoch >= 0)
    if (p !== undefined) return { epoch: p.coordinatorEpoch, source: 'snapshot' }
  }
  const fromMarker = r.markerCoordinatorEpochs.get(t.producerId)
  if (fromMarker !== undefined) return { epoch: fromMarker, source: 'marker' }
  // A producer that never wrote a marker has coordinator epoch -1 in the broker's producer state, which is
  // also what `kafka-transactions.sh describe-producers` shows as LatestCoordinatorEpoch.
  if (snaps.some((s) => s.producers.some((x) => x.producerId === t.producerId))) return { epoch: -1, source: 'snapshot' }
  return { epoch: null, source: 'unknown' }
}

/** The earliest transaction holding the LSO, or null when LSO = HW. */
export function findBlockingTransaction (r: PartitionReport, snapshots: readonly SnapshotInput[], maxTransactionTimeoutMs: number): BlockingTransaction | null {
  if (r.lastStableOffset >= r.highWatermark) return null
  const t = r.openTransactions[0]
  if (t === undefined) return null
  const ce = coordinatorEpochOf(r, t, snapshots)
  const ageMs = r.newestTimestamp !== null && t.lastTimestamp !== null ? r.newestTimestamp - t.lastTimestamp : null
  return {
    ...t, coordinatorEpoch: ce.epoch, coordinatorEpochSource: ce.source, recordsWaiting: r.pendingRecords, newestTimestamp: r.newestTimestamp,
    ageMs, hanging: t.state === 'open' && ageMs !== null && Number(ageMs) > maxTransactionTimeoutMs, twoPhaseCommit: false,
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
