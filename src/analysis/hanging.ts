// The one hanging rule every command applies (lso, transactions, cleanup, report).
// find-hanging (kafka-transactions.sh, TransactionsCommand.FindHangingTransactionsCommand): a producer with an
// open transaction is a candidate when now − its last timestamp exceeds the maximum transaction timeout (15 min
// by default); a candidate is hanging unless the coordinator still lists the partition in that producer's
// transaction (DescribeTransactions topicPartitions, here the newest __transaction_state record of its id):
// then the coordinator is expected to write the marker itself. Without __transaction_state every candidate is
// hanging, as find-hanging does when ListTransactions does not know the producer id.
// Offline, the coordinator's records are a snapshot: when its abort deadline (txnStartTimestamp +
// transactionTimeoutMs, TransactionStateManager.timedOutTransactions) passed more than the maximum timeout ago,
// that coordinator is not aborting it, and the override no longer holds: the transaction is overdue.
// A coordinator log whose records could not be read past some place (lost-records.ts) cannot tell who owns the
// transaction now: its owner's newest record, or the id's record listing the partition, may be in the lost bytes.
// Then the transaction is neither hanging nor overdue but unknown (TXN_COORDINATOR_UNKNOWN), and no abort is advised:
// a coordinator in PrepareCommit writes COMMIT to the other partitions, and an ABORT here would split the transaction.
// The age: now − the coordinator's txnStartTimestamp when it lists the partition (the broker's own clock),
// else now − the records' last timestamp (event time: a replay or a backfill stamps old times).
import type { Finding } from './findings.js'
import { finding } from './findings.js'
import type { TransactionalIdState } from './transactional-id-state.js'
import type { LostRecords } from './lost-records.js'
import { lostText } from './lost-records.js'
import { isoOrOutOfRange } from '../bytes/iso-time.js'
import type { PartitionTransaction } from './partition-transaction.js'

/** what the age is measured from: the coordinator's start time, or the records' own timestamps */
export type AgeSource = 'coordinator' | 'eventTime'

/** What the rule needs of an open transaction in one partition (an OpenTransaction, a transactions run). */
export interface OpenTransactionFacts
  extends Pick<PartitionTransaction, 'producerId' | 'producerEpoch' | 'firstOffset' | 'lastDataOffset'> {
  lastTimestamp: bigint | null
  /** only 'open' ones are judged: one whose marker waits for the HW, or that damage made unknown, is not */
  state: string
  /** set when its marker may lie in bytes that could not be read (damage-marks.ts): its outcome is unknown */
  damage?: unknown
}

/** One row of find-hanging's table (HEADERS in TransactionsCommand), plus what tsdump knows about it; its StartOffset is `firstOffset`. */
export interface HangingTransaction extends Pick<PartitionTransaction, 'producerId' | 'producerEpoch' | 'firstOffset'> {
  topic: string | null
  partition: number | null
  /** describe-producers' LatestCoordinatorEpoch; -1 when no marker was ever written for the producer; null unknown */
  coordinatorEpoch: number | null
  lastTimestamp: bigint
  /** floor((now − lastTimestamp) / 1 min), as find-hanging prints it */
  durationMinutes: number
}

export interface HangingVerdict {
  /** now − lastTimestamp in ms (find-hanging's duration); null without a timestamp */
  durationMs: bigint | null
  /** the age the verdict uses: now − the coordinator's start when it owns the partition, else durationMs */
  ageMs: bigint | null
  ageSource: AgeSource
  /** open and older than the timeout */
  candidate: boolean
  /** the coordinator still owns the partition in this transaction, so it is not hanging (unless overdue) */
  coordinatorOwner: TransactionalIdState | null
  /**
   * when that coordinator aborts the transaction itself: its Ongoing state's txnStartTimestamp + transactionTimeoutMs
   * (TransactionStateManager.timedOutTransactions; the abort runs on the next check, every
   * transaction.abort.timed.out.transaction.cleanup.interval.ms, 10 s by default); null when not known
   */
  coordinatorAbortsAtMs: bigint | null
  /** that deadline passed more than the maximum timeout ago: the coordinator is not doing it (TXN_COORDINATOR_OVERDUE) */
  overdue: boolean
  /**
   * where the coordinator's records could not be read and may hold this transaction's owner or its newer state:
   * then neither hanging nor overdue can be told (TXN_COORDINATOR_UNKNOWN); null when the records say
   */
  coordinatorLost: LostRecords | null
  /** KIP-939: a two-phase-commit id (transactionTimeoutMs Integer.MAX_VALUE); its external coordinator ends it */
  twoPhaseCommit: boolean
  hanging: boolean
}

const ms = (n: number): bigint => BigInt(Math.trunc(n))

