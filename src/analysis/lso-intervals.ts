// Visibility without keeping batches: which records are final and which still depend on a transaction
// that is not stable, as the batches of a partition stream past (partition-analyzer.ts feeds it).
//
// H is the high watermark (from the checkpoint; without one it is the log end offset, which no batch
// reaches, so H = +∞ during the pass). Let m be the first offset of the earliest transaction that is still
// unstable (open, or ended by a marker at or above H). Every batch before m belongs to a stable transaction
// or to none, and the final LSO is ≥ m (a transaction unstable at the end is unstable now or starts later),
// so batches before m are final: `final*`. Batches after m go into *intervals*, one per unstable
// transaction, starting at its first batch: each holds the records of stable transactions and plain
// batches (visible / aborted) and, per still-open transaction, its pending records. When a transaction
// becomes stable (marker below H) its pending records turn visible or aborted, and its interval merges into
// the previous one (or into `final*`). At the end the LSO is the first interval's start (or H); what is
// left in intervals is pending. This relies on offsets increasing along the log; where they do not
// (OFFSETS_NOT_INCREASING) the counts follow log order.
import type { Interval, Txn } from './streaming-txn.js'
import { addPending } from './streaming-txn.js'

export class LsoIntervals {
  private readonly ivs: Interval[] = []
  /** records before the first unstable transaction: visible, aborted, and what a consumer trusting .txnindex returns */
  finalVisible = 0
  finalAborted = 0
  finalConsumer = 0

  get length(): number {
    return this.ivs.length
  }

  /** `t` began and is not stable: its interval starts here */
  open(t: Txn): void {
    const iv: Interval = { owner: t, visible: 0, aborted: 0, consumer: 0, own: 0, pending: null }
    t.iv = iv
    this.ivs.push(iv)
  }

  /** `n` records of a plain (non-transactional) batch, `seen` of them returned by the consumer */
  plain(n: number, seen: number): void {
    // the length asked first: ivs[-1] of an empty list is a named property looked up along the prototype chain,
    // which V8 does not optimise (150 ns a call; 3 M plain batches of a busy coordinator's partitions)
    const k = this.ivs.length
    if (k === 0) {
      this.finalVisible += n
      this.finalConsumer += seen
    } else {
      const last = this.ivs[k - 1]!
      last.visible += n
      last.consumer += seen
    }
  }

  /** `n` records of the open transaction `t`, `seen` of them returned by the consumer */
  pending(t: Txn, n: number, seen: number): void {
    const last = this.ivs[this.ivs.length - 1]! // t is open, so its interval (or a later one) exists
    addPending(last, t, n)
    last.consumer += seen
  }

  /** `t` ended below the HW: its records are final wherever they are, and it no longer bounds the LSO. */
  stabilize(t: Txn): void {
    const iv = t.iv
    if (iv === null) return
    t.iv = null
    const ivs = this.ivs
    const at = ivs.indexOf(iv)
    const commit = t.marker?.type === 'COMMIT'
    if (commit) iv.visible += iv.own
    else iv.aborted += iv.own
    iv.own = 0
    for (let j = at + 1; j < ivs.length; j++) {
      const x = ivs[j]!
      const p = x.pending?.get(t)
      if (p === undefined) continue
      x.pending!.delete(t)
      if (commit) x.visible += p
      else x.aborted += p
    }
    if (at === 0) {
      // nothing still open can have records here: a transaction writes into the newest interval, at or after its own
      this.finalVisible += iv.visible
      this.finalAborted += iv.aborted
      this.finalConsumer += iv.consumer
    } else {
      const prev = ivs[at - 1]!
      prev.visible += iv.visible
      prev.aborted += iv.aborted
      prev.consumer += iv.consumer
      if (iv.pending !== null) for (const [k, v] of iv.pending) addPending(prev, k, v)
    }
    if (at === ivs.length - 1) ivs.pop()
    else ivs.splice(at, 1)
  }

  /**
   * the first offset of the earliest unstable transaction (null: none): a lower bound of the final LSO while offsets
   * increase. Intervals begin in first-offset order after the ones a snapshot seeded at the start, so only those and
   * the first other one are looked at
   */
  earliestFirst(): bigint | null {
    let min: bigint | null = null
    for (const iv of this.ivs) {
      const f = BigInt(iv.owner.firstOffset)
      if (min === null || f < min) min = f
      if (!iv.owner.seeded) break
    }
    return min
  }

  /** the transactions still unstable, in the order their intervals began */
  owners(): Txn[] {
    return this.ivs.map((iv) => iv.owner)
  }

  /** records of aborted transactions that wait behind an unstable one (in [LSO, HW) at the end) */
  abortedBeyond(): number {
    return this.ivs.reduce((n, iv) => n + iv.aborted, 0)
  }

  /** pending entries held, for the memory tests (AnalyzerStats) */
  pendingEntries(): number {
    let n = 0
    for (const iv of this.ivs) n += (iv.pending?.size ?? 0) + (iv.own > 0 ? 1 : 0)
    return n
  }
}
