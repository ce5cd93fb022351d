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
  /** what the group holds at log position `p` (`inclusive`: the record at p counts) */
  const holds = (l: readonly Effective[], p: bigint, inclusive: boolean): bigint | null => {
    let best: Effective | null = null
    for (const e of l) if ((inclusive ? e.at <= p : e.at < p) && (best === null || e.record > best.record)) best = e
    return best === null ? null : best.offset
  }
  for (const t of txs) {
    for (const c of t.offsetCommits) {
      const marker = t.runs.find((r) => `${r.topic}-${r.partition}` === c.log)?.marker ?? null
      const l = events.get(`${c.log}\u0000${c.group}\u0000${c.topic}-${c.partition}`) ?? []
      c.committedBefore = holds(l, c.recordOffset, false)
      c.committedAfter = marker === null ? null : holds(l, marker.offset, true)
    }
  }
}
