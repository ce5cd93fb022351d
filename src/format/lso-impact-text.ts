// lso's impact-first lines (analysis/lso-impact.ts): for each open transaction holding an LSO, what read_committed
// consumers of each topic miss and until when, and the commands that end it now. Printed before the partitions.
import { groupedCount } from '../analysis/count-text.js'
import type { TransactionImpact } from '../analysis/lso-impact.js'
import { changelogStore, parseStreamsId, streamsRestartText } from '../analysis/transaction-join/streams-ids.js'
import type { Json } from './txn-json.js'
import { jsonInt64, jsonInt64OrNull } from './txn-json.js'
import { isoTime } from './timestamp.js'
import { commandLines, wrapWords } from './wrap.js'

// (groupedCount writes a count as toLocaleString('en-US') does, without loading ICU's locale data: 0.2-0.3 s of a
// run's CPU at its first call; anything but a plain count is left to toLocaleString)
const grouped = (x: number): string => (Number.isSafeInteger(x) && x >= 0 ? groupedCount(x) : x.toLocaleString('en-US'))
const n = (x: number, one: string, many = `${one}s`): string => `${grouped(x)}\u00a0${x === 1 ? one : many}`

export function impactLines(impacts: readonly TransactionImpact[], nowMs: number, width?: number): string[] {
  if (impacts.length === 0) return []
  const lines: string[] = []
  const put = (text: string, indent: string): void => {
    for (const l of wrapWords(text, indent, width)) lines.push(l)
  }
  for (const t of impacts) {
    const who =
      t.transactionalId !== null
        ? `${t.transactionalId} (producerId ${t.producerId} epoch ${t.producerEpoch})`
        : `producerId ${t.producerId} epoch ${t.producerEpoch}`
    put(`Open transaction ${who}:`, '')
    const app = t.transactionalId === null ? null : (parseStreamsId(t.transactionalId)?.applicationId ?? null)
    for (const p of t.topics) {
      // a Kafka Streams changelog written in the same transaction is named as one
      const store = app === null ? null : changelogStore(app, p.topic)
      put(
        `${p.topic}${store === null ? '' : ` (changelog of ${app}'s store ${store})`}: read_committed consumers see ${n(p.readCommitted, 'record')} of ${grouped(p.readUncommitted)}` +
          (p.partitions > 1 ? ` (${p.partitions}\u00a0partitions)` : '') +
          `; ${n(p.committedBehind, 'committed record')} ${p.committedBehind === 1 ? 'waits' : 'wait'} behind it in ${p.held.join(', ')}` +
          ` (and its own ${n(p.ownRecords, 'record')})`,
        '  ',
      )
    }
    if (t.deadlineMs !== null) {
      const left = Number(t.deadlineMs - BigInt(Math.trunc(nowMs))) / 60000
      put(
        `until ${isoTime(t.deadlineMs)}, when its coordinator aborts it (start + transactionTimeoutMs)` +
          (left >= 0
            ? `, in ${left.toFixed(1)}\u00a0min`
            : `, ${(-left).toFixed(1)}\u00a0min ago: the coordinator is not doing it`),
        '  ',
      )
    } else {
      put(
        'until its coordinator aborts it (start + transaction.timeout.ms): no __transaction_state record of it among the paths says when',
        '  ',
      )
    }
    if (t.streamsRestart !== null) put(streamsRestartText(t.streamsRestart), '  ')
    if (t.abortCommands.length > 0 || t.forceTerminate !== null) lines.push('  to free it now:')
    // within 80 columns with shell continuations: each still pastes as one command
    for (const c of t.abortCommands) lines.push(...commandLines(c, '    ', width))
    if (t.forceTerminate !== null) {
      lines.push(...commandLines(t.forceTerminate, '    ', width))
      put(`(the whole transaction at once; ${t.forceTerminateAdvice.note})`, '      ')
    }
  }
  lines.push('', '')
  return lines
}

export function impactJson(impacts: readonly TransactionImpact[]): Json {
  return impacts.map((t) => ({
    producerId: jsonInt64(t.producerId),
    producerEpoch: t.producerEpoch,
    transactionalId: t.transactionalId,
    deadline: jsonInt64OrNull(t.deadlineMs),
    deadlineIso: t.deadlineMs === null ? null : isoTime(t.deadlineMs),
    topics: t.topics.map((p) => ({ ...p })),
    abortCommands: t.abortCommands,
    forceTerminate: t.forceTerminate,
    forceTerminateNote: t.forceTerminateAdvice.note,
    metadataVersion: t.forceTerminateAdvice.metadataVersion,
    streamsRestart: t.streamsRestart === null ? null : { ...t.streamsRestart },
  }))
}
