// find-hanging's rules (kafka-transactions.sh, TransactionsCommand.FindHangingTransactionsCommand) applied to
// the files: a producer with an open transaction is a candidate when now − its last timestamp exceeds the
// maximum transaction timeout (15 min by default); a candidate is hanging unless the coordinator still lists
// the partition in that transaction (DescribeTransactions topicPartitions, here the newest
// __transaction_state record of its transactional id, when that partition was given): then the coordinator
// is expected to write the marker itself. Without __transaction_state every candidate is hanging, as
// find-hanging does when ListTransactions does not know the producer id.
import type { OpenTransaction, PartitionReport } from './partition-report.js'
import type { TransactionalIdState } from './transactional-id-state.js'

/** One row of find-hanging's table (HEADERS in TransactionsCommand), plus what tsdump knows about it. */
export interface HangingTransaction {
  topic: string | null
  partition: number | null
  producerId: bigint
  producerEpoch: number
  /** describe-producers' LatestCoordinatorEpoch; -1 when no marker was ever written for the producer; null unknown */
  coordinatorEpoch: number | null
  startOffset: bigint
  lastTimestamp: bigint
  /** floor((now − lastTimestamp) / 1 min), as find-hanging prints it */
  durationMinutes: number
}

export interface HangingVerdict {
  /** now − lastTimestamp in ms; null without a timestamp */
  durationMs: bigint | null
  /** find-hanging's candidate rule: open and older than the timeout */
  candidate: boolean
  /** the coordinator still owns the partition in this transaction, so it is not hanging */
  coordinatorOwner: TransactionalIdState | null
  /**
   * when that coordinator aborts the transaction itself: its Ongoing state's txnStartTimestamp + transactionTimeoutMs
   * (TransactionStateManager.timedOutTransactions; the abort runs on the next check, every
   * transaction.abort.timed.out.transaction.cleanup.interval.ms, 10 s by default); null when not known
   */
  coordinatorAbortsAtMs: bigint | null
  hanging: boolean
}

/** The verdict on one open transaction of partition `label` at `nowMs`. */
export function judgeOpenTransaction (t: OpenTransaction, label: string, nowMs: number, maxTransactionTimeoutMs: number,
  states: readonly TransactionalIdState[]): HangingVerdict {
  const durationMs = t.lastTimestamp === null ? null : BigInt(Math.trunc(nowMs)) - t.lastTimestamp
  const candidate = t.state === 'open' && durationMs !== null && durationMs > BigInt(Math.trunc(maxTransactionTimeoutMs))
  // find-hanging maps the producer id to its transactional id (ListTransactions) and looks only at the
  // partitions DescribeTransactions lists, not at epochs (which KIP-890 bumps at every marker)
  const coordinatorOwner = states.find((s) => !s.deleted && s.producerId === t.producerId && s.partitions.includes(label)) ?? null
  const o = coordinatorOwner
  const coordinatorAbortsAtMs = o !== null && o.state === 'Ongoing' && o.startTimestamp !== null && o.startTimestamp >= 0n &&
    o.transactionTimeoutMs !== null && !o.twoPhaseCommit
    ? o.startTimestamp + BigInt(o.transactionTimeoutMs)
    : null
  return { durationMs, candidate, coordinatorOwner, coordinatorAbortsAtMs, hanging: candidate && coordinatorOwner === null }
}

/** Every hanging transaction of a partition (find-hanging lists all open producers, not only the one holding the LSO). */
export function hangingTransactions (r: PartitionReport, label: string, nowMs: number, maxTransactionTimeoutMs: number,
  states: readonly TransactionalIdState[], coordinatorEpochOf: (t: OpenTransaction) => number | null): HangingTransaction[] {
  const out: HangingTransaction[] = []
  for (const t of r.openTransactions) {
    const v = judgeOpenTransaction(t, label, nowMs, maxTransactionTimeoutMs, states)
    if (!v.hanging || t.lastTimestamp === null || v.durationMs === null) continue
    out.push({ topic: r.topic, partition: r.partition, producerId: t.producerId, producerEpoch: t.producerEpoch,
      coordinatorEpoch: coordinatorEpochOf(t), startOffset: t.firstOffset, lastTimestamp: t.lastTimestamp,
      durationMinutes: Number(v.durationMs / 60_000n) })
  }
  return out
}
