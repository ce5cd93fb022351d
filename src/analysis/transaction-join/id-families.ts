// Who a transactional id belongs to, by its shape. Flink's KafkaSink names its ids
// `<transactionalIdPrefix>-<subtaskId>-<checkpointId>` (TransactionalIdFactory.buildTransactionalId): a new id per
// checkpoint and subtask, so __transaction_state grows with them, and an id left open after a restore with a smaller
// parallelism or a changed prefix is never aborted by the job (only by transaction.timeout.ms). Kafka Streams
// exactly_once_v2 names one id per stream thread `<application.id>-<processId UUID>-<threadIndex>`
// (StreamThread / ActiveTaskCreator). Any other id is grouped by its prefix before a trailing number.
import type { FamilySummary } from './types.js'
import { isoOrOutOfRange } from '../../bytes/iso-time.js'

export type IdFamily =
  | { kind: 'kafka-streams'; prefix: string; processId: string; thread: number }
  | { kind: 'flink-kafka-sink'; prefix: string; subtask: number; counter: number }
  | { kind: 'plain'; prefix: string }

const STREAMS = /^(.+)-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-(\d+)$/
const FLINK = /^(.+)-(\d+)-(\d+)$/

export function idFamily(id: string): IdFamily {
  const s = STREAMS.exec(id)
  if (s !== null) return { kind: 'kafka-streams', prefix: s[1]!, processId: s[2]!, thread: Number(s[3]) }
  const f = FLINK.exec(id)
  if (f !== null) return { kind: 'flink-kafka-sink', prefix: f[1]!, subtask: Number(f[2]), counter: Number(f[3]) }
  return { kind: 'plain', prefix: id.replace(/[-_.]?\d+$/, '') }
}

/** the families of `ids` (id -> first coordinator timestamp, or null), by kind then prefix */
export function idFamilies(ids: ReadonlyMap<string, bigint | null>): FamilySummary[] {
  const out = new Map<string, FamilySummary & { hours: Map<string, number> }>()
  for (const [id, first] of ids) {
    const f = idFamily(id)
    const k = `${f.kind}\u0000${f.prefix}`
    let s = out.get(k)
    if (s === undefined) {
      s = { kind: f.kind, prefix: f.prefix, ids: 0, perHour: [], hours: new Map() }
      out.set(k, s)
    }
    s.ids++
    if (f.kind === 'flink-kafka-sink') {
      s.subtasks = [...new Set([...(s.subtasks ?? []), f.subtask])].sort((a, b) => a - b)
      s.maxCounter = Math.max(s.maxCounter ?? 0, f.counter)
    }
    if (f.kind === 'kafka-streams') s.processIds = [...new Set([...(s.processIds ?? []), f.processId])].sort()
    if (first !== null && first >= 0n) {
      const hour = isoOrOutOfRange(first).slice(0, 13) + ':00Z'
      s.hours.set(hour, (s.hours.get(hour) ?? 0) + 1)
    }
  }
  return [...out.values()]
    .map(({ hours, ...s }) => ({ ...s, perHour: [...hours].sort().map(([hour, n]) => ({ hour, ids: n })) }))
    .sort((a, b) => (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.prefix < b.prefix ? -1 : 1))
}

/** how the text names a transaction's id family: "Flink KafkaSink prefix P, subtask 3, counter 812" */
export function describeFamily(f: IdFamily): string | null {
  if (f.kind === 'flink-kafka-sink')
    return `Flink KafkaSink prefix ${f.prefix}, subtask ${f.subtask}, counter ${f.counter}`
  if (f.kind === 'kafka-streams')
    return `Kafka Streams application ${f.prefix}, process ${f.processId}, thread ${f.thread}`
  return null
}
