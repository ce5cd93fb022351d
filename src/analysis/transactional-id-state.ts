// Last known state of each transactional id in a __transaction_state partition (compacted: the
// newest record per key wins; a tombstone means the coordinator expired the id).
import type { TransactionLogValue } from '../decode/topics/transaction-state.js'
import { transactionStateName } from '../decode/topics/transaction-state.js'
import type { LostRecords } from './lost-records.js'
import { lostAfter, lostText } from './lost-records.js'

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
  /**
   * set when records of the partition could not be read after this id's newest record (analysis/lost-records.ts):
   * its state is unknown past that place (a Complete* may be in the lost bytes), the fields above are the last known
   */
  unknownPast?: LostRecords
}

/** transactionTimeoutMs of a KIP-939 two-phase-commit transaction (Integer.MAX_VALUE) */
export const TWO_PHASE_COMMIT_TIMEOUT_MS = 2147483647

/**
 * Whether a record at `offset` replaces its id's newest so far at `newest`: the later record wins, ties too
 * (what a compacted __transaction_state partition keeps).
 */
export function replacesNewest(offset: bigint, newest: bigint): boolean {
  return offset >= newest
}

/**
 * Newest state per transactional id, sorted by id, from records held in memory (a partition read in one pass,
 * only each id's newest record kept, is scan/transaction-state-read.ts TransactionStateReader).
 */
export function lastTransactionStates(
  records: Iterable<TransactionStateRecord>,
  lost: readonly LostRecords[] = [],
): TransactionalIdState[] {
  const newest = new Map<string, TransactionStateRecord>()
  for (const r of records) {
    const prev = newest.get(r.transactionalId)
    if (prev === undefined || replacesNewest(r.offset, prev.offset)) newest.set(r.transactionalId, r)
  }
  return sortStates([...newest.values()].map((r) => transactionalIdState(r, lost)))
}

/** states in transactional-id order (in place) */
export function sortStates(states: TransactionalIdState[]): TransactionalIdState[] {
  return states.sort((a, b) =>
    a.transactionalId < b.transactionalId ? -1 : a.transactionalId > b.transactionalId ? 1 : 0,
  )
}

/** the state a transactional id's newest record says */
export function transactionalIdState(
  r: TransactionStateRecord,
  lost: readonly LostRecords[] = [],
): TransactionalIdState {
  const s = stateOf(r)
  const past = lost.length === 0 ? undefined : lostAfter(lost, r.file, r.position)
  if (past !== undefined) s.unknownPast = past
  return s
}

function stateOf(r: TransactionStateRecord): TransactionalIdState {
  const v = r.value
  if (v === null) {
    return {
      transactionalId: r.transactionalId,
      offset: r.offset,
      deleted: true,
      producerId: null,
      producerEpoch: null,
      state: null,
      transactionTimeoutMs: null,
      partitions: [],
      lastUpdateTimestamp: null,
      startTimestamp: null,
      previousProducerId: null,
      nextProducerId: null,
      nextProducerEpoch: null,
      clientTransactionVersion: null,
      twoPhaseCommit: false,
    }
  }
  return {
    transactionalId: r.transactionalId,
    offset: r.offset,
    deleted: false,
    producerId: v.producerId,
    producerEpoch: v.producerEpoch,
    state: transactionStateName(v.transactionStatus),
    transactionTimeoutMs: v.transactionTimeoutMs,
    partitions: (v.transactionPartitions ?? []).flatMap((t) => t.partitionIds.map((p) => `${t.topic}-${p}`)).sort(),
    lastUpdateTimestamp: v.transactionLastUpdateTimestampMs,
    startTimestamp: v.transactionStartTimestampMs,
    previousProducerId: v.previousProducerId,
    nextProducerId: v.nextProducerId,
    nextProducerEpoch: v.nextProducerEpoch,
    clientTransactionVersion: v.clientTransactionVersion,
    twoPhaseCommit: v.transactionTimeoutMs === TWO_PHASE_COMMIT_TIMEOUT_MS,
  }
}

/** an id's state as printers show it: the state, "deleted", or "unknown (<last read>)" when records after it were lost */
export function stateLabel(s: TransactionalIdState, deleted = 'deleted'): string {
  const read = s.deleted ? deleted : (s.state ?? '')
  return s.unknownPast === undefined ? read : `unknown (${read})`
}

/** one sentence per place where records were lost, naming how many ids' states it leaves unknown */
export function unknownStatesNotes(states: readonly TransactionalIdState[]): string[] {
  const byPlace = new Map<string, { d: LostRecords; ids: number }>()
  for (const s of states) {
    if (s.unknownPast === undefined) continue
    const k = `${s.unknownPast.file}\u0000${s.unknownPast.position}`
    const e = byPlace.get(k)
    if (e === undefined) byPlace.set(k, { d: s.unknownPast, ids: 1 })
    else e.ids++
  }
  return [...byPlace.values()].map(
    ({ d, ids }) =>
      `state unknown for ${ids} transactional id${ids === 1 ? '' : 's'} (in brackets the newest state read): ` +
      `${lostText(d)}, where newer records of ${ids === 1 ? 'it' : 'them'} may be`,
  )
}

/** the JSON fields of unknownPast: the lost place and the last state read (state itself is then "unknown") */
export function unknownStateFields(s: TransactionalIdState): Record<string, unknown> {
  if (s.unknownPast === undefined) return {}
  return {
    lastKnownState: s.deleted ? 'deleted' : s.state,
    unknownPast: { file: s.unknownPast.file, position: s.unknownPast.position, code: s.unknownPast.code },
  }
}
