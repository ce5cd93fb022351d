// transactions' values as the temp files of its bounded-memory join hold them (scan/transaction-buckets.ts: runs,
// coordinator episodes, offset commits; scan/transactions-stream.ts: the joined transactions of each bucket),
// field by field in io/spill-bytes.ts' encoding. JSON lines cost most of the command's time (numbers made into
// text and back, a BigInt from a string per field). Names (segment paths, topics, partition labels, states,
// groups, outcomes) travel as numbers of the process's FileTable, written out in full once it is full; the rare
// parts (a verdict, damage, findings) as JSON through the generic walk. Each reader builds its
// objects with the fields in the order the join builds them.
import type {
  AbortCause,
  CoordinatorState,
  Episode,
  JoinedTransaction,
  OffsetCommit,
  OffsetCommitRecord,
  PartitionRun,
  RunMarker,
} from '../analysis/transaction-join/types.js'
import type { FileTable } from '../analysis/transaction-join/wire.js'
import { fromPlain, toPlain } from '../analysis/transaction-join/wire.js'
import { outcomeOf } from '../analysis/partition-transaction.js'
import type { Finding } from '../analysis/findings.js'
import type { ByteIn, ByteOut } from '../io/spill-bytes.js'

/** a name: its number in the table (1 up), or 0 and the name itself */
export function nameW(o: ByteOut, f: FileTable, s: string): void {
  const i = f.id(s)
  o.uv(i + 1)
  if (i < 0) o.text(s)
}
export function nameR(r: ByteIn, f: FileTable): string {
  const i = r.uv()
  return i === 0 ? r.text() : f.name(i - 1)
}

/** a rare part: absent, or its JSON */
function plainW(o: ByteOut, v: unknown): void {
  o.ntext(v === undefined || v === null ? null : JSON.stringify(toPlain(v)))
}
function plainR<T>(r: ByteIn): T | undefined {
  const s = r.ntext()
  return s === null ? undefined : fromPlain<T>(JSON.parse(s))
}

function markerW(o: ByteOut, f: FileTable, m: RunMarker): void {
  o.i64(m.offset)
  nameW(o, f, m.type)
  o.nsv(m.coordinatorEpoch)
  o.sv(m.epoch)
  o.i64(m.timestamp)
  nameW(o, f, m.file)
  o.sv(m.position)
}
function markerR(r: ByteIn, f: FileTable): RunMarker {
  return {
    offset: r.i64(),
    type: nameR(r, f) as RunMarker['type'],
    coordinatorEpoch: r.nsv(),
    epoch: r.sv(),
    timestamp: r.i64(),
    file: nameR(r, f),
    position: r.sv(),
  }
}

export function runW(o: ByteOut, f: FileTable, x: PartitionRun): void {
  nameW(o, f, x.topic)
  o.sv(x.partition)
  o.i64(x.producerId)
  o.sv(x.producerEpoch)
  o.i64(x.firstOffset)
  o.i64(x.lastDataOffset)
  o.sv(x.records)
  o.i64(x.firstTimestamp)
  o.i64(x.lastTimestamp)
  o.bool(x.marker !== null)
  if (x.marker !== null) markerW(o, f, x.marker)
  o.bool(x.seeded)
  nameW(o, f, x.file)
  o.sv(x.position)
  plainW(o, x.damage)
  plainW(o, x.verdict)
}
export function runR(r: ByteIn, f: FileTable): PartitionRun {
  const x: PartitionRun = {
    topic: nameR(r, f),
    partition: r.sv(),
    producerId: r.i64(),
    producerEpoch: r.sv(),
    firstOffset: r.i64(),
    lastDataOffset: r.ni64(),
    records: r.sv(),
    firstTimestamp: r.ni64(),
    lastTimestamp: r.ni64(),
    marker: r.bool() ? markerR(r, f) : null,
    seeded: r.bool(),
    file: nameR(r, f),
    position: r.sv(),
    outcome: 'open',
  }
  const damage = plainR<PartitionRun['damage']>(r)
  if (damage !== undefined) x.damage = damage
  x.outcome = outcomeOf(x.marker?.type ?? null, x.damage)
  const verdict = plainR<PartitionRun['verdict']>(r)
  if (verdict !== undefined) x.verdict = verdict
  return x
}

