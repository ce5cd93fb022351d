// The join's values as JSON-ready arrays, field by field, for the temp files of the bounded-memory join: a
// generic JSON replacer and reviver for bigints cost most of the command's time, and each run and marker would
// repeat its segment's path. Bigints travel as decimal strings, file paths as numbers of a table the process
// keeps (a few per partition). Rare parts (a verdict, findings, an abort's cause) go through the generic walk.
import type { Finding } from '../findings.js'
import type {
  AbortCause,
  CoordinatorState,
  Episode,
  JoinedTransaction,
  OffsetCommit,
  OffsetCommitRecord,
  PartitionRun,
  RunMarker,
} from './types.js'
import { outcomeOf } from '../partition-transaction.js'

type W = unknown[]
type S = string | null

/** each distinct file path once */
export class FileTable {
  private readonly ids = new Map<string, number>()
  private readonly names: string[] = []
  id(p: string): number {
    let i = this.ids.get(p)
    if (i === undefined) {
      i = this.names.length
      this.ids.set(p, i)
      this.names.push(p)
    }
    return i
  }
  name(i: number): string {
    return this.names[i]!
  }
}

const b = (x: bigint): string => x.toString()
const nb = (x: bigint | null): S => (x === null ? null : x.toString())
const B = (s: unknown): bigint => BigInt(s as string)
const NB = (s: unknown): bigint | null => (s === null ? null : BigInt(s as string))

/** bigints as {"$n": "…"} and Sets as {"$s": […]}, anything else as it is */
export function toPlain(v: unknown): unknown {
  if (typeof v === 'bigint') return { $n: v.toString() }
  if (v === null || typeof v !== 'object') return v
  if (v instanceof Set) return { $s: [...(v as Set<unknown>)].map(toPlain) }
  if (Array.isArray(v)) return v.map(toPlain)
  const o: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = toPlain(x)
  return o
}

export function fromPlain<T>(v: unknown): T {
  if (v === null || typeof v !== 'object') return v as T
  if (Array.isArray(v)) return v.map((x) => fromPlain(x)) as T
  const o = v as Record<string, unknown>
  if (typeof o.$n === 'string') return BigInt(o.$n) as T
  if (Array.isArray(o.$s)) return new Set(o.$s.map((x) => fromPlain(x))) as T
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(o)) out[k] = fromPlain(x)
  return out as T
}

function markerW(m: RunMarker, f: FileTable): W {
  return [b(m.offset), m.type, m.coordinatorEpoch, m.epoch, b(m.timestamp), f.id(m.file), m.position]
}
function markerR(a: W, f: FileTable): RunMarker {
  return {
    offset: B(a[0]),
    type: a[1] as RunMarker['type'],
    coordinatorEpoch: a[2] as number | null,
    epoch: a[3] as number,
    timestamp: B(a[4]),
    file: f.name(a[5] as number),
    position: a[6] as number,
  }
}

export function runW(r: PartitionRun, f: FileTable): W {
  return [
    r.topic,
    r.partition,
    b(r.producerId),
    r.producerEpoch,
    b(r.firstOffset),
    nb(r.lastDataOffset),
    r.records,
    nb(r.firstTimestamp),
    nb(r.lastTimestamp),
    r.marker === null ? null : markerW(r.marker, f),
    r.seeded,
    f.id(r.file),
    r.position,
    r.damage === undefined ? null : toPlain(r.damage),
    r.verdict === undefined ? null : toPlain(r.verdict),
  ]
}
export function runR(a: W, f: FileTable): PartitionRun {
  const r: PartitionRun = {
    topic: a[0] as string,
    partition: a[1] as number,
    producerId: B(a[2]),
    producerEpoch: a[3] as number,
    firstOffset: B(a[4]),
    lastDataOffset: NB(a[5]),
    records: a[6] as number,
    firstTimestamp: NB(a[7]),
    lastTimestamp: NB(a[8]),
    marker: a[9] === null ? null : markerR(a[9] as W, f),
    seeded: a[10] as boolean,
    file: f.name(a[11] as number),
    position: a[12] as number,
    outcome: 'open',
  }
  if (a[13] !== null) r.damage = fromPlain(a[13])
  r.outcome = outcomeOf(r.marker?.type ?? null, r.damage)
  if (a[14] !== null) r.verdict = fromPlain(a[14])
  return r
}

