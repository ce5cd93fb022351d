// The join of one share of the producers: every run, coordinator episode, producer -> transactional id record and
// transactional offset commit of producer ids that fall in one bucket (a producer id's transactions never span two,
// since every join key starts with the producer id), joined, completed and judged as the whole input would be,
// then put in the listed order. `transactions` runs this per bucket and merges the buckets' sorted lists, so memory
// holds one bucket, not the input. The order: the transactions in the order they began (the coordinator's first
// record, else the first marker: data timestamps can be event times, as Kafka Streams writes them), then producer
// id and epoch; a tie keeps the join's own order, which only depends on the order the runs were read.
import type { RangeSpec } from '../range-filter.js'
import type { TransactionalIdState } from '../transactional-id-state.js'
import type { CompleteContext } from './consistency.js'
import { completeTransaction } from './consistency.js'
import type { GroupTimelines } from './group-positions.js'
import { joinRuns } from './join.js'
import { judgeOpenRuns } from './open-runs.js'
import type { Episode, JoinedTransaction, OffsetCommitRecord, PartitionRun } from './types.js'

/** what one bucket holds */
export interface BucketInput {
  runs: PartitionRun[]
  /** in the order they began (EpisodeCutter's seq) */
  episodes: Episode[]
  idByProducer: Map<bigint, string>
  /** transactional offset commits per __consumer_offsets partition, in file order */
  commits: Map<string, OffsetCommitRecord[]>
}

export interface BucketContext {
  scanned: ReadonlySet<string>
  damaged: NonNullable<CompleteContext['damaged']>
  groups: GroupTimelines
  /** the coordinator's newest state of every id (the hanging rule's coordinator facts) */
  states: readonly TransactionalIdState[]
  nowMs: number
  maxTransactionTimeoutMs: number
  filter?: RangeSpec
  /** --topic / --partition */
  selects?: (topic: string, partition: number) => boolean
}

/** a listed transaction and its place in the order */
export interface Ordered {
  key: bigint | null
  t: JoinedTransaction
}

const cmp = (a: bigint | null, b: bigint | null): number =>
  a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1

/** the listed order: a before b */
export function compareOrdered(a: Ordered, b: Ordered): number {
  return cmp(a.key, b.key) || cmp(a.t.producerId, b.t.producerId) || a.t.producerEpoch - b.t.producerEpoch
}

/** when it began: the coordinator's first record, else the first marker, else its first data timestamp */
export function began(t: JoinedTransaction): bigint | null {
  return (
    t.episode?.states[0]?.timestamp ??
    t.runs.reduce<bigint | null>(
      (m, r) => (r.marker === null ? m : m === null || r.marker.timestamp < m ? r.marker.timestamp : m),
      null,
    ) ??
    t.firstTimestamp
  )
}

/** the bucket's transactions that the filters keep, in the listed order */
export function joinBucket(b: BucketInput, ctx: BucketContext): Ordered[] {
  const out: Ordered[] = []
  for (const t of joinRuns(b.runs, b.episodes)) {
    const o = completeJoined(t, b, ctx)
    if (o !== null) out.push(o)
  }
  // stable: a tie keeps the join's order
  return out.sort(compareOrdered)
}

/**
 * A joined transaction completed (consistency.ts), its groups' offsets filled and its open runs judged, with its
 * place in the listed order; null when the filters drop it. Each transaction on its own: the join may hand them
 * one join key at a time.
 */
export function completeJoined(
  t: JoinedTransaction,
  b: Pick<BucketInput, 'idByProducer' | 'commits'>,
  ctx: BucketContext,
): Ordered | null {
  completeTransaction(t, {
    scanned: ctx.scanned,
    idByProducer: b.idByProducer,
    commits: b.commits,
    damaged: ctx.damaged,
  })
  ctx.groups.fill(t)
  judgeOpenRuns([t], ctx.states, ctx.nowMs, ctx.maxTransactionTimeoutMs)
  if (ctx.filter !== undefined && !wanted(t, ctx.filter)) return null
  if (ctx.selects !== undefined && !t.runs.some((r) => ctx.selects!(r.topic, r.partition))) return null
  return { key: began(t), t }
}

/** --transactional-id / --producer-id: that producer's coordinator state */
export function stateWanted(id: string, pid: bigint | null, f: RangeSpec): boolean {
  if (f.transactionalId !== undefined) return id === f.transactionalId
  return f.producerIds === undefined || (pid !== null && f.producerIds.includes(pid))
}

/** --transactional-id / --producer-id: that producer's transactions; --from-time / --to-time: those overlapping the range */
export function wanted(t: JoinedTransaction, f: RangeSpec): boolean {
  if (f.transactionalId !== undefined && t.transactionalId !== null && t.transactionalId !== f.transactionalId)
    return false
  if (f.producerIds !== undefined && !f.producerIds.includes(t.producerId)) return false
  if (f.fromTime !== undefined && t.lastTimestamp !== null && t.lastTimestamp < BigInt(f.fromTime)) return false
  if (f.toTime !== undefined && t.firstTimestamp !== null && t.firstTimestamp > BigInt(f.toTime)) return false
  return true
}
