// Kafka Streams applications among `transactions`' ids (analysis/transaction-join/streams-ids.ts) as text and JSON:
// each application's process ids (churn), threads and changelogs, and for each open or timed-out transaction what a
// restart does to it.
import type { StreamsApplication } from '../analysis/transaction-join/streams-ids.js'
import { RESTART_TEXT } from '../analysis/transaction-join/streams-ids.js'
import type { Json } from './txn-json.js'
import { jsonInt64, jsonInt64OrNull } from './txn-json.js'
import { isoTime } from './timestamp.js'
import { wrapWords } from './wrap.js'

export function streamsLines(apps: readonly StreamsApplication[], width?: number): string[] {
  if (apps.length === 0) return []
  const lines = ['', 'Kafka Streams applications (ids <application.id>-<process id>-<thread>):']
  const put = (text: string, indent: string): void => {
    for (const l of wrapWords(text, indent, width)) lines.push(l)
  }
  for (const a of apps) {
    const procs = a.processIds.length
    put(
      `${a.applicationId}: ${a.transactions} transaction${a.transactions === 1 ? '' : 's'}, ${procs} process id${procs === 1 ? '' : 's'}` +
        (a.churn > 0 ? ` (${a.churn} start${a.churn === 1 ? '' : 's'} with a new process id: churn)` : '') +
        `, thread${a.threads.length === 1 ? '' : 's'} ${a.threads.join(',')}` +
        (a.stores.length > 0
          ? `; store${a.stores.length === 1 ? '' : 's'} ${a.stores.join(', ')}, changelog partitions ${a.changelogs.join(', ')}`
          : '; no changelog (stateless)'),
      '  ',
    )
    for (const p of a.processIds) put(`process ${p}`, '    ')
    for (const t of a.judged) {
      const state =
        t.outcome === 'open'
          ? 'open'
          : `aborted by the coordinator's timeout${t.deadline === null ? '' : ` (deadline ${isoTime(t.deadline)})`}`
      const until =
        t.deadline === null || t.outcome !== 'open' || t.restart === 'fences'
          ? ''
          : `, until ${isoTime(t.deadline)} (start + transaction.timeout.ms)`
      const verb = t.outcome === 'open' ? RESTART_TEXT[t.restart] : 'its restart could not end it'
      put(
        `${t.transactionalId} epoch\u00a0${t.producerEpoch} (thread\u00a0${t.thread}), ${state}: ${verb}${until}` +
          (t.changelogs.length > 0 ? `; changelog partitions in it: ${t.changelogs.join(', ')}` : ''),
        '    ',
      )
      put(t.why, '      ')
    }
  }
  return lines
}

export function streamsJson(apps: readonly StreamsApplication[]): Json {
  return apps.map((a) => ({
    applicationId: a.applicationId,
    processIds: a.processIds,
    churn: a.churn,
    threads: a.threads,
    stores: a.stores,
    changelogs: a.changelogs,
    transactions: a.transactions,
    judged: a.judged.map((t) => ({
      transactionalId: t.transactionalId,
      processId: t.processId,
      thread: t.thread,
      producerId: jsonInt64(t.producerId),
      producerEpoch: t.producerEpoch,
      outcome: t.outcome,
      restart: t.restart,
      why: t.why,
      deadline: jsonInt64OrNull(t.deadline),
      changelogs: t.changelogs,
    })),
  }))
}
