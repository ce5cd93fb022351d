// The coordinator's records of each transactional id cut into episodes, one per transaction: a run of
// Ongoing records (AddPartitionsToTxn / AddOffsetsToTxn grow the partition list), the Prepare* record the
// coordinator writes before the markers, and the Complete* record it writes once every marker is acknowledged
// (TransactionCoordinator.endTransaction, TransactionStateManager.appendTransactionToLog). An Empty record
// (InitProducerId) ends whatever came before it.
import type { TransactionStateRecord } from '../transactional-id-state.js'
import { transactionStateName } from '../../decode/topics/transaction-state.js'
import type { CoordinatorState, Episode } from './types.js'

function stateOf (r: TransactionStateRecord): CoordinatorState | null {
  const v = r.value
  if (v === null) return null
  return {
    state: transactionStateName(v.transactionStatus), producerId: v.producerId, producerEpoch: v.producerEpoch,
    timestamp: v.transactionLastUpdateTimestampMs, startTimestamp: v.transactionStartTimestampMs,
    partitions: (v.transactionPartitions ?? []).flatMap((t) => t.partitionIds.map((p) => `${t.topic}-${p}`)).sort(),
    transactionTimeoutMs: v.transactionTimeoutMs, clientTransactionVersion: v.clientTransactionVersion,
    file: r.file ?? '', position: r.position ?? 0, offset: r.offset,
  }
}

function fresh (id: string, s: CoordinatorState): Episode {
  return { transactionalId: id, states: [], producerId: s.producerId, endEpoch: s.producerEpoch, partitions: new Set(), prepare: null, complete: null }
}

/** Episodes of every id, each id's in log order; `records` in file order (one id's records are in one partition). */
export function coordinatorEpisodes (records: Iterable<TransactionStateRecord>): Episode[] {
  const out: Episode[] = []
  const current = new Map<string, Episode | null>()
  const seen = new Set<string>()
  for (const r of records) {
    // the same record read from two brokers' copies of the partition counts once
    const key = `${r.transactionalId}\u0000${r.offset}`
    if (seen.has(key)) continue
    seen.add(key)
    const s = stateOf(r)
    if (s === null) { current.set(r.transactionalId, null); continue }
    let e = current.get(r.transactionalId) ?? null
    const ended = e !== null && e.complete !== null
    if (s.state === 'Empty' || s.state === 'Dead') { current.set(r.transactionalId, null); continue }
    if (e === null || ended || (s.state === 'Ongoing' && e.prepare !== null) || (s.state.startsWith('Prepare') && s.state !== 'PrepareEpochFence' && e.prepare !== null)) {
      e = fresh(r.transactionalId, s)
      out.push(e)
      current.set(r.transactionalId, e)
    }
    e.states.push(s)
    for (const p of s.partitions) e.partitions.add(p)
    if (s.state === 'PrepareCommit' || s.state === 'PrepareAbort') e.prepare = s
    if (s.state === 'CompleteCommit' || s.state === 'CompleteAbort') e.complete = s
    e.producerId = s.producerId
    // the markers carry the epoch of the Prepare* record (with TV2 the data epoch + 1)
    e.endEpoch = e.prepare?.producerEpoch ?? (e.complete ?? s).producerEpoch
  }
  return out
}

/** the producer id -> transactional id of every record (a KIP-890 rollover names the previous and next id too) */
export function transactionalIdsByProducer (records: Iterable<TransactionStateRecord>): Map<bigint, string> {
  const out = new Map<bigint, string>()
  for (const r of records) {
    const v = r.value
    if (v === null) continue
    for (const id of [v.producerId, v.previousProducerId, v.nextProducerId]) if (id >= 0n) out.set(id, r.transactionalId)
  }
  return out
}
