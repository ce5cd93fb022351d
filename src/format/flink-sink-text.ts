// How `transactions` words what analysis/transaction-join/flink-ids.ts found of a Flink KafkaSink: the family line
// (naming strategy, who wrote when, ids that never wrote), the notes under one transaction (a lingering id's cause,
// data lost), and the sink's lost records per partition. Plain text: the printer wraps and colours it.
import type { FlinkLingering, FlinkLostTransaction, FlinkSink } from '../analysis/transaction-join/flink-ids.js'
import type { Json } from './txn-json.js'
import { jsonInt64, jsonInt64OrNull } from './txn-json.js'

const CAUSE: Record<FlinkLingering['cause'], string> = {
  'FLINK-40626':
    'POOLING after a downscale (FLINK-40626): a restore from a checkpoint that listed this reused id as ' +
    'pre-committed skipped its newer transaction (LISTING), the re-commit of the older epoch was fenced, and no writer ' +
    'of the smaller job names ids after its subtask, so nothing reuses the id to abort it',
  'removed-subtask': 'a restore with a smaller parallelism (its subtask is gone)',
  'changed-prefix': 'a changed transactionalIdPrefix',
  unknown: 'cause not told by the files',
}

/** what lso and transactions say of an open id of a sink they cannot see whole: the causes known to leave one open */
export function flinkOpenCauses(subtask: number): string {
  return (
    `a restore with a smaller parallelism whose writers no longer write subtask ${subtask}'s ids (INCREMENTING: its PROBING ` +
    'abort did not reach this one; POOLING: FLINK-40626, a reused id the restore skipped as pre-committed) or a changed transactionalIdPrefix'
  )
}

const range = (first: number | null, last: number | null): string =>
  first === last ? String(first) : `${first}..${last}`

function phaseText(s: FlinkSink): string {
  return s.phases
    .map((p) => {
      const who = `subtask${p.subtasks.length === 1 ? '' : 's'} ${p.subtasks.join(',')}`
      return p.fromCounter === null
        ? who
        : `counter${p.fromCounter === p.toCounter ? '' : 's'} ${range(p.fromCounter, p.toCounter)} ${who}`
    })
    .join(s.naming === 'POOLING' ? ', then ' : '; ')
}

/** the family line of a sink, in place of the generic one */
export function flinkFamilyText(s: FlinkSink): string {
  const naming = s.naming === 'unknown' ? 'naming strategy not told' : `${s.naming} (${s.namingBecause})`
  const never =
    s.neverWrote.length === 0
      ? ''
      : `; ${s.neverWrote.length} id${s.neverWrote.length === 1 ? '' : 's'} never wrote (probe-only or a writer's next id, not subtasks that wrote): ${s.neverWrote.join(', ')}`
  return `Flink KafkaSink prefix ${s.prefix}: ${s.ids} ids, ${naming}; wrote: ${phaseText(s)}${never}`
}

function lostText(l: FlinkLostTransaction): string {
  const where = l.partitions
    .map(
      (p) =>
        `${p.topic}-${p.partition}\u00a0${range(Number(p.firstOffset), p.lastDataOffset === null ? null : Number(p.lastDataOffset))}`,
    )
    .join(', ')
  return (
    `DATA LOST: pre-committed by the sink (the restored job began at ${l.nextId}, after its checkpoint) and aborted by the coordinator's ` +
    `timeout (${l.timeoutMs}\u00a0ms): ${l.records} records never reach read_committed consumers: ${where}; Flink logs on restore: ${l.flinkLog}`
  )
}

/** the notes under transaction `id` of the sinks (a lingering id's cause, data lost); none when nothing is known */
export function flinkTransactionNotes(
  sinks: readonly FlinkSink[] | undefined,
  id: string | null,
  outcome: string,
): string[] {
  if (sinks === undefined || id === null) return []
  const out: string[] = []
  for (const s of sinks) {
    if (outcome === 'open')
      for (const l of s.lingering)
        if (l.transactionalId === id)
          out.push(
            `lingering Flink sink transaction: ${CAUSE[l.cause]}; ${l.because}; the coordinator aborts it only at transaction.timeout.ms`,
          )
    if (outcome === 'aborted') for (const l of s.lost) if (l.transactionalId === id) out.push(lostText(l))
  }
  return out
}

/** true when the sinks say something about this id's open transaction (the printer then drops its generic line) */
export function flinkKnowsOpen(sinks: readonly FlinkSink[] | undefined, id: string | null): boolean {
  return sinks !== undefined && id !== null && sinks.some((s) => s.lingering.some((l) => l.transactionalId === id))
}

/** the closing lines: records lost by each sink, per partition */
export function flinkLossSummary(sinks: readonly FlinkSink[] | undefined): string[] {
  const out: string[] = []
  for (const s of sinks ?? []) {
    if (s.lost.length === 0) continue
    const per = new Map<string, number>()
    for (const l of s.lost)
      for (const p of l.partitions)
        per.set(`${p.topic}-${p.partition}`, (per.get(`${p.topic}-${p.partition}`) ?? 0) + p.records)
    const total = s.lost.reduce((n, l) => n + l.records, 0)
    out.push(
      `Flink KafkaSink prefix ${s.prefix}: ${total} records lost in ${s.lost.length} pre-committed transactions the coordinator aborted (${s.lost.map((l) => l.transactionalId).join(', ')}): ` +
        [...per]
          .sort()
          .map(([p, n]) => `${p}\u00a0${n}`)
          .join(', '),
    )
  }
  return out
}

/** the sinks as JSON (64-bit numbers as the other fields of `transactions --json`) */
export function flinkSinksJson(sinks: readonly FlinkSink[] | undefined): Json {
  return (sinks ?? []).map((s) => ({
    ...s,
    lost: s.lost.map((l) => ({
      ...l,
      producerId: jsonInt64(l.producerId),
      partitions: l.partitions.map((p) => ({
        ...p,
        firstOffset: jsonInt64(p.firstOffset),
        lastDataOffset: jsonInt64OrNull(p.lastDataOffset),
      })),
    })),
  })) as unknown as Json
}
