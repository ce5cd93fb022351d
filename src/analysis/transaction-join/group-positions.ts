// A group's committed offset per input partition before and after each transaction that carried it. One
// group's commits all live in one __consumer_offsets partition, whose log order is the group coordinator's: a
// plain commit takes effect at its record, a transactional one (TxnOffsetCommit, held pending) when its COMMIT
// marker lands, an aborted one never; and a pending offset that becomes committed replaces the committed one only
// when its own record is the later (GroupMetadata.completePendingTxnOffsetCommit: olderThan by record offset;
// OffsetMetadataManager.replayEndTransactionMarker). So at a log position the group holds, of the commits in
// effect there, the one with the highest record offset: a plain commit made while the transaction was open wins.
import type { JoinedTransaction, OffsetCommitRecord } from './types.js'

interface Effective {
  record: bigint
  at: bigint
  offset: bigint | null
}

export function fillGroupPositions(
  txs: readonly JoinedTransaction[],
  commits: ReadonlyMap<string, readonly OffsetCommitRecord[]>,
): void {
  const g = new GroupTimelines()
  for (const [log, cs] of commits) g.addPlain(log, cs)
  for (const t of txs) {
    for (const c of t.offsetCommits) {
      const run = t.runs.find((r) => `${r.topic}-${r.partition}` === c.log)
      if (run?.marker?.type === 'COMMIT')
        g.add(c.log, c.group, c.topic, c.partition, { record: c.recordOffset, at: run.marker.offset, offset: c.offset })
    }
  }
  for (const t of txs) g.fill(t)
}

const NONE = -(2n ** 63n)
const keyOf = (log: string, group: string, topic: string, partition: number): string =>
  `${log}\u0000${group}\u0000${topic}-${partition}`
/** events per chunk: a key's events are held in chunks of this many, never copied to grow */
const CHUNK = 4096

/**
 * one (log, group, input partition)'s events, three int64 each (offset NONE for a deleted one), in the order added:
 * in fixed chunks, so that a group of a million commits takes 24 bytes each and is never copied to grow
 */
class Events {
  private readonly recs: BigInt64Array[] = []
  private readonly ats: BigInt64Array[] = []
  private readonly offs: BigInt64Array[] = []
  n = 0
  /** every event added at a log position not below the one before (the partition read in order): no sort needed */
  ordered = true
  positions: Positions | null = null
  push(e: Effective): void {
    const i = this.n % CHUNK
    if (i === 0) {
      // a key's first chunk is small: most keys hold a few events
      const size = this.n === 0 ? 16 : CHUNK
      this.recs.push(new BigInt64Array(size))
      this.ats.push(new BigInt64Array(size))
      this.offs.push(new BigInt64Array(size))
    } else if (this.n < CHUNK && i === this.recs[0]!.length) {
      const grow = (a: BigInt64Array[]): void => {
        const b = new BigInt64Array(Math.min(CHUNK, 2 * a[0]!.length))
        b.set(a[0]!)
        a[0] = b
      }
      grow(this.recs)
      grow(this.ats)
      grow(this.offs)
    }
    const c = (this.n / CHUNK) | 0
    if (this.n > 0 && e.at < this.at(this.n - 1)) this.ordered = false
    this.recs[c]![i] = e.record
    this.ats[c]![i] = e.at
    this.offs[c]![i] = e.offset ?? NONE
    this.n++
    this.positions = null
  }
  rec(k: number): bigint {
    return this.recs[(k / CHUNK) | 0]![k % CHUNK]!
  }
  at(k: number): bigint {
    return this.ats[(k / CHUNK) | 0]![k % CHUNK]!
  }
  off(k: number): bigint {
    return this.offs[(k / CHUNK) | 0]![k % CHUNK]!
  }
}

/**
 * Every group's commits in effect, gathered while the partitions are read (a plain commit at its record, a
 * transactional one at its COMMIT marker), then asked for each transaction's offset commits: held as int64
 * triples, not one object per commit.
 */
export class GroupTimelines {
  private readonly events = new Map<string, Events>()

  add(log: string, group: string, topic: string, partition: number, e: Effective): void {
    const k = keyOf(log, group, topic, partition)
    let l = this.events.get(k)
    if (l === undefined) {
      l = new Events()
      this.events.set(k, l)
    }
    l.push(e)
  }

  /** the plain commits of a __consumer_offsets partition */
  addPlain(log: string, cs: readonly OffsetCommitRecord[]): void {
    for (const c of cs)
      if (!c.transactional)
        this.add(log, c.group, c.topic, c.partition, { record: c.recordOffset, at: c.recordOffset, offset: c.offset })
  }

  /** committedBefore / committedAfter of each of t's offset commits */
  fill(t: JoinedTransaction): void {
    for (const c of t.offsetCommits) {
      const marker = t.runs.find((r) => `${r.topic}-${r.partition}` === c.log)?.marker ?? null
      const l = this.events.get(keyOf(c.log, c.group, c.topic, c.partition))
      if (l === undefined) {
        c.committedBefore = null
        c.committedAfter = null
        continue
      }
      l.positions ??= positionsOf(l)
      c.committedBefore = holds(l, l.positions, c.recordOffset, false)
      c.committedAfter = marker === null ? null : holds(l, l.positions, marker.offset, true)
    }
  }
}

/**
 * The events by log position (`at`, ascending) and at each the winner of those up to it (highest record offset, the
 * earlier listed on a tie), as indexes into the events: no object per event (a group of a million commits). Events
 * added in log order are their own order: only the winners are made.
 */
interface Positions {
  /** the k-th event by log position (null: the k-th added) */
  order: Int32Array | null
  best: Int32Array
}

function positionsOf(l: Events): Positions {
  const n = l.n
  let order: Int32Array | null = null
  if (!l.ordered) {
    order = Int32Array.from({ length: n }, (_, i) => i)
    order.sort((a, b) => (l.at(a) < l.at(b) ? -1 : l.at(a) > l.at(b) ? 1 : a - b))
  }
  const best = new Int32Array(n)
  let win = -1
  for (let k = 0; k < n; k++) {
    const i = order === null ? k : order[k]!
    if (win < 0 || l.rec(i) > l.rec(win) || (l.rec(i) === l.rec(win) && i < win)) win = i
    best[k] = win
  }
  return { order, best }
}

/** what the group holds at log position `p` (`inclusive`: the record at p counts) */
function holds(l: Events, ps: Positions, p: bigint, inclusive: boolean): bigint | null {
  const atOf = (k: number): bigint => l.at(ps.order === null ? k : ps.order[k]!)
  let lo = 0
  let hi = l.n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (inclusive ? atOf(mid) <= p : atOf(mid) < p) lo = mid + 1
    else hi = mid
  }
  if (lo === 0) return null
  const o = l.off(ps.best[lo - 1]!)
  return o === NONE ? null : o
}
