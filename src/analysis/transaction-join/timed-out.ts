// The coordinator's timeout aborts, told from the __transaction_state records alone, while they stream past: for
// the commands that read the coordinator's records without joining the data partitions (txns, lso). The rule is
// abort-cause.ts' (TransactionCoordinator.abortTimedOutTransactions: PrepareAbort after txnStartTimestamp +
// transactionTimeoutMs, the epoch fenced, no EndTxn from the client); `transactions` says the same of the joined
// transaction, at the same place (the PrepareAbort record), so doctor counts it once.
import { finding } from '../findings.js'
import type { Finding } from '../findings.js'
import type { TransactionStateRecord } from '../transactional-id-state.js'
import { transactionStateName } from '../../decode/topics/transaction-state.js'
import { abortCause } from './abort-cause.js'
import { coordinatorEpisodes } from './episodes.js'
import { parseStreamsId, STREAMS_ABORT_NOTE } from './streams-ids.js'

/** one timeout abort the coordinator's records show */
export interface TimedOutAbort {
  transactionalId: string
  producerId: bigint
  /** the epoch of the transaction's Ongoing records (the data's) */
  producerEpoch: number
  startedAt: bigint
  deadline: bigint
  preparedAt: bigint
  transactionTimeoutMs: number
  /** the partitions the coordinator listed for it (it wrote ABORT markers there) */
  partitions: string[]
  prepareOffset: bigint
  file: string
  position: number
}

/**
 * Feed it the records of a __transaction_state partition in file order; it keeps the records of each id's
 * unfinished transaction only (from its first Ongoing to its Complete*), so memory follows the open transactions.
 */
export class TimedOutWatch {
  private readonly pending = new Map<string, TransactionStateRecord[]>()
  private readonly found: TimedOutAbort[] = []

  add (r: TransactionStateRecord): void {
    const v = r.value
    if (v === null) { this.pending.delete(r.transactionalId); return }
    const state = transactionStateName(v.transactionStatus)
    if (state === 'Empty' || state === 'Dead' || state === 'CompleteCommit' || state === 'CompleteAbort') { this.pending.delete(r.transactionalId); return }
    let rs = this.pending.get(r.transactionalId)
    if (rs === undefined) { rs = []; this.pending.set(r.transactionalId, rs) }
    rs.push(r)
    if (state !== 'PrepareAbort') return
    const e = coordinatorEpisodes(rs).at(-1)
    const c = e === undefined ? null : abortCause(e)
    if (e === undefined || c === null || c.by !== 'coordinator-timeout') return
    const ongoing = e.states.filter((s) => s.state === 'Ongoing').at(-1)!
    this.found.push({ transactionalId: r.transactionalId, producerId: c.prepare.producerId, producerEpoch: ongoing.producerEpoch, startedAt: c.startedAt,
      deadline: c.deadline, preparedAt: c.preparedAt, transactionTimeoutMs: c.transactionTimeoutMs, partitions: [...e.partitions].sort(),
      prepareOffset: c.prepare.offset, file: c.prepare.file, position: c.prepare.position })
  }

  get aborts (): readonly TimedOutAbort[] { return this.found }

  findings (): Finding[] { return this.found.map(timedOutFinding) }
}

export function timedOutFinding (a: TimedOutAbort): Finding {
  const late = Number(a.preparedAt - a.startedAt) / 1000
  const where = a.partitions.filter((p) => !p.startsWith('__consumer_offsets-'))
  return finding('TXN_TIMED_OUT', `${a.transactionalId} producerId ${a.producerId} epoch ${a.producerEpoch}: aborted by the coordinator's timeout, not by its producer: ` +
    `PrepareAbort (offset ${a.prepareOffset}) ${late.toFixed(1)} s after the transaction began, past its transactionTimeoutMs ${a.transactionTimeoutMs}` +
    (where.length > 0 ? `; what it wrote to ${where.join(', ')} is discarded for read_committed consumers` : '') +
    '. The producer stalled or died between its first send and its commit (a GC pause, a long processing step, a halted job); ' +
    'raise transaction.timeout.ms or commit more often' + (parseStreamsId(a.transactionalId) !== null ? `. ${STREAMS_ABORT_NOTE}` : ''), { file: a.file, position: a.position })
}
