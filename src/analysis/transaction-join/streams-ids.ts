// Kafka Streams' exactly_once_v2 transactional ids, and what a restart does to an open transaction of one.
// ActiveTaskCreator (Kafka Streams 4.x) names the producer of each stream thread
// `<application.id>-<processId>-<threadIdx>`: processId is a UUID, threadIdx the thread's number from 1.
// StateDirectory.initializeProcessId keeps the process id in `<state.dir>/<application.id>/kafka-streams-process-metadata`
// only when the topology has persistent stores; otherwise every start draws a new one. So:
// - an application with persistent stores restarted on the same state directory uses the same transactional ids,
//   and its InitProducerId fences (aborts) the transaction the previous run left open, at once;
// - a stateless application (or one whose state directory was lost) starts with new ids: nothing ever ends the
//   old id's transaction but the coordinator's timeout, start + transaction.timeout.ms (Streams' default 10 s).
// The files cannot show whether a store is persistent (an in-memory store has a changelog too): a changelog topic
// `<application.id>-<store>-changelog` (ProcessorStateManager.storeChangelogTopic) in its transactions is read as
// "has stores", and a later process id of the same application as "this process was replaced".
import type { JoinedTransaction } from './types.js'
import type { RestartEffect, StreamsApplication, StreamsTransaction } from './streams-types.js'

export type { RestartEffect, StreamsApplication, StreamsTransaction } from './streams-types.js'

const STREAMS_ID = /^(.+)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d+)$/

export interface StreamsId {
  applicationId: string
  processId: string
  thread: number
}

/** the parts of an exactly_once_v2 id; null for any other id */
export function parseStreamsId(id: string): StreamsId | null {
  const m = STREAMS_ID.exec(id)
  return m === null ? null : { applicationId: m[1]!, processId: m[2]!, thread: Number(m[3]) }
}

/** the store whose changelog `topic` is, for application `app`; null when it is not one */
export function changelogStore(app: string, topic: string): string | null {
  const prefix = `${app}-`
  return topic.startsWith(prefix) && topic.endsWith('-changelog') && topic.length > prefix.length + '-changelog'.length
    ? topic.slice(prefix.length, -'-changelog'.length)
    : null
}

/**
 * What an aborted exactly_once_v2 transaction costs: Streams sends its input offsets in the same transaction
 * (TaskExecutor.commitOffsetsOrTransaction), so an abort leaves the group's committed offsets before that input and
 * the next run processes it again: its output is late, not lost.
 */
export const STREAMS_ABORT_NOTE =
  "Kafka Streams commits its input offsets in the same transaction, so the group's offsets stayed before that input and the next run processes it again: the output is delayed, not lost"

const began = (t: JoinedTransaction): bigint | null =>
  t.episode?.states[0]?.startTimestamp ?? t.episode?.states[0]?.timestamp ?? t.firstTimestamp

/** the verdict in words, as every command prints it */
export const RESTART_TEXT: Record<RestartEffect, string> = {
  fences: 'a restart FENCES it',
  lingers: 'a restart leaves it to the timeout',
}

/** one line of what restarting the application does to an open transaction (lso, doctor) */
export function streamsRestartText(s: { applicationId: string; restart: RestartEffect; why: string }): string {
  return `Kafka Streams application ${s.applicationId}: ${RESTART_TEXT[s.restart]}: ${s.why}`
}

export interface RestartFacts {
  id: StreamsId
  /** when the open (or timed-out) transaction began */
  start: bigint | null
  /** the application's stores: the changelog topics seen in its transactions */
  stores: readonly string[]
  /** per process id of the application, when it was first seen (null: not known) */
  firstSeen: ReadonlyMap<string, bigint | null>
  /** what firstSeen is of, for the why */
  seen: string
}

/**
 * What a restart does to an open transaction of a Streams id: one rule for every command (transactions joins the
 * transactions and knows when each process first wrote; lso and doctor know the coordinator's newest records).
 */
export function restartVerdict(f: RestartFacts): { restart: RestartEffect; why: string } {
  const { id, start } = f
  const replacedBy = [...f.firstSeen].find(
    ([p, at]) => p !== id.processId && start !== null && at !== null && at > start,
  )?.[0]
  if (replacedBy !== undefined) {
    return {
      restart: 'lingers',
      why: `process ${id.processId} was replaced by process ${replacedBy} (${f.seen} after it began: a start with a new process id): nothing uses this id again, only the coordinator's timeout ends the transaction`,
    }
  }
  if (f.stores.length > 0) {
    return {
      restart: 'fences',
      why:
        `the application has state stores (${[...f.stores].sort().join(', ')}): with persistent ones its process id is kept in <state.dir>/${id.applicationId}/kafka-streams-process-metadata, ` +
        'so a restart on the same state directory uses the same transactional id and its InitProducerId aborts this transaction at once',
    }
  }
  return {
    restart: 'lingers',
    why: "no state store (no changelog in its transactions): a stateless application draws a new process id at every start, so a restart uses a new transactional id and this one waits for the coordinator's timeout",
  }
}