/** The verdict on one open transaction of partition `label` at `nowMs`. */
export function judgeOpenTransaction(
  t: OpenTransactionFacts,
  label: string,
  nowMs: number,
  maxTransactionTimeoutMs: number,
  states: readonly TransactionalIdState[],
): HangingVerdict {
  const now = ms(nowMs)
  const durationMs = t.lastTimestamp === null ? null : now - t.lastTimestamp
  // find-hanging maps the producer id to its transactional id (ListTransactions) and looks only at the
  // partitions DescribeTransactions lists, not at epochs (which KIP-890 bumps at every marker)
  const mine = states.filter((s) => !s.deleted && s.producerId === t.producerId)
  const o = mine.find((s) => s.partitions.includes(label)) ?? null
  const twoPhaseCommit = mine.some((s) => s.twoPhaseCommit)
  const started = o !== null && o.startTimestamp !== null && o.startTimestamp >= 0n ? o.startTimestamp : null
  const coordinatorAbortsAtMs =
    o !== null && o.state === 'Ongoing' && started !== null && o.transactionTimeoutMs !== null && !o.twoPhaseCommit
      ? started + BigInt(o.transactionTimeoutMs)
      : null
  const ageSource: AgeSource = started !== null ? 'coordinator' : 'eventTime'
  const ageMs = started !== null ? now - started : durationMs
  const open = t.state === 'open' && t.damage === undefined
  const limit = ms(maxTransactionTimeoutMs)
  const candidate = open && ageMs !== null && ageMs > limit
  // the owner's state past lost records, or (no owner read) any lost records of the coordinator's log
  const coordinatorLost =
    o !== null ? (o.unknownPast ?? null) : (states.find((s) => s.unknownPast !== undefined)?.unknownPast ?? null)
  const overdue =
    open && coordinatorLost === null && coordinatorAbortsAtMs !== null && now - coordinatorAbortsAtMs > limit
  return {
    durationMs,
    ageMs,
    ageSource,
    candidate,
    coordinatorOwner: o,
    coordinatorAbortsAtMs,
    overdue,
    coordinatorLost,
    twoPhaseCommit,
    hanging: candidate && o === null && !twoPhaseCommit && coordinatorLost === null,
  }
}

/** find-hanging's row for a hanging transaction, else null. */
export function hangingRow(
  t: OpenTransactionFacts,
  v: HangingVerdict,
  topic: string | null,
  partition: number | null,
  coordinatorEpoch: number | null,
): HangingTransaction | null {
  if (!v.hanging || t.lastTimestamp === null || v.ageMs === null) return null
  return {
    topic,
    partition,
    producerId: t.producerId,
    producerEpoch: t.producerEpoch,
    coordinatorEpoch,
    firstOffset: t.firstOffset,
    lastTimestamp: t.lastTimestamp,
    durationMinutes: Number(v.ageMs / 60_000n),
  }
}

const minutes = (n: bigint): string => `${(Number(n) / 60_000).toFixed(1)} min`
const iso = (n: bigint): string => isoOrOutOfRange(n)

/** The words for where an age comes from, the same in every command. */
export function ageSourceText(v: HangingVerdict): string {
  const start = v.coordinatorOwner?.startTimestamp ?? null
  return v.ageSource === 'coordinator' && start !== null
    ? `from the coordinator's txnStartTimestamp ${iso(start)} (record timestamps are event time)`
    : "from the records' timestamps (event time: wrong for replays and backfills; the coordinator's __transaction_state record among the paths gives its start)"
}

/** TXN_HANGING and TXN_COORDINATOR_OVERDUE for one judged transaction of partition `label`: the findings every command reports. */
export function hangingFindings(
  t: OpenTransactionFacts,
  v: HangingVerdict,
  label: string,
  nowMs: number,
  maxTransactionTimeoutMs: number,
): Finding[] {
  const at = { firstOffset: t.firstOffset, ...(t.lastDataOffset !== null ? { lastOffset: t.lastDataOffset } : {}) }
  const limit = `${maxTransactionTimeoutMs / 60_000} min`
  const who = `producer ${t.producerId} epoch ${t.producerEpoch} in ${label} from offset ${t.firstOffset}`
  const out: Finding[] = []
  if (v.hanging && v.ageMs !== null) {
    out.push(
      finding(
        'TXN_HANGING',
        `${who}: open ${minutes(v.ageMs)} (${v.ageSource === 'coordinator' ? 'coordinator start' : 'event time'}), ` +
          `more than ${limit}, and no coordinator record given lists ${label} in its transaction: nothing will end it; ` +
          `it holds the partition's last stable offset (kafka-transactions.sh abort, as tsdump lso prints)`,
        at,
      ),
    )
  }
  if (v.overdue && v.coordinatorAbortsAtMs !== null && v.coordinatorOwner !== null) {
    const o = v.coordinatorOwner
    const late = ms(nowMs) - v.coordinatorAbortsAtMs
    out.push(
      finding(
        'TXN_COORDINATOR_OVERDUE',
        `${who}: its coordinator (${o.transactionalId}, Ongoing) was to abort it at ${iso(v.coordinatorAbortsAtMs)} ` +
          `(start + transactionTimeoutMs ${o.transactionTimeoutMs}), ${minutes(late)} before ${iso(ms(nowMs))}, more than ${limit}: the coordinator ` +
          'is not aborting it. Either these __transaction_state records are a stale copy, or the coordinator never ran its timeout check ' +
          '(its __transaction_state partition not loaded or offline, its broker down). Ask the live cluster (kafka-transactions.sh describe ' +
          `--transactional-id ${o.transactionalId}); if it still says Ongoing, bring the coordinator's partition online or abort it ` +
          '(kafka-transactions.sh abort, as tsdump lso prints)',
        at,
      ),
    )
  }
  if (v.candidate && v.coordinatorLost !== null && v.ageMs !== null) {
    out.push(
      finding(
        'TXN_COORDINATOR_UNKNOWN',
        `${who}: open ${minutes(v.ageMs)}, more than ${limit}, but whether its coordinator still ` +
          `owns it cannot be told: ${lostText(v.coordinatorLost)}, where its newest state may be. Ask the live cluster ` +
          '(kafka-transactions.sh find-hanging, describe --transactional-id) before aborting: if the coordinator is committing it, an abort here ' +
          'would split the transaction',
        at,
      ),
    )
  }
  // located by the partition and the transaction's offsets
  for (const f of out) f.partition = label
  return out
}
