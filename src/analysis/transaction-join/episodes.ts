// The coordinator's records of each transactional id cut into episodes, one per transaction: a run of
// Ongoing records (AddPartitionsToTxn / AddOffsetsToTxn grow the partition list), the Prepare* record the
// coordinator writes before the markers, and the Complete* record it writes once every marker is acknowledged
// (TransactionCoordinator.endTransaction, TransactionStateManager.appendTransactionToLog). An Empty record
// (InitProducerId) ends whatever came before it.
import type { TransactionStateRecord } from '../transactional-id-state.js'
import { transactionStateName } from '../../decode/topics/transaction-state.js'
import type { TransactionLogValue } from '../../decode/topics/transaction-state.js'
import type { TransactionValueFields } from '../../decode/topics/transaction-value-fields.js'
import type { CoordinatorState, Episode } from './types.js'
import { sortStrings } from '../small-sort.js'

/** a value's fields as the in-place walk gives them (decode/topics/transaction-value-fields.ts), from a decoded one */
export function valueFields(v: TransactionLogValue): TransactionValueFields {
  return {
    producerId: v.producerId,
    previousProducerId: v.previousProducerId,
    nextProducerId: v.nextProducerId,
    producerEpoch: v.producerEpoch,
    transactionTimeoutMs: v.transactionTimeoutMs,
    transactionStatus: v.transactionStatus,
    partitions:
      v.transactionPartitions === null
        ? null
        : v.transactionPartitions.flatMap((t) => t.partitionIds.map((p) => `${t.topic}-${p}`)),
    transactionLastUpdateTimestampMs: v.transactionLastUpdateTimestampMs,
    transactionStartTimestampMs: v.transactionStartTimestampMs,
    clientTransactionVersion: v.clientTransactionVersion,
  }
}

/** one record's state; `v.partitions` is sorted in place and kept (the walk makes a new list per value) */
export function coordinatorState(
  v: TransactionValueFields,
  file: string,
  position: number,
  offset: bigint,
): CoordinatorState {
  return {
    state: transactionStateName(v.transactionStatus),
    producerId: v.producerId,
    producerEpoch: v.producerEpoch,
    timestamp: v.transactionLastUpdateTimestampMs,
    startTimestamp: v.transactionStartTimestampMs,
    partitions: v.partitions === null ? [] : sortStrings(v.partitions),
    transactionTimeoutMs: v.transactionTimeoutMs,
    clientTransactionVersion: v.clientTransactionVersion,
    file,
    position,
    offset,
  }
}

function stateOf(r: TransactionStateRecord): CoordinatorState | null {
  return r.value === null ? null : coordinatorState(valueFields(r.value), r.file ?? '', r.position ?? 0, r.offset)
}

function fresh(id: string, s: CoordinatorState): Episode {
  return {
    transactionalId: id,
    states: [],
    producerId: s.producerId,
    endEpoch: s.producerEpoch,
    partitions: new Set(),
    prepare: null,
    complete: null,
  }
}

/**
 * Cuts the records into episodes as they are read (`add` in file order; one id's records are in one partition),
 * handing each to `done` once nothing can change it: at its Complete* record, when the id's next transaction or
 * an Empty record begins, or at `end()`. Only the episode open per id is held. `seq` numbers episodes in the order
 * they began. A record read again from another broker's copy of the partition (an offset not above the id's
 * newest) counts once.
 */
export class EpisodeCutter {
  /** the episode open per id (none once it ended) */
  private readonly current = new Map<string, { e: Episode; seq: number; done: boolean }>()
  private readonly newest = new Map<string, bigint>()
  private seq = 0

  constructor(private readonly done: (e: Episode, seq: number) => void) {}

  add(r: TransactionStateRecord): void {
    if (this.isNew(r.transactionalId, r.offset)) this.addState(r.transactionalId, stateOf(r))
  }

  /** whether `id`'s record at `offset` is read for the first time (then it is the id's newest) */
  isNew(id: string, offset: bigint): boolean {
    const before = this.newest.get(id)
    if (before !== undefined && offset <= before) return false
    this.newest.set(id, offset)
    return true
  }

  /** the state of `id`'s record isNew took (null: a tombstone) */
  addState(id: string, s: CoordinatorState | null): void {
    const cur = this.current.get(id) ?? null
    if (s === null || s.state === 'Empty' || s.state === 'Dead') {
      this.close(cur)
      this.current.delete(id)
      return
    }
    let e = cur?.e ?? null
    const ended = e !== null && e.complete !== null
    let c = cur
    if (
      e === null ||
      ended ||
      (s.state === 'Ongoing' && e.prepare !== null) ||
      (s.state.startsWith('Prepare') && s.state !== 'PrepareEpochFence' && e.prepare !== null)
    ) {
      this.close(cur)
      e = fresh(id, s)
      c = { e, seq: this.seq++, done: false }
      this.current.set(id, c)
    }
    e.states.push(s)
    for (const p of s.partitions) e.partitions.add(p)
    if (s.state === 'PrepareCommit' || s.state === 'PrepareAbort') e.prepare = s
    if (s.state === 'CompleteCommit' || s.state === 'CompleteAbort') e.complete = s
    e.producerId = s.producerId
    // the markers carry the epoch of the Prepare* record (with TV2 the data epoch + 1)
    e.endEpoch = e.prepare?.producerEpoch ?? (e.complete ?? s).producerEpoch
    // ended: nothing changes it any more, and the id's next record begins a new one (a million ids hold nothing)
    if (e.complete !== null) {
      this.close(c)
      this.current.delete(id)
    }
  }

  /** hands out every episode still open, in the order they began */
  end(): void {
    const open = [...this.current.values()].filter((c) => c !== null && !c.done).sort((a, b) => a!.seq - b!.seq)
    for (const c of open) this.close(c)
    this.current.clear()
  }

  private close(c: { e: Episode; seq: number; done: boolean } | null): void {
    if (c === null || c.done) return
    c.done = true
    this.done(c.e, c.seq)
  }
}

/** Episodes of every id, each id's in log order, in the order they began; `records` in file order. */
export function coordinatorEpisodes(records: Iterable<TransactionStateRecord>): Episode[] {
  const out: Array<{ e: Episode; seq: number }> = []
  const cut = new EpisodeCutter((e, seq) => {
    out.push({ e, seq })
  })
  for (const r of records) cut.add(r)
  cut.end()
  return out.sort((a, b) => a.seq - b.seq).map((x) => x.e)
}

/** the producer id -> transactional id of every record (a KIP-890 rollover names the previous and next id too) */
export function transactionalIdsByProducer(records: Iterable<TransactionStateRecord>): Map<bigint, string> {
  const out = new Map<bigint, string>()
  for (const r of records) {
    const v = r.value
    if (v === null) continue
    for (const id of [v.producerId, v.previousProducerId, v.nextProducerId])
      if (id >= 0n) out.set(id, r.transactionalId)
  }
  return out
}
