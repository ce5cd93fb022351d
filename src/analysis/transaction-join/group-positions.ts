// A group's committed offset per input partition before and after each transaction that carried it. One
// group's commits all live in one __consumer_offsets partition, whose log order is the group coordinator's: a
// plain commit takes effect at its record, a transactional one (TxnOffsetCommit, held pending) when its COMMIT
// marker lands, an aborted one never; and a pending offset that becomes committed replaces the committed one only
// when its own record is the later (GroupMetadata.completePendingTxnOffsetCommit: olderThan by record offset;
// OffsetMetadataManager.replayEndTransactionMarker). So at a log position the group holds, of the commits in
// effect there, the one with the highest record offset: a plain commit made while the transaction was open wins.
import type { JoinedTransaction, OffsetCommitRecord } from './types.js'

interface Effective { record: bigint, at: bigint, offset: bigint | null }

export function fillGroupPositions (txs: readonly JoinedTransaction[], commits: ReadonlyMap<string, readonly OffsetCommitRecord[]>): void {
  const events = new Map<string, Effective[]>()
  const add = (log: string, group: string, topic: string, partition: number, e: Effective): void => {
    const k = `${log}\u0000${group}\u0000${topic}-${partition}`
    let l = events.get(k)
    if (l === undefined) { l = []; events.set(k, l) }
    l.push(e)
  }
  for (const [log, cs] of commits) for (const c of cs) if (!c.transactional) add(log, c.group, c.topic, c.partition, { record: c.recordOffset, at: c.recordOffset, offset: c.offset })
  for (const t of txs) {
    for (const c of t.offsetCommits) {
      const run = t.runs.find((r) => `${r.topic}-${r.partition}` === c.log)
      if (run?.marker?.type === 'COMMIT') add(c.log, c.group, c.topic, c.partition, { record: c.recordOffset, at: run.marker.offset, offset: c.offset })
    }
  }
  const positions = new Map<string, Positions>()
  for (const t of txs) {
    for (const c of t.offsetCommits) {
      const marker = t.runs.find((r) => `${r.topic}-${r.partition}` === c.log)?.marker ?? null
      const k = `${c.log}\u0000${c.group}\u0000${c.topic}-${c.partition}`
      let ps = positions.get(k)
      if (ps === undefined) { ps = positionsOf(events.get(k) ?? []); positions.set(k, ps) }
      c.committedBefore = holds(ps, c.recordOffset, false)
      c.committedAfter = marker === null ? null : holds(ps, marker.offset, true)
    }
  }
}

/** the events by log position, each with the winner (highest record offset, the earlier listed on a tie) of those up to it */
interface Positions { at: bigint[], best: Effective[] }

function positionsOf (l: readonly Effective[]): Positions {
  const order = [...l.keys()].sort((a, b) => (l[a]!.at < l[b]!.at ? -1 : l[a]!.at > l[b]!.at ? 1 : a - b))
  const best: Effective[] = []
  const bestAt: number[] = []
  for (const i of order) {
    const prev = bestAt.at(-1)
    const win = prev === undefined || l[i]!.record > l[prev]!.record || (l[i]!.record === l[prev]!.record && i < prev) ? i : prev
    bestAt.push(win)
    best.push(l[win]!)
  }
  return { at: order.map((i) => l[i]!.at), best }
}

/** what the group holds at log position `p` (`inclusive`: the record at p counts) */
function holds (ps: Positions, p: bigint, inclusive: boolean): bigint | null {
  let lo = 0
  let hi = ps.at.length
  while (lo < hi) { const mid = (lo + hi) >>> 1; if (inclusive ? ps.at[mid]! <= p : ps.at[mid]! < p) lo = mid + 1; else hi = mid }
  return lo === 0 ? null : ps.best[lo - 1]!.offset
}
