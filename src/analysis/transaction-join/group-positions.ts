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
/** a chunk's base up to this is exact as a number with any int32 added */
const EXACT = 2n ** 52n
const INT32_MIN = -(2n ** 31n)
const INT32_MAX = 2n ** 31n - 1n

/**
 * A column of int64 values in chunks of CHUNK: each chunk its first value and the others' int32 differences from it
 * (4 bytes a value: a group's commits and log positions are close together), or its values whole (8 bytes) once one
 * is not within int32 of the first. A value is read as a number when it is exact as one, else as a bigint (`<` and
 * `>` compare either exactly; equality is `same`).
 */
class Int64Column {
  private readonly bases: bigint[] = []
  /** the base as a number when exact with any int32 added, else NaN */
  private readonly baseNums: number[] = []
  private readonly small: Array<Int32Array | null> = []
  private readonly whole: Array<BigInt64Array | null> = []

  /** value k (the next one) set; `room` its chunk's size when it begins one */
  push(k: number, v: bigint, room: number): void {
    const c = (k / CHUNK) | 0
    const i = k % CHUNK
    if (i === 0) {
      this.bases.push(v)
      this.baseNums.push(v <= EXACT && v >= -EXACT ? Number(v) : Number.NaN)
      this.small.push(new Int32Array(room))
      this.whole.push(null)
    }
    const s = this.small[c]
    if (s !== null && s !== undefined) {
      const d = v - this.bases[c]!
      if (d >= INT32_MIN && d <= INT32_MAX) {
        this.room(c, i)[i] = Number(d)
        return
      }
      // not within int32 of the chunk's first: the chunk's values held whole from here on
      const w = new BigInt64Array(s.length)
      for (let j = 0; j < i; j++) w[j] = this.bases[c]! + BigInt(s[j]!)
      this.whole[c] = w
      this.small[c] = null
    }
    let w = this.whole[c]!
    if (i === w.length) {
      const g = new BigInt64Array(Math.min(CHUNK, 2 * w.length))
      g.set(w)
      this.whole[c] = g
      w = g
    }
    w[i] = v
  }

  /** chunk c's differences, grown (only the first chunk starts small) to hold index i */
  private room(c: number, i: number): Int32Array {
    const s = this.small[c]!
    if (i < s.length) return s
    const g = new Int32Array(Math.min(CHUNK, 2 * s.length))
    g.set(s)
    this.small[c] = g
    return g
  }

  get(k: number): number | bigint {
    const c = (k / CHUNK) | 0
    const i = k % CHUNK
    const s = this.small[c]
    if (s === null) return this.whole[c]![i]!
    const b = this.baseNums[c]!
    return b === b ? b + s![i]! : this.bases[c]! + BigInt(s![i]!)
  }
}

/** a === b for values of either form */
const same = (a: number | bigint, b: number | bigint): boolean => !(a < b) && !(a > b)

/**
 * one (log, group, input partition)'s events, three int64 each (offset NONE for a deleted one), in the order added:
 * in columns of chunks, so that a group of a million commits takes 12 bytes each (24 where they are far apart) and is
 * never copied to grow
 */
class Events {
  private readonly recs = new Int64Column()
  private readonly ats = new Int64Column()
  private readonly offs = new Int64Column()
  n = 0
  /** every event added at a log position not below the one before (the partition read in order): no sort needed */
  ordered = true
  positions: Positions | null = null
  push(e: Effective): void {
    // a key's first chunk is small: most keys hold a few events
    const room = this.n === 0 ? 16 : CHUNK
    if (this.n > 0 && e.at < this.at(this.n - 1)) this.ordered = false
    this.recs.push(this.n, e.record, room)
    this.ats.push(this.n, e.at, room)
    this.offs.push(this.n, e.offset ?? NONE, room)
    this.n++
    this.positions = null
  }
  rec(k: number): number | bigint {
    return this.recs.get(k)
  }
  at(k: number): number | bigint {
    return this.ats.get(k)
  }
  /** the offset, null for a deleted one */
  off(k: number): bigint | null {
    const o = this.offs.get(k)
    return typeof o === 'number' ? BigInt(o) : o === NONE ? null : o
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
    if (win < 0 || l.rec(i) > l.rec(win) || (same(l.rec(i), l.rec(win)) && i < win)) win = i
    best[k] = win
  }
  return { order, best }
}

/** what the group holds at log position `p` (`inclusive`: the record at p counts) */
function holds(l: Events, ps: Positions, p: bigint, inclusive: boolean): bigint | null {
  const atOf = (k: number): number | bigint => l.at(ps.order === null ? k : ps.order[k]!)
  let lo = 0
  let hi = l.n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (inclusive ? atOf(mid) <= p : atOf(mid) < p) lo = mid + 1
    else hi = mid
  }
  if (lo === 0) return null
  return l.off(ps.best[lo - 1]!)
}