function stateW(s: CoordinatorState, f: FileTable): W {
  return [
    s.state,
    b(s.producerId),
    s.producerEpoch,
    b(s.timestamp),
    b(s.startTimestamp),
    s.partitions,
    s.transactionTimeoutMs,
    s.clientTransactionVersion,
    f.id(s.file),
    s.position,
    b(s.offset),
  ]
}
function stateR(a: W, f: FileTable): CoordinatorState {
  return {
    state: a[0] as string,
    producerId: B(a[1]),
    producerEpoch: a[2] as number,
    timestamp: B(a[3]),
    startTimestamp: B(a[4]),
    partitions: a[5] as string[],
    transactionTimeoutMs: a[6] as number,
    clientTransactionVersion: a[7] as number,
    file: f.name(a[8] as number),
    position: a[9] as number,
    offset: B(a[10]),
  }
}

export function episodeW(e: Episode, f: FileTable): W {
  return [
    e.transactionalId,
    e.states.map((s) => stateW(s, f)),
    b(e.producerId),
    e.endEpoch,
    [...e.partitions],
    e.prepare === null ? -1 : e.states.indexOf(e.prepare),
    e.complete === null ? -1 : e.states.indexOf(e.complete),
  ]
}
export function episodeR(a: W, f: FileTable): Episode {
  const states = (a[1] as W[]).map((s) => stateR(s, f))
  return {
    transactionalId: a[0] as string,
    states,
    producerId: B(a[2]),
    endEpoch: a[3] as number,
    partitions: new Set(a[4] as string[]),
    prepare: (a[5] as number) < 0 ? null : states[a[5] as number]!,
    complete: (a[6] as number) < 0 ? null : states[a[6] as number]!,
  }
}

export function commitRecordW(c: OffsetCommitRecord, f: FileTable): W {
  return [
    b(c.recordOffset),
    b(c.producerId),
    c.producerEpoch,
    c.transactional,
    c.group,
    c.topic,
    c.partition,
    nb(c.offset),
    c.metadata,
    b(c.timestamp),
    f.id(c.file),
    c.position,
  ]
}
export function commitRecordR(a: W, f: FileTable): OffsetCommitRecord {
  return {
    recordOffset: B(a[0]),
    producerId: B(a[1]),
    producerEpoch: a[2] as number,
    transactional: a[3] as boolean,
    group: a[4] as string,
    topic: a[5] as string,
    partition: a[6] as number,
    offset: NB(a[7]),
    metadata: a[8] as string | null,
    timestamp: B(a[9]),
    file: f.name(a[10] as number),
    position: a[11] as number,
  }
}

function commitW(c: OffsetCommit): W {
  return [
    c.group,
    c.topic,
    c.partition,
    nb(c.offset),
    c.metadata,
    c.log,
    b(c.recordOffset),
    nb(c.committedBefore),
    nb(c.committedAfter),
  ]
}
function commitR(a: W): OffsetCommit {
  return {
    group: a[0] as string,
    topic: a[1] as string,
    partition: a[2] as number,
    offset: NB(a[3]),
    metadata: a[4] as string | null,
    log: a[5] as string,
    recordOffset: B(a[6]),
    committedBefore: NB(a[7]),
    committedAfter: NB(a[8]),
  }
}

export function joinedW(t: JoinedTransaction, f: FileTable): W {
  // an abort's cause names the episode's PrepareAbort record: kept once, in the episode
  const cause = t.abortCause === null ? null : toPlain({ ...t.abortCause, prepare: undefined })
  return [
    t.transactionalId,
    b(t.producerId),
    t.producerEpoch,
    t.transactionVersion,
    t.outcome,
    t.joinedBy,
    nb(t.firstTimestamp),
    nb(t.lastTimestamp),
    t.runs.map((r) => runW(r, f)),
    t.offsetCommits.map(commitW),
    t.episode === null ? null : episodeW(t.episode, f),
    t.notRead,
    cause,
    t.findings.length === 0 ? 0 : toPlain(t.findings),
  ]
}
export function joinedR(a: W, f: FileTable): JoinedTransaction {
  const episode = a[10] === null ? null : episodeR(a[10] as W, f)
  const cause = a[12] === null ? null : { ...fromPlain<Omit<AbortCause, 'prepare'>>(a[12]), prepare: episode!.prepare! }
  return {
    transactionalId: a[0] as string | null,
    producerId: B(a[1]),
    producerEpoch: a[2] as number,
    transactionVersion: a[3] as JoinedTransaction['transactionVersion'],
    outcome: a[4] as JoinedTransaction['outcome'],
    joinedBy: a[5] as JoinedTransaction['joinedBy'],
    firstTimestamp: NB(a[6]),
    lastTimestamp: NB(a[7]),
    runs: (a[8] as W[]).map((r) => runR(r, f)),
    offsetCommits: (a[9] as W[]).map(commitR),
    episode,
    notRead: a[11] as string[],
    abortCause: cause,
    findings: a[13] === 0 ? [] : fromPlain<Finding[]>(a[13]),
  }
}
