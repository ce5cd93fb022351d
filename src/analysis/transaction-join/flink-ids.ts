// What the files say about a Flink KafkaSink (flink-connector-kafka 4.0+/5.0, EXACTLY_ONCE): its transactional ids
// are `<prefix>-<subtask>-<counter>` (TransactionalIdFactory.buildTransactionalId) under one of two naming
// strategies (TransactionNamingStrategyImpl):
// - INCREMENTING: the counter is the checkpoint id the transaction belongs to, a new id per checkpoint and subtask;
//   on restore the PROBING abort (TransactionAbortStrategyImpl.PROBING) calls initTransactions on
//   `<prefix>-<s>-<restored checkpoint + 1>`, +2 ... of every subtask s = own, own + parallelism, ... until an id
//   answers epoch 0 (never used): those ids are created at epoch 0 and never write (probe-only), also for subtasks
//   the job never had;
// - POOLING: the lowest counter not held by a pre-committed transaction, so ids are reused checkpoint after
//   checkpoint; on restore the LISTING abort aborts the open transactions of the owned ids except those the writer
//   state lists as pre-committed, and the restored writers name their transactions after the first old subtask they
//   own. An id the state listed but the committer never commits stays open until transaction.timeout.ms
//   (FLINK-40626), and after a downscale its subtask's ids are never written again.
// A timed-out transaction of an INCREMENTING id whose counter is below every counter written after its abort had been
// pre-committed: the restored job began after its checkpoint (the writer had moved on), so nothing writes it again,
// its commit was fenced (KafkaCommitter logs it) and its records never become visible.

/** what this analysis reads of a joined transaction (types.ts JoinedTransaction has these fields) */
export interface FlinkTxnInput {
  transactionalId: string | null
  producerId: bigint
  producerEpoch: number
  outcome: string
  runs: ReadonlyArray<{ topic: string, partition: number, firstOffset: bigint, lastOffset: bigint | null, records: number }>
  abortCause: { by: string, startedAt: bigint, deadline: bigint, preparedAt: bigint, transactionTimeoutMs: number } | null
  firstTimestamp: bigint | null
  episode: { states: ReadonlyArray<{ timestamp: bigint }> } | null
}

/** what it reads of the coordinator's newest state of an id (transactional-id-state.ts TransactionalIdState) */
export interface FlinkIdStateInput {
  transactionalId: string
  producerEpoch: number | null
  state: string | null
  transactionTimeoutMs: number | null
}

export type FlinkNaming = 'INCREMENTING' | 'POOLING' | 'unknown'
export type LingeringCause = 'FLINK-40626' | 'removed-subtask' | 'changed-prefix' | 'unknown'

export interface FlinkLingering {
  transactionalId: string
  subtask: number
  records: number
  cause: LingeringCause
  /** the facts of the files the cause rests on */
  because: string
}

export interface FlinkLostTransaction {
  transactionalId: string
  producerId: bigint
  producerEpoch: number
  subtask: number
  counter: number
  records: number
  partitions: Array<{ topic: string, partition: number, firstOffset: bigint, lastOffset: bigint | null, records: number }>
  /** the lowest counter written after the coordinator aborted it (the restored job's first checkpoint) */
  nextId: string
  /** what Flink's KafkaCommitter logs when the restored job's commit of it is fenced */
  flinkLog: string
  timeoutMs: number
}

export interface FlinkSink {
  prefix: string
  naming: FlinkNaming
  /** the facts the naming rests on */
  namingBecause: string
  ids: number
  /** subtasks whose ids wrote records, and the ids that never wrote (listed apart: PROBING's ids, a writer's next id) */
  subtasksWrote: number[]
  neverWrote: string[]
  /** the subtasks that wrote, phase by phase: INCREMENTING by counter ranges, POOLING by the time they wrote */
  phases: Array<{ fromCounter: number | null, toCounter: number | null, subtasks: number[] }>
  lingering: FlinkLingering[]
  lost: FlinkLostTransaction[]
}

const FLINK_ID = /^(.+)-(\d+)-(\d+)$/
const STREAMS_ID = /-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\d+$/

interface Parsed { id: string, prefix: string, subtask: number, counter: number }
function parse (id: string): Parsed | null {
  if (STREAMS_ID.test(id)) return null
  const m = FLINK_ID.exec(id)
  return m === null ? null : { id, prefix: m[1]!, subtask: Number(m[2]), counter: Number(m[3]) }
}

const recordsOf = (t: FlinkTxnInput): number => t.runs.reduce((n, r) => n + r.records, 0)
const began = (t: FlinkTxnInput): bigint | null => t.episode?.states[0]?.timestamp ?? t.firstTimestamp

