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
      const start = began(t)
      const replacedBy = processIds.find(
        (p) => p !== id.processId && start !== null && (a.first.get(p) ?? null) !== null && a.first.get(p)! > start,
      )
      const own = t.runs
        .filter((r) => changelogStore(applicationId, r.topic) !== null)
        .map((r) => `${r.topic}-${r.partition}`)
        .sort()
      let restart: RestartEffect
      let why: string
      if (replacedBy !== undefined) {
        restart = 'lingers'
        why = `process ${id.processId} was replaced by process ${replacedBy} (a start with a new process id): nothing uses this id again, only the coordinator's timeout ends the transaction`
      } else if (stores.size > 0) {
        restart = 'fences'
        why =
          `the application has state stores (${[...stores].sort().join(', ')}): with persistent ones its process id is kept in <state.dir>/${applicationId}/kafka-streams-process-metadata, ` +
          'so a restart on the same state directory uses the same transactional id and its InitProducerId aborts this transaction at once'
      } else {
        restart = 'lingers'
        why =
          "no state store (no changelog in its transactions): a stateless application draws a new process id at every start, so a restart uses a new transactional id and this one waits for the coordinator's timeout"
      }
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
