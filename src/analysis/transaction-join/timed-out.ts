// The coordinator's timeout aborts, told from the __transaction_state records alone, while they stream past: for
// the commands that read the coordinator's records without joining the data partitions (txns, lso). The rule is
// abort-cause.ts' (TransactionCoordinator.abortTimedOutTransactions: PrepareAbort after txnStartTimestamp +
// transactionTimeoutMs, the epoch fenced, no EndTxn from the client); `transactions` says the same of the joined
// transaction, at the same place (the PrepareAbort record), so doctor counts it once.
import { finding } from '../findings.js'
import type { Finding } from '../findings.js'
import type { TransactionStateRecord } from '../transactional-id-state.js'
import { TRANSACTION_STATES } from '../../decode/topics/transaction-state.js'

const ONGOING = TRANSACTION_STATES.indexOf('Ongoing')
const PREPARE_ABORT = TRANSACTION_STATES.indexOf('PrepareAbort')
import { abortCause, pastDeadline } from './abort-cause.js'
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
  // per id only what the rule reads of its newest Ongoing record (offset, txnStartTimestamp, epoch), in typed arrays:
  // holding the records themselves kept 1.2 M records' values alive long enough to add 45 MiB to txns and lso
  private readonly slots = new Map<string, number>()
  private offsets = new BigInt64Array(1024)
  private starts = new BigInt64Array(1024)
  private epochs = new Int32Array(1024)
  private open = new Uint8Array(1024)
  private readonly found: TimedOutAbort[] = []

  add(r: TransactionStateRecord): void {
    const v = r.value
    this.see(
      r.transactionalId,
      r.offset,
      v === null ? -1 : v.transactionStatus,
      v?.producerEpoch ?? -1,
      v?.transactionStartTimestampMs ?? -1n,
      r,
    )
  }

  /**
   * Whether see() needs the whole record of a PrepareAbort of `id` (prepared at `preparedAt`, its start time `start`,
   * -1 unknown): only when its transaction is open here and the deadline had passed (abort-cause.ts pastDeadline,
   * the start its Ongoing record's when the PrepareAbort has none); else see() is given null
   */
  wantsRecord(id: string, preparedAt: bigint, start: bigint, transactionTimeoutMs: number): boolean {
    const k = this.slots.get(id)
    if (k === undefined || this.open[k] === 0) return false
    return pastDeadline(preparedAt, start >= 0n ? start : this.starts[k]!, transactionTimeoutMs)
  }

  /**
   * One record as its head: the value's transactionStatus (-1: a tombstone), producerEpoch and
   * transactionStartTimestampMs; `r` the whole record, which the rule reads of a PrepareAbort only (null for the others)
   */
  see(
    id: string,
    offset: bigint,
    status: number,
    epoch: number,
    start: bigint,
    r: TransactionStateRecord | null,
  ): void {
    if (status === ONGOING) {
      const k = this.slotOf(id)
      this.offsets[k] = offset
      this.starts[k] = start
      this.epochs[k] = epoch
      this.open[k] = 1
      return
    }
    const k = this.slots.get(id)
    if (k === undefined || this.open[k] === 0) return
    // a commit, a completion or a deletion ends the episode: no timeout abort in it
    this.open[k] = 0
    const v = r?.value ?? null
    if (status !== PREPARE_ABORT || r === null || v === null) return
    const ongoing: TransactionStateRecord = {
      ...r,
      offset: this.offsets[k]!,
      value: {
        ...v,
        transactionStatus: ONGOING,
        producerEpoch: this.epochs[k]!,
        transactionStartTimestampMs: this.starts[k]!,
      },
    }
    const e = coordinatorEpisodes([ongoing, r]).at(-1)
    const c = e === undefined ? null : abortCause(e)
    if (e === undefined || c === null || c.by !== 'coordinator-timeout') return
    this.found.push({
      transactionalId: id,
      producerId: c.prepare.producerId,
      producerEpoch: this.epochs[k]!,
      startedAt: c.startedAt,
      deadline: c.deadline,
      preparedAt: c.preparedAt,
      transactionTimeoutMs: c.transactionTimeoutMs,
      partitions: [...e.partitions].sort(),
      prepareOffset: c.prepare.offset,
      file: c.prepare.file,
      position: c.prepare.position,
    })
  }

  private slotOf(id: string): number {
    let k = this.slots.get(id)
    if (k !== undefined) return k
    k = this.slots.size
    this.slots.set(id, k)
    if (k === this.offsets.length) {
      const n = k * 2
      const o = new BigInt64Array(n)
      o.set(this.offsets)
      this.offsets = o
      const st = new BigInt64Array(n)
      st.set(this.starts)
      this.starts = st
      const ep = new Int32Array(n)
      ep.set(this.epochs)
      this.epochs = ep
      const op = new Uint8Array(n)
      op.set(this.open)
      this.open = op
    }
    return k
  }

  get aborts(): readonly TimedOutAbort[] {
    return this.found
  }

  findings(): Finding[] {
    return this.found.map(timedOutFinding)
  }
}

export function timedOutFinding(a: TimedOutAbort): Finding {
  const late = Number(a.preparedAt - a.startedAt) / 1000
  const where = a.partitions.filter((p) => !p.startsWith('__consumer_offsets-'))
  return finding(
    'TXN_TIMED_OUT',
    `${a.transactionalId} producerId ${a.producerId} epoch ${a.producerEpoch}: aborted by the coordinator's timeout, not by its producer: ` +
      `PrepareAbort (offset ${a.prepareOffset}) ${late.toFixed(1)} s after the transaction began, past its transactionTimeoutMs ${a.transactionTimeoutMs}` +
      (where.length > 0 ? `; what it wrote to ${where.join(', ')} is discarded for read_committed consumers` : '') +
      '. The producer stalled or died between its first send and its commit (a GC pause, a long processing step, a halted job); ' +
      'raise transaction.timeout.ms or commit more often' +
      (parseStreamsId(a.transactionalId) !== null ? `. ${STREAMS_ABORT_NOTE}` : ''),
    { file: a.file, position: a.position },
  )
}