export const FENCED_COMMIT_LOG = 'KafkaCommitter: "Unable to commit transaction (...) because its producer is already fenced. ... or recovery took longer than \'transaction.timeout.ms\' (...ms). In both cases this most likely signals data loss"'

/** the Flink KafkaSinks among the transactions and the coordinator's ids, one per prefix */
export function flinkSinks (txs: readonly FlinkTxnInput[], states: readonly FlinkIdStateInput[]): FlinkSink[] {
  const byPrefix = new Map<string, { ids: Map<string, Parsed>, txs: Array<{ p: Parsed, t: FlinkTxnInput }> }>()
  const slot = (p: Parsed) => {
    let s = byPrefix.get(p.prefix)
    if (s === undefined) { s = { ids: new Map(), txs: [] }; byPrefix.set(p.prefix, s) }
    s.ids.set(p.id, p)
    return s
  }
  for (const st of states) { const p = parse(st.transactionalId); if (p !== null) slot(p) }
  for (const t of txs) {
    const p = t.transactionalId === null ? null : parse(t.transactionalId)
    if (p !== null) slot(p).txs.push({ p, t })
  }
  // one id alone is no sink: a plain id that happens to end in two numbers
  const sinks = [...byPrefix].filter(([, s]) => s.ids.size >= 2)
  return sinks.map(([prefix, s]) => sink(prefix, s.ids, s.txs, sinks.filter(([q]) => q !== prefix).flatMap(([, o]) => o.txs)))
    .sort((a, b) => (a.prefix < b.prefix ? -1 : 1))
}

function sink (prefix: string, ids: Map<string, Parsed>, txs: Array<{ p: Parsed, t: FlinkTxnInput }>,
  others: Array<{ p: Parsed, t: FlinkTxnInput }>): FlinkSink {
  const wrote = txs.filter(({ t }) => recordsOf(t) > 0)
  const committedPerId = new Map<string, number>()
  for (const { p, t } of wrote) if (t.outcome === 'committed') committedPerId.set(p.id, (committedPerId.get(p.id) ?? 0) + 1)
  const reused = [...committedPerId].filter(([, n]) => n >= 2)
  const counters = wrote.map(({ p }) => p.counter)
  let naming: FlinkNaming = 'unknown'
  let namingBecause = 'too few transactions to tell'
  if (reused.length > 0) {
    naming = 'POOLING'
    namingBecause = `ids reused: ${reused.slice(0, 3).map(([id, n]) => `${id} committed ${n} times`).join(', ')}`
  } else if (committedPerId.size >= 2 && new Set(counters).size >= 2) {
    naming = 'INCREMENTING'
    namingBecause = `no id committed twice; counters ${Math.min(...counters)}..${Math.max(...counters)} follow the checkpoints`
  }
  const writers = new Set(wrote.map(({ p }) => p.id))
  const neverWrote = [...ids.keys()].filter((id) => !writers.has(id)).sort(byIdOrder(ids))
  const subtasksWrote = [...new Set(wrote.map(({ p }) => p.subtask))].sort((a, b) => a - b)
  const phases = naming === 'POOLING' ? poolingPhases(wrote) : counterPhases(wrote)
  const lingering = wrote.filter(({ t }) => t.outcome === 'open').map(({ p, t }) => lingerCause(p, t, naming, wrote, others, phases))
  const lost = naming === 'INCREMENTING' ? lostTransactions(wrote) : []
  return { prefix, naming, namingBecause, ids: ids.size, subtasksWrote, neverWrote, phases, lingering, lost }
}

const byIdOrder = (ids: Map<string, Parsed>) => (a: string, b: string): number => {
  const x = ids.get(a)!
  const y = ids.get(b)!
  return x.subtask - y.subtask || x.counter - y.counter
}

/** INCREMENTING: consecutive counters written by the same set of subtasks */
function counterPhases (wrote: Array<{ p: Parsed, t: FlinkTxnInput }>): FlinkSink['phases'] {
  const byCounter = new Map<number, Set<number>>()
  for (const { p } of wrote) {
    let s = byCounter.get(p.counter)
    if (s === undefined) { s = new Set(); byCounter.set(p.counter, s) }
    s.add(p.subtask)
  }
  const out: FlinkSink['phases'] = []
  for (const c of [...byCounter.keys()].sort((a, b) => a - b)) {
    const subtasks = [...byCounter.get(c)!].sort((a, b) => a - b)
    const last = out.at(-1)
    if (last !== undefined && last.subtasks.join() === subtasks.join()) last.toCounter = c
    else out.push({ fromCounter: c, toCounter: c, subtasks })
  }
  return out
}

