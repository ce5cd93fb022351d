// KAFKA-19999: a coordinator retrying WriteTxnMarkers can append the same COMMIT/ABORT twice, the second
// with the same producer epoch and no transaction open. Kafka's producer state ignores it; counting it
// as one more empty transaction would be wrong. Remembers the last marker of the most recent producers
// only (MAX_REMEMBERED), so memory stays bounded however many producer ids the log has: a duplicate that
// far behind its first marker is counted as an empty transaction, as before.
import type { I64 } from './i64.js'
import type { TxnOutcome } from './transactions.js'

const MAX_REMEMBERED = 1024

const pack = (epoch: number, outcome: TxnOutcome): number => epoch * 2 + (outcome === 'COMMIT' ? 1 : 0)

export class RecentMarkers {
  /** pid -> epoch * 2 + (COMMIT ? 1 : 0): a number, not an object per marker (txns-memory.test.ts bounds peak RSS) */
  private readonly last = new Map<I64, number>()

  constructor (private readonly max = MAX_REMEMBERED) {}

  /** a marker that ended a transaction (or an empty one): remembered, the oldest forgotten beyond max */
  ended (pid: I64, epoch: number, outcome: TxnOutcome): void {
    this.last.delete(pid) // re-inserted last: Map order is the recency order
    this.last.set(pid, pack(epoch, outcome))
    if (this.last.size > this.max) this.last.delete(this.last.keys().next().value!)
  }

  /** a marker with no open transaction that repeats this producer's last one: same epoch, same outcome */
  isDuplicate (pid: I64, epoch: number, outcome: TxnOutcome): boolean {
    return this.last.get(pid) === pack(epoch, outcome)
  }

  /** the producer wrote data again: a later marker ends that, it is no duplicate */
  dataSeen (pid: I64): void { this.last.delete(pid) }
}