// an array's names by index and a set's by its own loop: one loop over both kinds made an iterator result per name
// (a tenth of the join's garbage at scale-10000)
function namesW(o: ByteOut, f: FileTable, l: readonly string[]): void {
  o.uv(l.length)
  for (let i = 0; i < l.length; i++) nameW(o, f, l[i]!)
}
function nameSetW(o: ByteOut, f: FileTable, l: ReadonlySet<string>): void {
  o.uv(l.size)
  for (const s of l) nameW(o, f, s)
}
function namesR(r: ByteIn, f: FileTable): string[] {
  const n = r.uv()
  const l: string[] = new Array<string>(n)
  for (let i = 0; i < n; i++) l[i] = nameR(r, f)
  return l
}

function stateW(o: ByteOut, f: FileTable, s: CoordinatorState): void {
  nameW(o, f, s.state)
  o.i64(s.producerId)
  o.sv(s.producerEpoch)
  o.i64(s.timestamp)
  o.i64(s.startTimestamp)
  namesW(o, f, s.partitions)
  o.sv(s.transactionTimeoutMs)
  o.sv(s.clientTransactionVersion)
  nameW(o, f, s.file)
  o.sv(s.position)
  o.i64(s.offset)
}
function stateR(r: ByteIn, f: FileTable): CoordinatorState {
  return {
    state: nameR(r, f),
    producerId: r.i64(),
    producerEpoch: r.sv(),
    timestamp: r.i64(),
    startTimestamp: r.i64(),
    partitions: namesR(r, f),
    transactionTimeoutMs: r.sv(),
    clientTransactionVersion: r.sv(),
    file: nameR(r, f),
    position: r.sv(),
    offset: r.i64(),
  }
}

export function episodeW(o: ByteOut, f: FileTable, e: Episode): void {
  o.text(e.transactionalId)
  o.uv(e.states.length)
  for (const s of e.states) stateW(o, f, s)
  o.i64(e.producerId)
  o.sv(e.endEpoch)
  nameSetW(o, f, e.partitions)
  o.sv(e.prepare === null ? -1 : e.states.indexOf(e.prepare))
  o.sv(e.complete === null ? -1 : e.states.indexOf(e.complete))
}
export function episodeR(r: ByteIn, f: FileTable): Episode {
  const transactionalId = r.text()
  const n = r.uv()
  const states: CoordinatorState[] = new Array<CoordinatorState>(n)
  for (let i = 0; i < n; i++) states[i] = stateR(r, f)
  const producerId = r.i64()
  const endEpoch = r.sv()
  const partitions = new Set(namesR(r, f))
  const prepare = r.sv()
  const complete = r.sv()
  return {
    transactionalId,
    states,
    producerId,
    endEpoch,
    partitions,
    prepare: prepare < 0 ? null : states[prepare]!,
    complete: complete < 0 ? null : states[complete]!,
  }
}

export function commitRecordW(o: ByteOut, f: FileTable, c: OffsetCommitRecord): void {
  o.i64(c.recordOffset)
  o.i64(c.producerId)
  o.sv(c.producerEpoch)
  o.bool(c.transactional)
  nameW(o, f, c.group)
  nameW(o, f, c.topic)
  o.sv(c.partition)
  o.i64(c.offset)
  o.ntext(c.metadata)
  o.i64(c.timestamp)
  nameW(o, f, c.file)
  o.sv(c.position)
}
export function commitRecordR(r: ByteIn, f: FileTable): OffsetCommitRecord {
  return {
    recordOffset: r.i64(),
    producerId: r.i64(),
    producerEpoch: r.sv(),
    transactional: r.bool(),
    group: nameR(r, f),
    topic: nameR(r, f),
    partition: r.sv(),
    offset: r.ni64(),
    metadata: r.ntext(),
    timestamp: r.i64(),
    file: nameR(r, f),
    position: r.sv(),
  }
}

