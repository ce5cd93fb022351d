// Who aborted a transaction, from the coordinator's records of it. The coordinator writes PrepareAbort in
// three cases (TransactionCoordinator, Kafka 3.x-4.x):
// - the client's EndTxn(ABORT): handleEndTransaction, isFromClient; with transaction version 1 the epoch of
//   the PrepareAbort record is the Ongoing records' epoch, with version 2 (KIP-890) every end bumps it by one;
// - its own timeout: abortTimedOutTransactions takes the ids TransactionStateManager.timedOutTransactions lists
//   (state Ongoing and txnStartTimestamp + txnTimeoutMs < now, checked every
//   transaction.abort.timed.out.transaction.cleanup.interval.ms), fences the epoch (prepareFenceProducerEpoch:
//   epoch + 1) and ends the transaction as ABORT, isFromClient = false;
// - a new session of the same transactional id: InitProducerId while the transaction is Ongoing fences the
//   epoch the same way (PrepareEpochFence), at any time before the deadline.
// So the PrepareAbort's own timestamp against txnStartTimestamp + transactionTimeoutMs tells a timeout apart
// (the coordinator never aborts before the deadline, and a client that aborts after it races the
// coordinator's periodic check); with version 1 the epoch tells the client's abort from a fence as well.
import type { AbortCause, AbortedBy, Episode } from './types.js'

/**
 * A PrepareAbort written at `preparedAt` can be the coordinator's timeout abort only past the transaction's deadline,
 * txnStartTimestamp + transactionTimeoutMs (TransactionStateManager.timedOutTransactions); false for an unknown start
 */
export function pastDeadline(preparedAt: bigint, startedAt: bigint, transactionTimeoutMs: number): boolean {
  return startedAt >= 0n && preparedAt > startedAt + BigInt(transactionTimeoutMs)
}

/** why the coordinator wrote this episode's PrepareAbort; null when it wrote none or no Ongoing record before it */
export function abortCause(e: Episode): AbortCause | null {
  const prepare = e.prepare
  if (prepare === null || prepare.state !== 'PrepareAbort') return null
  const ongoing = e.states.filter((s) => s.state === 'Ongoing' && s.offset < prepare.offset)
  const last = ongoing.at(-1)
  if (last === undefined) return null
  const startedAt = prepare.startTimestamp >= 0n ? prepare.startTimestamp : last.startTimestamp
  if (startedAt < 0n) return null
  const deadline = startedAt + BigInt(prepare.transactionTimeoutMs)
  const bumped = prepare.producerEpoch > last.producerEpoch
  const tv2 = prepare.clientTransactionVersion >= 2
  let by: AbortedBy
  if (pastDeadline(prepare.timestamp, startedAt, prepare.transactionTimeoutMs) && (bumped || tv2))
    by = 'coordinator-timeout'
  else if (tv2) by = 'client-or-new-session'
  else by = bumped ? 'new-producer-session' : 'client'
  return {
    by,
    startedAt,
    deadline,
    preparedAt: prepare.timestamp,
    transactionTimeoutMs: prepare.transactionTimeoutMs,
    prepare,
  }
}

export const ABORTED_BY_TEXT: Record<AbortedBy, string> = {
  'coordinator-timeout': "the coordinator's transaction timeout",
  'new-producer-session': 'a new session of its transactional id (InitProducerId fenced it)',
  client: 'its producer (abortTransaction)',
  'client-or-new-session': 'its producer or a new session of its id (transaction version 2 records the same)',
}
