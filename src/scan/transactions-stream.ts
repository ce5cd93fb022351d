// `transactions` in bounded memory: a hash join by producer id, then an external merge. The broker model's one
// pass put every run, coordinator episode (cut as its records come: EpisodeCutter), producer -> id record and
// transactional offset commit in the bucket of its producer id (scan/transactions-collect.ts). Every join key starts
// with the producer id, so each bucket is joined on its own (analysis/transaction-join/bucket-join.ts) with the
// facts that span producers kept whole but small: the partitions read and damaged, each group's commits as int64
// triples (GroupTimelines), the newest coordinator state per id. A bucket is joined a share of its producer ids at
// a time (scan/transaction-buckets.ts), each share's transactions, sorted, a run (scan/joined-runs.ts); the runs
// merged give the listed order, one transaction at a time, and what needs all of them (the exactly-once check, the
// id families) is tallied as they pass.
import type { RangeSpec } from '../analysis/range-filter.js'
import type { Ordered } from '../analysis/transaction-join/bucket-join.js'
import { compareOrdered, joinBucket, stateWanted } from '../analysis/transaction-join/bucket-join.js'
import { ExactlyOnceTally } from '../analysis/transaction-join/exactly-once.js'
import { idFamilies, idFamily } from '../analysis/transaction-join/id-families.js'
import { flinkSinks } from '../analysis/transaction-join/flink-ids.js'
import { streamsApplications } from '../analysis/transaction-join/streams-ids.js'
import type { JoinedTransaction, TransactionsStreamed } from '../analysis/transaction-join/types.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { JoinedRuns } from './joined-runs.js'
import type { Collected } from './transactions-collect.js'

export interface JoinInput {
  filter?: RangeSpec
  selects?: (topic: string, partition: number) => boolean
  nowMs: number
  nowGiven: boolean
  maxTransactionTimeoutMinutes: number
}

/** TransactionsStreamed, and its temp files' removal (items does it at its end or when left early) */
export interface TransactionsStream extends TransactionsStreamed {
  close: () => void
}

/** the collected buckets joined one at a time, their sorted runs merged as `items` is read */
export function streamTransactions(c: Collected, inp: JoinInput): TransactionsStream {
  const { filter } = inp
  const { buckets, spill, files, firstSeen, findings } = c
  try {
    const judged = c.states
    const states = judged.filter((s) => filter === undefined || stateWanted(s.transactionalId, s.producerId, filter))
    const ctx = {
      scanned: c.scanned,
      damaged: c.damaged,
      groups: c.groups,
      states: judged,
      nowMs: inp.nowMs,
      maxTransactionTimeoutMs: inp.maxTransactionTimeoutMinutes * 60_000,
      ...(filter !== undefined ? { filter } : {}),
      ...(inp.selects !== undefined ? { selects: inp.selects } : {}),
    }
    // each bucket joined on its own, a share of its producer ids at a time, each share sorted into a run
    let whole: Ordered[] = []
    const runs = spill === null ? null : new JoinedRuns(spill, files)
    let count = 0
    let producers = 0
    // the Flink and Kafka Streams ids' transactions, for their attribution (flink-ids.ts, streams-ids.ts): the
    // only ones held, and only those whose id has their shape
    const shaped: Ordered[] = []
    // every bucket's records written out before the first is read: the runs then have the write buffer
    buckets.flush()
    const kept = (o: Ordered): void => {
      if (o.t.transactionalId !== null && idFamily(o.t.transactionalId).kind !== 'plain') shaped.push(o)
      count++
    }
    const pids = new Set<bigint>()
    for (let b = 0; b < buckets.n; b++) {
      if (runs === null) {
        // in memory there is one bucket, taken whole
        for (const input of buckets.take(b)) {
          whole = joinBucket(input, ctx)
          for (const o of whole) kept(o)
          producers += new Set(whole.map((o) => o.t.producerId)).size
        }
        continue
      }
      for (const share of buckets.takeGroups(b)) {
        runs.joinShare(share, ctx, (o) => {
          kept(o)
          pids.add(o.t.producerId)
        })
        // a producer id is in one share
        producers += pids.size
        pids.clear()
      }
      runs.endBucket()
    }
    const eos = new ExactlyOnceTally()
    const result: TransactionsStream = {
      count,
      producers,
      transactionalIds: states,
      exactlyOnce: [],
      idFamilies: [],
      ...shapedAttribution(
        shaped.sort(compareOrdered).map((o) => o.t),
        judged,
      ),
      stateLogs: c.stateLogs,
      lookedIn: c.lookedIn,
      findings,
      nowMs: inp.nowMs,
      nowGiven: inp.nowGiven,
      maxTransactionTimeoutMinutes: inp.maxTransactionTimeoutMinutes,
      items: items(),
      close: () => spill?.close(),
    }
    function* items(): Generator<JoinedTransaction> {
      const shownIds = new Set<string>()
      try {
        for (const t of runs === null ? whole.map((o) => o.t) : runs.merged()) {
          eos.add(t)
          if (t.transactionalId !== null) {
            shownIds.add(t.transactionalId)
            if (!firstSeen.has(t.transactionalId)) firstSeen.set(t.transactionalId, t.firstTimestamp)
          }
          yield t
        }
      } finally {
        spill?.close()
      }
      const e = eos.finish(c.plain.values())
      for (const f of e.findings) findings.push(f)
      // one at a time: a million producers as arguments overflow the stack
      let listed = 0
      for (const p of e.producers) {
        result.exactlyOnce.push(p)
        listed += p.producerIds.length
      }
      if (e.notCheckedTransactions > 0) {
        result.exactlyOnceNotChecked = {
          checked: e.producers.length,
          producerIds: Math.max(0, producers - listed),
          transactions: e.notCheckedTransactions,
        }
      }
      const wantedIds = new Set(states.map((s) => s.transactionalId))
      const ids = new Map(
        [...firstSeen].filter(([id]) => filter === undefined || wantedIds.has(id) || shownIds.has(id)),
      )
      for (const f of idFamilies(ids)) result.idFamilies.push(f)
    }
    return result
  } catch (e) {
    spill?.close()
    throw e
  }
}

/** the Flink sinks' and Kafka Streams applications' attribution, over their transactions in the output's order */
function shapedAttribution(
  txs: JoinedTransaction[],
  states: TransactionalIdState[],
): Pick<TransactionsStream, 'streams' | 'flinkSinks'> {
  return { streams: streamsApplications(txs), flinkSinks: flinkSinks(txs, states) }
}