/** POOLING: counters say nothing of time, so the writes in the order they began, cut where a subtask wrote its last */
function poolingPhases (wrote: Array<{ p: Parsed, t: FlinkTxnInput }>): FlinkSink['phases'] {
  const timed = wrote.map(({ p, t }) => ({ s: p.subtask, at: began(t) })).filter((x): x is { s: number, at: bigint } => x.at !== null)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
  const lastAt = new Map<number, number>()
  timed.forEach((x, i) => lastAt.set(x.s, i))
  const cuts = [...new Set(lastAt.values())].filter((i) => i < timed.length - 1).sort((a, b) => a - b)
  const out: FlinkSink['phases'] = []
  let from = 0
  for (const end of [...cuts, timed.length - 1]) {
    if (end < from) continue
    out.push({ fromCounter: null, toCounter: null, subtasks: [...new Set(timed.slice(from, end + 1).map((x) => x.s))].sort((a, b) => a - b) })
    from = end + 1
  }
  return out
}

function lingerCause (p: Parsed, t: FlinkTxnInput, naming: FlinkNaming, wrote: Array<{ p: Parsed, t: FlinkTxnInput }>,
  others: Array<{ p: Parsed, t: FlinkTxnInput }>, phases: FlinkSink['phases']): FlinkLingering {
  const start = began(t)
  const after = (x: { t: FlinkTxnInput }): boolean => start !== null && (began(x.t) ?? -1n) > start
  const later = wrote.filter((x) => x.t !== t && after(x))
  const records = recordsOf(t)
  const base = { transactionalId: p.id, subtask: p.subtask, records }
  if (naming === 'POOLING' && later.length > 0) {
    const writers = phases.map((ph) => ph.subtasks.join(',')).join(' then ')
    return {
      ...base,
      cause: 'FLINK-40626',
      because: `POOLING ids; ${later.length} transactions of the prefix wrote after it began (subtasks that wrote: ${writers}): ` +
        "a restore's LISTING abort left it open as pre-committed and no commit came",
    }
  }
  if (naming === 'INCREMENTING' && later.length > 0 && !later.some((x) => x.p.subtask === p.subtask)) {
    return { ...base, cause: 'removed-subtask', because: `later transactions of the prefix wrote (subtasks ${[...new Set(later.map((x) => x.p.subtask))].sort((a, b) => a - b).join(',')}), none of subtask ${p.subtask}: a restore with fewer subtasks, whose PROBING abort did not reach this id` }
  }
  const newer = others.filter(after)
  if (later.length === 0 && newer.length > 0) {
    const q = [...new Set(newer.map((x) => x.p.prefix))].join(', ')
    return { ...base, cause: 'changed-prefix', because: `no later transaction of this prefix, while prefix ${q} wrote after it began: a changed transactionalIdPrefix` }
  }
  return { ...base, cause: 'unknown', because: later.length === 0 ? 'no later transaction of the prefix among the paths: the job may still run or be down' : 'later transactions of its own subtask wrote: not a removed subtask' }
}

function lostTransactions (wrote: Array<{ p: Parsed, t: FlinkTxnInput }>): FlinkLostTransaction[] {
  const out: FlinkLostTransaction[] = []
  for (const { p, t } of wrote) {
    const cause = t.abortCause
    if (t.outcome !== 'aborted' || cause?.by !== 'coordinator-timeout') continue
    // what the job wrote after the coordinator aborted it: the restored job begins at the checkpoint after the one
    // it restored, so a counter below the lowest of them belonged to a completed checkpoint (pre-committed, never
    // written again); at or above it, the transaction was in flight and its input was replayed
    const after = wrote.filter((x) => x.t !== t && (began(x.t) ?? -1n) > cause.preparedAt)
    if (after.length === 0) continue
    const first = after.reduce((m, x) => (x.p.counter < m.p.counter || (x.p.counter === m.p.counter && x.p.subtask < m.p.subtask) ? x : m))
    if (p.counter >= first.p.counter) continue
    const parts = t.runs.filter((r) => r.records > 0).map((r) => ({ topic: r.topic, partition: r.partition, firstOffset: r.firstOffset, lastOffset: r.lastOffset, records: r.records }))
    out.push({ transactionalId: p.id, producerId: t.producerId, producerEpoch: t.producerEpoch, subtask: p.subtask, counter: p.counter,
      records: recordsOf(t), partitions: parts, nextId: first.p.id, flinkLog: FENCED_COMMIT_LOG, timeoutMs: cause.transactionTimeoutMs })
  }
  return out.sort((a, b) => a.subtask - b.subtask || a.counter - b.counter)
}
