// KAFKA-19999: a coordinator retrying WriteTxnMarkers can append the same COMMIT/ABORT twice, the second
// with the same producer epoch and no transaction open. Kafka's producer state ignores it; counting it
// as one more empty transaction would be wrong. Remembers the last marker of the most recent producers
// only, so memory stays bounded however many producer ids the log has: a duplicate that far behind its
// first marker is counted as an empty transaction.
//
// Only a marker with no transaction open is checked, and a producer's data opens one whose marker is then
// remembered in its place: data needs no bookkeeping here. Markers are one batch in two on a transactional
// log, so remembering costs one Map.set of a known key: two generations of at most `max` producers each
// (the newer one is asked first), instead of a recency order kept by delete and re-insert per marker
// (that Map churn was about 8% of reconcile's CPU).
import type { I64 } from '../bytes/int64.js'
import type { MarkerType } from './transactions.js'

const MAX_REMEMBERED = 1024

const pack = (epoch: number, outcome: MarkerType): number => epoch * 2 + (outcome === 'COMMIT' ? 1 : 0)

export class RecentMarkers {
  /** pid -> epoch * 2 + (COMMIT ? 1 : 0): a number, not an object per marker (txns-memory.test.ts bounds peak RSS) */
  private newer = new Map<I64, number>()
  private older = new Map<I64, number>()

  /** at least the `max` producers whose markers came last are remembered, fewer than 2 * max in all */
  constructor(private readonly max = MAX_REMEMBERED) {}

  /** a marker that ended a transaction (or an empty one) */
  ended(pid: I64, epoch: number, outcome: MarkerType): void {
    this.newer.set(pid, pack(epoch, outcome))
    if (this.newer.size >= this.max) {
      this.older = this.newer
      this.newer = new Map()
    }
  }

  /** a marker with no open transaction that repeats this producer's last one: same epoch, same outcome */
  isDuplicate(pid: I64, epoch: number, outcome: MarkerType): boolean {
    return (this.newer.get(pid) ?? this.older.get(pid)) === pack(epoch, outcome)
  }
}