/** what the coordinator's newest records of the ids tell (analysis/transactional-id-state.ts TransactionalIdState) */
export interface StreamsIdState {
  transactionalId: string
  deleted: boolean
  partitions: readonly string[]
  startTimestamp: bigint | null
  lastUpdateTimestamp: bigint | null
}

/**
 * restartVerdict for the open transaction of `transactionalId` from the coordinator's newest record of every id:
 * the stores are the changelogs any of the application's ids lists (and `held`, the partitions it holds), a process
 * is first seen at the earliest start (else update) time of its ids' newest records. Null for a non-Streams id.
 */
export function restartFromStates(
  transactionalId: string,
  start: bigint | null,
  held: readonly string[],
  states: readonly StreamsIdState[],
): { applicationId: string; restart: RestartEffect; why: string } | null {
  const id = parseStreamsId(transactionalId)
  if (id === null) return null
  const stores = new Set<string>()
  const firstSeen = new Map<string, bigint | null>()
  const topicOf = (tp: string): string => tp.replace(/-\d+$/, '')
  for (const tp of held) {
    const s = changelogStore(id.applicationId, topicOf(tp))
    if (s !== null) stores.add(s)
  }
  for (const st of states) {
    const other = st.deleted ? null : parseStreamsId(st.transactionalId)
    if (other === null || other.applicationId !== id.applicationId) continue
    for (const tp of st.partitions) {
      const s = changelogStore(id.applicationId, topicOf(tp))
      if (s !== null) stores.add(s)
    }
    const at = st.startTimestamp !== null && st.startTimestamp >= 0n ? st.startTimestamp : st.lastUpdateTimestamp
    const f = firstSeen.get(other.processId)
    if (!firstSeen.has(other.processId) || (at !== null && (f === null || f === undefined || at < f)))
      firstSeen.set(other.processId, at)
  }
  return {
    applicationId: id.applicationId,
    ...restartVerdict({ id, start, stores: [...stores], firstSeen, seen: "first in the coordinator's newest records" }),
  }
}

/** The Kafka Streams applications among `txs` (the joined transactions), each with its process ids and verdicts. */
export function streamsApplications(txs: readonly JoinedTransaction[]): StreamsApplication[] {
  const apps = new Map<
    string,
    { txs: Array<{ t: JoinedTransaction; id: StreamsId }>; first: Map<string, bigint | null> }
  >()
  for (const t of txs) {
    const id = t.transactionalId === null ? null : parseStreamsId(t.transactionalId)
    if (id === null) continue
    let a = apps.get(id.applicationId)
    if (a === undefined) {
      a = { txs: [], first: new Map() }
      apps.set(id.applicationId, a)
    }
    a.txs.push({ t, id })
    const b = began(t)
    const f = a.first.get(id.processId)
    if (!a.first.has(id.processId) || (b !== null && (f === null || f === undefined || b < f)))
      a.first.set(id.processId, b)
  }
  const out: StreamsApplication[] = []
  for (const [applicationId, a] of [...apps].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const processIds = [...a.first]
      .sort(([, x], [, y]) => (x === y ? 0 : x === null ? 1 : y === null ? -1 : x < y ? -1 : 1))
      .map(([p]) => p)
    const changelogs = new Set<string>()
    const stores = new Set<string>()
    for (const { t } of a.txs) {
      for (const r of t.runs) {
        const s = changelogStore(applicationId, r.topic)
        if (s !== null) {
          stores.add(s)
          changelogs.add(`${r.topic}-${r.partition}`)
        }
      }
    }
    const judged: StreamsTransaction[] = []
    for (const { t, id } of a.txs) {
      const timedOut = t.abortCause?.by === 'coordinator-timeout'
      if (t.outcome !== 'open' && !timedOut) continue
      const own = t.runs
        .filter((r) => changelogStore(applicationId, r.topic) !== null)
        .map((r) => `${r.topic}-${r.partition}`)
        .sort()
      const verdict = restartVerdict({
        id,
        start: began(t),
        stores: [...stores],
        firstSeen: new Map(processIds.map((p) => [p, a.first.get(p) ?? null])),
        seen: 'first wrote',
      })
      const restart = verdict.restart
      let why = verdict.why
      if (timedOut) why = `${why}. ${STREAMS_ABORT_NOTE}`
      const ep = t.episode?.states.find((s) => s.state === 'Ongoing')
      const deadline =
        t.abortCause?.deadline ??
        (ep !== undefined && ep.startTimestamp >= 0n ? ep.startTimestamp + BigInt(ep.transactionTimeoutMs) : null)
      judged.push({
        transactionalId: t.transactionalId!,
        processId: id.processId,
        thread: id.thread,
        producerId: t.producerId,
        producerEpoch: t.producerEpoch,
        outcome: t.outcome === 'open' ? 'open' : 'aborted',
        restart,
        why,
        deadline,
        changelogs: own,
      })
    }
    out.push({
      applicationId,
      processIds,
      churn: Math.max(0, processIds.length - 1),
      threads: [...new Set(a.txs.map((x) => x.id.thread))].sort((x, y) => x - y),
      stores: [...stores].sort(),
      changelogs: [...changelogs].sort(),
      transactions: a.txs.length,
      judged,
    })
  }
  return out
}
