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
//   own (TransactionOwnership.EXPLICIT_BY_WRITER_STATE). FLINK-40626: a restore from a checkpoint that lists an id as
//   pre-committed after the id was committed and reused (InitProducerId bumped its epoch, its new transaction wrote)
//   skips the new transaction, the committer's re-commit of the older epoch is fenced, and after a downscale no writer
//   names ids after that subtask again, so nothing reuses the id to abort it: open until its transaction.timeout.ms.
// A timed-out transaction of an INCREMENTING id whose counter is below every counter written after its abort had been
// pre-committed: the restored job began after its checkpoint (the writer had moved on), so nothing writes it again,
// its commit was fenced (KafkaCommitter logs it) and its records never become visible.

import type {
  FlinkLingering,
  FlinkLostTransaction,
  FlinkNaming,
  FlinkSink,
  FlinkTxnInput,
  FlinkIdStateInput,
} from './flink-types.js'

export type {
  FlinkIdStateInput,
  FlinkLingering,
  FlinkLostTransaction,
  FlinkNaming,
  FlinkSink,
  FlinkTxnInput,
  LingeringCause,
} from './flink-types.js'

const FLINK_ID = /^(.+)-(\d+)-(\d+)$/
const STREAMS_ID = /-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\d+$/

interface Parsed {
  id: string
  prefix: string
  subtask: number
  counter: number
}
function parse(id: string): Parsed | null {
  if (STREAMS_ID.test(id)) return null
  const m = FLINK_ID.exec(id)
  return m === null ? null : { id, prefix: m[1]!, subtask: Number(m[2]), counter: Number(m[3]) }
}

const recordsOf = (t: FlinkTxnInput): number => t.runs.reduce((n, r) => n + r.records, 0)
const began = (t: FlinkTxnInput): bigint | null => t.episode?.states[0]?.timestamp ?? t.firstTimestamp

export const FENCED_COMMIT_LOG =
  'KafkaCommitter: "Unable to commit transaction (...) because its producer is already fenced. ... or recovery took longer than \'transaction.timeout.ms\' (...ms). In both cases this most likely signals data loss"'

/** the Flink KafkaSinks among the transactions and the coordinator's ids, one per prefix */
export function flinkSinks(txs: readonly FlinkTxnInput[], states: readonly FlinkIdStateInput[]): FlinkSink[] {
  const byPrefix = new Map<string, { ids: Map<string, Parsed>; txs: Array<{ p: Parsed; t: FlinkTxnInput }> }>()
  const slot = (p: Parsed) => {
    let s = byPrefix.get(p.prefix)
    if (s === undefined) {
      s = { ids: new Map(), txs: [] }
      byPrefix.set(p.prefix, s)
    }
    s.ids.set(p.id, p)
    return s
  }
  for (const st of states) {
    const p = parse(st.transactionalId)
    if (p !== null) slot(p)
  }
  for (const t of txs) {
    const p = t.transactionalId === null ? null : parse(t.transactionalId)
    if (p !== null) slot(p).txs.push({ p, t })
  }
  // one id alone is no sink: a plain id that happens to end in two numbers
  const sinks = [...byPrefix].filter(([, s]) => s.ids.size >= 2)
  return sinks
    .map(([prefix, s]) =>
      sink(
        prefix,
        s.ids,
        s.txs,
        sinks.filter(([q]) => q !== prefix).flatMap(([, o]) => o.txs),
      ),
    )
    .sort((a, b) => (a.prefix < b.prefix ? -1 : 1))
}

function sink(
  prefix: string,
  ids: Map<string, Parsed>,
  txs: Array<{ p: Parsed; t: FlinkTxnInput }>,
  others: Array<{ p: Parsed; t: FlinkTxnInput }>,
): FlinkSink {
  const wrote = txs.filter(({ t }) => recordsOf(t) > 0)
  const committedPerId = new Map<string, number>()
  for (const { p, t } of wrote)
    if (t.outcome === 'committed') committedPerId.set(p.id, (committedPerId.get(p.id) ?? 0) + 1)
  const reused = [...committedPerId].filter(([, n]) => n >= 2)
  const counters = wrote.map(({ p }) => p.counter)
  let naming: FlinkNaming = 'unknown'
  let namingBecause = 'too few transactions to tell'
  if (reused.length > 0) {
    naming = 'POOLING'
    namingBecause = `ids reused: ${reused
      .slice(0, 3)
      .map(([id, n]) => `${id} committed ${n} times`)
      .join(', ')}`
  } else if (committedPerId.size >= 2 && new Set(counters).size >= 2) {
    naming = 'INCREMENTING'
    namingBecause = `no id committed twice; counters ${Math.min(...counters)}..${Math.max(...counters)} follow the checkpoints`
  }
  const writers = new Set(wrote.map(({ p }) => p.id))
  const neverWrote = [...ids.keys()].filter((id) => !writers.has(id)).sort(byIdOrder(ids))
  const subtasksWrote = [...new Set(wrote.map(({ p }) => p.subtask))].sort((a, b) => a - b)
  const phases = naming === 'POOLING' ? poolingPhases(wrote) : counterPhases(wrote)
  const tl = timeline(wrote, others)
  const lingering = wrote
    .filter(({ t }) => t.outcome === 'open')
    .map(({ p, t }) => lingerCause(p, t, naming, tl, phases, wrote))
  const lost = naming === 'INCREMENTING' ? lostTransactions(wrote, tl) : []
  return { prefix, naming, namingBecause, ids: ids.size, subtasksWrote, neverWrote, phases, lingering, lost }
}

