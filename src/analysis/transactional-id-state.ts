// Last known state of each transactional id in a __transaction_state partition (compacted: the
// newest record per key wins; a tombstone means the coordinator expired the id).
import type { TransactionLogValue } from '../decode/topics/transaction-state.js'
import { transactionStateName } from '../decode/topics/transaction-state.js'

export interface TransactionStateRecord {
  offset: bigint
  transactionalId: string
  /** null = tombstone */
  value: TransactionLogValue | null
  /** where the record is (scan/transaction-log-scan.ts sets them) */
  file?: string
  position?: number
  /** its batch's CreateTime */
  timestamp?: bigint
}

export interface TransactionalIdState {
  transactionalId: string
  offset: bigint
  deleted: boolean
  producerId: bigint | null
  producerEpoch: number | null
  state: string | null
  transactionTimeoutMs: number | null
  partitions: string[]
  lastUpdateTimestamp: bigint | null
  startTimestamp: bigint | null
  /** tagged fields of value v1 (KIP-890, KIP-939); -1 / 0 when absent */
  previousProducerId: bigint | null
  nextProducerId: bigint | null
  nextProducerEpoch: number | null
  clientTransactionVersion: number | null
  /**
   * KIP-939 two-phase commit: the client set transactionTimeoutMs to Integer.MAX_VALUE, so the coordinator
   * never aborts it; a prepared transaction waits for its external coordinator and is not hanging
   */
  twoPhaseCommit: boolean
}

/** transactionTimeoutMs of a KIP-939 two-phase-commit transaction (Integer.MAX_VALUE) */
export const TWO_PHASE_COMMIT_TIMEOUT_MS = 2147483647

/**
 * Whether a record at `offset` replaces its id's newest so far at `newest`: the later record wins, ties too
 * (what a compacted __transaction_state partition keeps).
 */
export function replacesNewest (offset: bigint, newest: bigint): boolean { return offset >= newest }

/**
 * Newest state per transactional id, sorted by id, from records held in memory (the streamed two-pass reading
 * of a partition is scan/transaction-log-scan.ts transactionLogStates).
 */
export function lastTransactionStates (records: Iterable<TransactionStateRecord>): TransactionalIdState[] {
  const newest = new Map<string, TransactionStateRecord>()
  for (const r of records) {
    const prev = newest.get(r.transactionalId)
    if (prev === undefined || replacesNewest(r.offset, prev.offset)) newest.set(r.transactionalId, r)
  }
  return sortStates([...newest.values()].map(transactionalIdState))
}

/** states in transactional-id order (in place) */
export function sortStates (states: TransactionalIdState[]): TransactionalIdState[] {
  return states.sort((a, b) => (a.transactionalId < b.transactionalId ? -1 : a.transactionalId > b.transactionalId ? 1 : 0))
}

/** the state a transactional id's newest record says */
export function transactionalIdState (r: TransactionStateRecord): TransactionalIdState {
  const v = r.value
  if (v === null) {
    return { transactionalId: r.transactionalId, offset: r.offset, deleted: true, producerId: null, producerEpoch: null, state: null,
      transactionTimeoutMs: null, partitions: [], lastUpdateTimestamp: null, startTimestamp: null,
      previousProducerId: null, nextProducerId: null, nextProducerEpoch: null, clientTransactionVersion: null, twoPhaseCommit: false }
  }
  return {
    transactionalId: r.transactionalId, offset: r.offset, deleted: false, producerId: v.producerId, producerEpoch: v.producerEpoch,
    state: transactionStateName(v.transactionStatus), transactionTimeoutMs: v.transactionTimeoutMs,
    partitions: (v.transactionPartitions ?? []).flatMap((t) => t.partitionIds.map((p) => `${t.topic}-${p}`)).sort(),
    lastUpdateTimestamp: v.transactionLastUpdateTimestampMs, startTimestamp: v.transactionStartTimestampMs,
    previousProducerId: v.previousProducerId, nextProducerId: v.nextProducerId, nextProducerEpoch: v.nextProducerEpoch,
    clientTransactionVersion: v.clientTransactionVersion, twoPhaseCommit: v.transactionTimeoutMs === TWO_PHASE_COMMIT_TIMEOUT_MS,
  }
}