function commitW(o: ByteOut, f: FileTable, c: OffsetCommit): void {
  nameW(o, f, c.group)
  nameW(o, f, c.topic)
  o.sv(c.partition)
  o.i64(c.offset)
  o.ntext(c.metadata)
  nameW(o, f, c.log)
  o.i64(c.recordOffset)
  o.i64(c.committedBefore)
  o.i64(c.committedAfter)
}
function commitR(r: ByteIn, f: FileTable): OffsetCommit {
  return {
    group: nameR(r, f),
    topic: nameR(r, f),
    partition: r.sv(),
    offset: r.ni64(),
    metadata: r.ntext(),
    log: nameR(r, f),
    recordOffset: r.i64(),
    committedBefore: r.ni64(),
    committedAfter: r.ni64(),
  }
}

const VERSIONS: ReadonlyArray<JoinedTransaction['transactionVersion']> = [null, 'TV1', 'TV2']

/** a joined transaction written; returns where its version is (versionP() sets it later) */
export function joinedW(o: ByteOut, f: FileTable, t: JoinedTransaction): number {
  o.ntext(t.transactionalId)
  o.i64(t.producerId)
  o.sv(t.producerEpoch)
  const at = o.pos
  o.u8(VERSIONS.indexOf(t.transactionVersion))
  nameW(o, f, t.outcome)
  nameW(o, f, t.joinedBy)
  o.i64(t.firstTimestamp)
  o.i64(t.lastTimestamp)
  o.uv(t.runs.length)
  for (const x of t.runs) runW(o, f, x)
  o.uv(t.offsetCommits.length)
  for (const c of t.offsetCommits) commitW(o, f, c)
  o.bool(t.episode !== null)
  if (t.episode !== null) episodeW(o, f, t.episode)
  namesW(o, f, t.notRead)
  // an abort's cause names the episode's PrepareAbort record: kept once, in the episode
  const c = t.abortCause
  o.bool(c !== null)
  if (c !== null) {
    nameW(o, f, c.by)
    o.i64(c.startedAt)
    o.i64(c.deadline)
    o.i64(c.preparedAt)
    o.sv(c.transactionTimeoutMs)
  }
  plainW(o, t.findings.length === 0 ? null : t.findings)
  return at
}
/** the version of a transaction joinedW wrote, set at `at` (what it returned) */
export function versionP(buf: Buffer, at: number, v: JoinedTransaction['transactionVersion']): void {
  buf[at] = VERSIONS.indexOf(v)
}
export function joinedR(r: ByteIn, f: FileTable): JoinedTransaction {
  const transactionalId = r.ntext()
  const producerId = r.i64()
  const producerEpoch = r.sv()
  const transactionVersion = VERSIONS[r.u8()]!
  const outcome = nameR(r, f) as JoinedTransaction['outcome']
  const joinedBy = nameR(r, f) as JoinedTransaction['joinedBy']
  const firstTimestamp = r.ni64()
  const lastTimestamp = r.ni64()
  const nr = r.uv()
  const runs: PartitionRun[] = new Array<PartitionRun>(nr)
  for (let i = 0; i < nr; i++) runs[i] = runR(r, f)
  const nc = r.uv()
  const offsetCommits: OffsetCommit[] = new Array<OffsetCommit>(nc)
  for (let i = 0; i < nc; i++) offsetCommits[i] = commitR(r, f)
  const episode = r.bool() ? episodeR(r, f) : null
  const notRead = namesR(r, f)
  const cause: AbortCause | null = r.bool()
    ? {
        by: nameR(r, f) as AbortCause['by'],
        startedAt: r.i64(),
        deadline: r.i64(),
        preparedAt: r.i64(),
        transactionTimeoutMs: r.sv(),
        prepare: episode!.prepare!,
      }
    : null
  const findings = plainR<Finding[]>(r)
  return {
    transactionalId,
    producerId,
    producerEpoch,
    transactionVersion,
    outcome,
    joinedBy,
    firstTimestamp,
    lastTimestamp,
    runs,
    offsetCommits,
    episode,
    notRead,
    abortCause: cause,
    findings: findings ?? [],
  }
}