const byIdOrder =
  (ids: Map<string, Parsed>) =>
  (a: string, b: string): number => {
    const x = ids.get(a)!
    const y = ids.get(b)!
    return x.subtask - y.subtask || x.counter - y.counter
  }

/** INCREMENTING: consecutive counters written by the same set of subtasks */
function counterPhases(wrote: Array<{ p: Parsed; t: FlinkTxnInput }>): FlinkSink['phases'] {
  const byCounter = new Map<number, Set<number>>()
  for (const { p } of wrote) {
    let s = byCounter.get(p.counter)
    if (s === undefined) {
      s = new Set()
      byCounter.set(p.counter, s)
    }
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
function poolingPhases(wrote: Array<{ p: Parsed; t: FlinkTxnInput }>): FlinkSink['phases'] {
  const timed = wrote
    .map(({ p, t }) => ({ s: p.subtask, at: began(t) }))
    .filter((x): x is { s: number; at: bigint } => x.at !== null)
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
  const lastAt = new Map<number, number>()
  timed.forEach((x, i) => lastAt.set(x.s, i))
  const cuts = [...new Set(lastAt.values())].filter((i) => i < timed.length - 1).sort((a, b) => a - b)
  const out: FlinkSink['phases'] = []
  let from = 0
  for (const end of [...cuts, timed.length - 1]) {
    if (end < from) continue
    out.push({
      fromCounter: null,
      toCounter: null,
      subtasks: [...new Set(timed.slice(from, end + 1).map((x) => x.s))].sort((a, b) => a - b),
    })
    from = end + 1
  }
  return out
}

/**
 * the writes in the order they began, with what every question about "after it" needs, so that each open or
 * timed-out transaction costs a binary search and not a pass over all of them (a sink has one id per checkpoint
 * and subtask: millions of transactions)
 */
interface Timeline {
  at: bigint[]
  /** the write of the lowest counter (then subtask) from index i on */
  minFrom: Array<{ p: Parsed; t: FlinkTxnInput }>
  /** per subtask, when it last began a write */
  lastBySubtask: Map<number, bigint>
  /** when another Flink prefix last began a write, and which prefixes wrote last */
  othersLast: bigint
  othersLastPrefixes: (start: bigint) => string[]
}

function timeline(
  wrote: Array<{ p: Parsed; t: FlinkTxnInput }>,
  others: Array<{ p: Parsed; t: FlinkTxnInput }>,
): Timeline {
  const sorted = wrote
    .map((x) => ({ x, at: began(x.t) ?? -1n }))
    .sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
  const minFrom = new Array<{ p: Parsed; t: FlinkTxnInput }>(sorted.length)
  for (let i = sorted.length - 1; i >= 0; i--) {
    const x = sorted[i]!.x
    const m = minFrom[i + 1]
    minFrom[i] =
      m !== undefined && (m.p.counter < x.p.counter || (m.p.counter === x.p.counter && m.p.subtask < x.p.subtask))
        ? m
        : x
  }
  const lastBySubtask = new Map<number, bigint>()
  for (const { x, at } of sorted) if (at > (lastBySubtask.get(x.p.subtask) ?? -1n)) lastBySubtask.set(x.p.subtask, at)
  const lastByPrefix = new Map<string, bigint>()
  for (const o of others) {
    const at = began(o.t) ?? -1n
    if (recordsOf(o.t) > 0 && at > (lastByPrefix.get(o.p.prefix) ?? -1n)) lastByPrefix.set(o.p.prefix, at)
  }
  return {
    at: sorted.map((y) => y.at),
    minFrom,
    lastBySubtask,
    othersLast: [...lastByPrefix.values()].reduce((m, v) => (v > m ? v : m), -1n),
    othersLastPrefixes: (start) =>
      [...lastByPrefix]
        .filter(([, v]) => v > start)
        .map(([q]) => q)
        .sort(),
  }
}

/** the index of the first write that began after `t` */
function firstAfter(tl: Timeline, t: bigint): number {
  let lo = 0
  let hi = tl.at.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (tl.at[mid]! > t) hi = mid
    else lo = mid + 1
  }
  return lo
}

function lingerCause(
  p: Parsed,
  t: FlinkTxnInput,
  naming: FlinkNaming,
  tl: Timeline,
  phases: FlinkSink['phases'],
  wrote: Array<{ p: Parsed; t: FlinkTxnInput }>,
): FlinkLingering {
  const start = began(t)
  const later = start === null ? 0 : tl.at.length - firstAfter(tl, start)
  const laterSubtasks =
    start === null
      ? []
      : [...tl.lastBySubtask]
          .filter(([, at]) => at > start)
          .map(([s]) => s)
          .sort((a, b) => a - b)
  const base = { transactionalId: p.id, subtask: p.subtask, records: recordsOf(t) }
  if (naming === 'POOLING' && later > 0) {
    const writers = phases.map((ph) => ph.subtasks.join(',')).join(' then ')
    // the id committed before at older epochs: reused, the precondition of FLINK-40626
    const earlier =
      start === null
        ? 0
        : wrote.filter((w) => w.p.id === p.id && w.t.outcome === 'committed' && (began(w.t) ?? start) < start).length
    if (earlier > 0 && !laterSubtasks.includes(p.subtask)) {
      return {
        ...base,
        cause: 'FLINK-40626',
        because:
          `POOLING ids; ${p.id} committed ${earlier} time${earlier === 1 ? '' : 's'} at older epochs before this transaction began (reused); ` +
          `${later} transactions of the prefix wrote after it, none of subtask ${p.subtask} (subtasks that wrote: ${writers})`,
      }
    }
    return {
      ...base,
      cause: 'unknown',
      because:
        earlier === 0
          ? `POOLING ids; ${p.id} committed nothing before this transaction: not a reused id`
          : `POOLING ids; subtask ${p.subtask} wrote later transactions without reusing ${p.id}: not a downscale`,
    }
  }
  if (naming === 'INCREMENTING' && later > 0 && !laterSubtasks.includes(p.subtask)) {
    return {
      ...base,
      cause: 'removed-subtask',
      because: `later transactions of the prefix wrote (subtasks ${laterSubtasks.join(',')}), none of subtask ${p.subtask}: a restore with fewer subtasks, whose PROBING abort did not reach this id`,
    }
  }
  if (later === 0 && start !== null && tl.othersLast > start) {
    return {
      ...base,
      cause: 'changed-prefix',
      because: `no later transaction of this prefix, while prefix ${tl.othersLastPrefixes(start).join(', ')} wrote after it began: a changed transactionalIdPrefix`,
    }
  }
  return {
    ...base,
    cause: 'unknown',
    because:
      later === 0
        ? 'no later transaction of the prefix among the paths: the job may still run or be down'
        : 'later transactions of its own subtask wrote: not a removed subtask',
  }
}

function lostTransactions(wrote: Array<{ p: Parsed; t: FlinkTxnInput }>, tl: Timeline): FlinkLostTransaction[] {
  const out: FlinkLostTransaction[] = []
  for (const { p, t } of wrote) {
    const cause = t.abortCause
    if (t.outcome !== 'aborted' || cause?.by !== 'coordinator-timeout') continue
    // what the job wrote after the coordinator aborted it: the restored job begins at the checkpoint after the one
    // it restored, so a counter below the lowest of them belonged to a completed checkpoint (pre-committed, never
    // written again); at or above it (its own id written again among them), it was in flight and its input replayed
    const first = tl.minFrom[firstAfter(tl, cause.preparedAt)]
    if (first === undefined || p.counter >= first.p.counter) continue
    const parts = t.runs
      .filter((r) => r.records > 0)
      .map((r) => ({
        topic: r.topic,
        partition: r.partition,
        firstOffset: r.firstOffset,
        lastDataOffset: r.lastDataOffset,
        records: r.records,
      }))
    out.push({
      transactionalId: p.id,
      producerId: t.producerId,
      producerEpoch: t.producerEpoch,
      subtask: p.subtask,
      counter: p.counter,
      records: recordsOf(t),
      partitions: parts,
      nextId: first.p.id,
      flinkLog: FENCED_COMMIT_LOG,
      timeoutMs: cause.transactionTimeoutMs,
    })
  }
  return out.sort((a, b) => a.subtask - b.subtask || a.counter - b.counter)
}
