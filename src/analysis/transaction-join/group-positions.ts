// A group's committed offset per input partition before and after each transaction that carried it. One
// group's commits all live in one __consumer_offsets partition, whose log order is the group coordinator's: a
// plain commit takes effect at its record, a transactional one (TxnOffsetCommit, held pending) when its COMMIT
// marker lands, an aborted one never; and a pending offset that becomes committed replaces the committed one only
// when its own record is the later (GroupMetadata.completePendingTxnOffsetCommit: olderThan by record offset;
// OffsetMetadataManager.replayEndTransactionMarker). So at a log position the group holds, of the commits in
// effect there, the one with the highest record offset: a plain commit made while the transaction was open wins.
import type { JoinedTransaction, OffsetCommitRecord, PartitionRun } from './types.js'

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
const grow = (a: BigInt64Array<ArrayBuffer>): BigInt64Array<ArrayBuffer> => {
  const b = new BigInt64Array(a.length * 2)
  b.set(a)
  return b
}

/** one (log, group, input partition)'s events, three int64 each (offset NONE for a deleted one), in the order added */
class Events {
  rec = new BigInt64Array(16)
  at = new BigInt64Array(16)
  off = new BigInt64Array(16)
  n = 0
  positions: Positions | null = null
  push(e: Effective): void {
    if (this.n === this.rec.length) {
      this.rec = grow(this.rec)
      this.at = grow(this.at)
      this.off = grow(this.off)
    }
    this.rec[this.n] = e.record
    this.at[this.n] = e.at
    this.off[this.n] = e.offset ?? NONE
    this.n++
    this.positions = null
  }

  list(): Effective[] {
    const out: Effective[] = []
    for (let i = 0; i < this.n; i++)
      out.push({ record: this.rec[i]!, at: this.at[i]!, offset: this.off[i] === NONE ? null : this.off[i]! })
    return out
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
      let ps: Positions = { at: [], best: [] }
      if (l !== undefined) {
        l.positions ??= positionsOf(l.list())
        ps = l.positions
      }
      c.committedBefore = holds(ps, c.recordOffset, false)
      c.committedAfter = marker === null ? null : holds(ps, marker.offset, true)
    }
  }
}

/**
 * The runs of a __consumer_offsets partition as int64s: which COMMIT marker made a transactional commit take
 * effect (a commit lies inside its producer's run, from its first offset to its marker).
 */
export class RunSpans {
  private pid = new BigInt64Array(64)
  private first = new BigInt64Array(64)
  private end = new BigInt64Array(64)
  private commitAt = new BigInt64Array(64)
  private n = 0
  private order: Int32Array | null = null

  add(r: PartitionRun): void {
    if (this.n === this.pid.length) {
      this.pid = grow(this.pid)
      this.first = grow(this.first)
      this.end = grow(this.end)
      this.commitAt = grow(this.commitAt)
    }
    this.pid[this.n] = r.producerId
    this.first[this.n] = r.firstOffset
    this.end[this.n] = r.marker?.offset ?? r.lastDataOffset ?? r.firstOffset
    this.commitAt[this.n] = r.marker?.type === 'COMMIT' ? r.marker.offset : NONE
    this.n++
    this.order = null
  }

  /** the offset of the COMMIT marker that made producer `pid`'s commit at `offset` take effect; null when none did */
  committedAt(pid: bigint, offset: bigint): bigint | null {
    if (this.order === null) {
      const o = Int32Array.from({ length: this.n }, (_, i) => i)
      const { pid: p, first: f } = this
      o.sort((a, b) => (p[a]! < p[b]! ? -1 : p[a]! > p[b]! ? 1 : f[a]! < f[b]! ? -1 : f[a]! > f[b]! ? 1 : a - b))
      this.order = o
    }
    const o = this.order
    let lo = 0
    let hi = o.length
    // past the last run of pid that begins at or before offset
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const i = o[mid]!
      if (this.pid[i]! < pid || (this.pid[i] === pid && this.first[i]! <= offset)) lo = mid + 1
      else hi = mid
    }
    if (lo === 0) return null
    const i = o[lo - 1]!
    if (this.pid[i] !== pid || offset > this.end[i]!) return null
    return this.commitAt[i] === NONE ? null : this.commitAt[i]!
  }
}

/** the events by log position, each with the winner (highest record offset, the earlier listed on a tie) of those up to it */
interface Positions {
  at: bigint[]
  best: Effective[]
}

function positionsOf(l: readonly Effective[]): Positions {
  const order = [...l.keys()].sort((a, b) => (l[a]!.at < l[b]!.at ? -1 : l[a]!.at > l[b]!.at ? 1 : a - b))
  const best: Effective[] = []
  const bestAt: number[] = []
  for (const i of order) {
    const prev = bestAt.at(-1)
    const win =
      prev === undefined || l[i]!.record > l[prev]!.record || (l[i]!.record === l[prev]!.record && i < prev) ? i : prev
    bestAt.push(win)
    best.push(l[win]!)
  }
  return { at: order.map((i) => l[i]!.at), best }
}

/** what the group holds at log position `p` (`inclusive`: the record at p counts) */
function holds(ps: Positions, p: bigint, inclusive: boolean): bigint | null {
  let lo = 0
  let hi = ps.at.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (inclusive ? ps.at[mid]! <= p : ps.at[mid]! < p) lo = mid + 1
    else hi = mid
  }
  return lo === 0 ? null : ps.best[lo - 1]!.offset
}
