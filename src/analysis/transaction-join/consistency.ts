// A joined transaction's outcome, timestamps, transactional id and offset commits, and what its markers
// and its coordinator records say against each other. The coordinator writes Prepare* with the partition
// list, then a marker into every listed partition, then Complete* (TransactionCoordinator.endTransaction,
// TransactionMarkerChannelManager): a listed partition without a marker, markers that disagree, data in a
// partition never listed, or a Prepare* left behind with markers missing each break that sequence.
import { finding } from '../findings.js'
import { TWO_PHASE_COMMIT_TIMEOUT_MS } from '../transactional-id-state.js'
import { abortCause } from './abort-cause.js'
import { runLabel } from './join.js'
import type { JoinedTransaction, OffsetCommitRecord, PartitionRun, TxOutcome } from './types.js'
import type { DamageRef } from '../transactions.js'
import { sortSmall, sortStrings } from '../small-sort.js'
import { lowerBound } from '../../bytes/sorted-search.js'

const max = (a: bigint | null, b: bigint | null): bigint | null => (a === null ? b : b === null ? a : a > b ? a : b)
const min = (a: bigint | null, b: bigint | null): bigint | null => (a === null ? b : b === null ? a : a < b ? a : b)

export interface CompleteContext {
  /** `topic-partition` of every partition read */
  scanned: ReadonlySet<string>
  /** partitions with bytes that could not be read, where (the first damage a transaction there was marked with) */
  damaged?: ReadonlyMap<string, DamageRef>
  idByProducer: ReadonlyMap<bigint, string>
  /** transactional offset commits per __consumer_offsets partition label */
  commits: ReadonlyMap<string, readonly OffsetCommitRecord[]>
}

const NONE: readonly OffsetCommitRecord[] = []

/** the marker types of a transaction's runs, by which of COMMIT (1) and ABORT (2) are among them: one Set each, shared */
const MARKER_TYPES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(),
  new Set(['COMMIT']),
  new Set(['ABORT']),
  new Set(['COMMIT', 'ABORT']),
]

/** runs past which the marked partitions are a Set */
const FEW_RUNS = 16

/** whether a partition has a run with a marker: the few runs of a transaction looked over, a Set for many */
function markedLabels(runs: readonly PartitionRun[]): { has: (label: string) => boolean } {
  if (runs.length > FEW_RUNS) return new Set(runs.filter((r) => r.marker !== null).map(runLabel))
  return { has: (label) => runs.some((r) => r.marker !== null && runLabel(r) === label) }
}

/** each partition's transactional commits by record offset, built once per partition: a lookup per run, not a pass over every commit */
const byRecordOffset = new WeakMap<readonly OffsetCommitRecord[], { offsets: bigint[]; at: number[] }>()

/** the transactional commits of `cs` with a record offset in [from, to], in file order */
function commitsBetween(cs: readonly OffsetCommitRecord[], from: bigint, to: bigint): readonly OffsetCommitRecord[] {
  let ix = byRecordOffset.get(cs)
  if (ix === undefined) {
    const at = [...cs.keys()]
      .filter((i) => cs[i]!.transactional)
      .sort((a, b) =>
        cs[a]!.recordOffset < cs[b]!.recordOffset ? -1 : cs[a]!.recordOffset > cs[b]!.recordOffset ? 1 : a - b,
      )
    ix = { offsets: at.map((i) => cs[i]!.recordOffset), at }
    byRecordOffset.set(cs, ix)
  }
  const hits: number[] = []
  for (let k = lowerBound(ix.offsets, from); k < ix.offsets.length && ix.offsets[k]! <= to; k++) hits.push(ix.at[k]!)
  if (hits.length === 0) return NONE
  return sortSmall(hits, (a, b) => a - b).map((i) => cs[i]!)
}

export function completeTransaction(t: JoinedTransaction, ctx: CompleteContext): void {
  t.transactionalId ??= ctx.idByProducer.get(t.producerId) ?? null
  const e = t.episode
  for (const r of t.runs) {
    t.firstTimestamp = min(t.firstTimestamp, r.firstTimestamp)
    t.lastTimestamp = max(max(t.lastTimestamp, r.lastTimestamp), r.marker?.timestamp ?? null)
    const cs = ctx.commits.get(runLabel(r))
    if (cs === undefined) continue
    const end = r.marker?.offset ?? r.lastDataOffset ?? r.firstOffset
    for (const c of commitsBetween(cs, r.firstOffset, end)) {
      if (c.producerId === r.producerId) {
        t.offsetCommits.push({
          group: c.group,
          topic: c.topic,
          partition: c.partition,
          offset: c.offset,
          metadata: c.metadata,
          log: runLabel(r),
          recordOffset: c.recordOffset,
          committedBefore: null,
          committedAfter: null,
        })
      }
    }
  }
  if (e !== null) {
    t.firstTimestamp = min(t.firstTimestamp, e.states[0]!.timestamp)
    t.lastTimestamp = max(t.lastTimestamp, e.states.at(-1)!.timestamp)
  }
  let unmarked = 0
  let kinds = 0
  for (const r of t.runs) {
    if (r.marker === null) unmarked++
    else kinds |= r.marker.type === 'COMMIT' ? 1 : 2
  }
  const types = MARKER_TYPES[kinds]!
  // said only in a finding's message (a producer id made into text for every transaction cost more than the rest)
  let idText: string | null = null
  const id = (): string =>
    (idText ??=
      t.transactionalId === null ? `producer ${t.producerId}` : `${t.transactionalId} (producer ${t.producerId})`)
  if (types.size === 2) {
    const m = t.runs.find(
      (r) => r.marker !== null && r.marker.type !== t.runs.find((x) => x.marker !== null)!.marker!.type,
    )!.marker!
    t.findings.push(
      finding(
        'TXN_MIXED_OUTCOME',
        `${id()} epoch ${t.producerEpoch}: markers disagree: ` +
          t.runs
            .filter((r) => r.marker !== null)
            .map((r) => `${r.marker!.type} in ${runLabel(r)} at ${r.marker!.offset}`)
            .join(', '),
        { file: m.file, position: m.position },
      ),
    )
  }
  t.outcome = outcomeOf(t, types, unmarked)
  if (e === null) return
  if (t.outcome === 'aborted') noteAbortCause(t, id)
  const said = e.complete?.state ?? e.prepare?.state ?? null
  const saidOutcome = said === null ? null : said.endsWith('Commit') ? 'COMMIT' : 'ABORT'
  if (saidOutcome !== null && types.size === 1 && !types.has(saidOutcome)) {
    const r = t.runs.find((x) => x.marker !== null)!
    t.findings.push(
      finding(
        'TXN_OUTCOME_CONTRADICTS',
        `${id()}: the coordinator wrote ${said} (offset ${(e.complete ?? e.prepare)!.offset}) but the marker in ${runLabel(r)} at offset ${r.marker!.offset} is ${r.marker!.type}`,
        { file: r.marker!.file, position: r.marker!.position },
      ),
    )
  }
  const listed = e.prepare?.partitions ?? sortStrings([...e.partitions])
  const notRead: string[] = []
  for (const p of e.partitions) if (!ctx.scanned.has(p)) notRead.push(p)
  t.notRead = sortStrings(notRead)
  const marked = markedLabels(t.runs)
  // a partition whose marker may lie in bytes that could not be read is not a hanging one: said at the damage
  for (const p of listed.filter((x) => ctx.scanned.has(x) && !marked.has(x) && ctx.damaged?.has(x) === true)) {
    const d = ctx.damaged!.get(p)!
    t.findings.push(
      finding(
        'TXN_OUTCOME_UNKNOWN',
        `${id()}: the coordinator listed ${p} but no marker of this transaction could be read there; ` +
          `it may lie in the bytes that could not be read at ${d.file}:${d.position}`,
        { file: d.file, position: d.position },
      ),
    )
  }
  const missing = listed.filter((p) => ctx.scanned.has(p) && !marked.has(p) && ctx.damaged?.has(p) !== true)
  const last = e.states.at(-1)!
  if (missing.length > 0 && e.prepare !== null) {
    const at = { file: e.prepare.file, position: e.prepare.position }
    if (e.complete === null && last.state.startsWith('Prepare')) {
      t.findings.push(
        finding(
          'TXN_PREPARE_STUCK',
          `${id()}: the coordinator's newest record is ${last.state} (offset ${last.offset}) and ${missing.join(', ')} ha${missing.length === 1 ? 's' : 've'} no marker: ` +
            'the second phase stopped (a coordinator that failed over, or markers not yet written)',
          at,
        ),
      )
    } else {
      t.findings.push(
        finding(
          'TXN_PARTITION_NO_MARKER',
          `${id()}: the coordinator listed ${missing.join(', ')} (${e.prepare.state} at offset ${e.prepare.offset}) but ${missing.length === 1 ? 'it has' : 'they have'} no marker of this transaction: a hanging partition`,
          at,
        ),
      )
    }
  }
  let all: Set<string> | null = null
  for (const r of t.runs) {
    const l = runLabel(r)
    if (e.partitions.has(l) || listed.includes(l)) continue
    all ??= new Set(listed.concat([...e.partitions]))
    t.findings.push(
      finding(
        'TXN_UNLISTED_PARTITION',
        `${id()}: data in ${runLabel(r)} from offset ${r.firstOffset} that the coordinator never listed for this transaction (its partitions: ${[...all].sort().join(', ') || 'none'})`,
        { file: r.file, position: r.position },
      ),
    )
  }
}

/** who aborted it; a timeout abort is a finding: the producer never ended it, and its records were discarded */
function noteAbortCause(t: JoinedTransaction, id: () => string): void {
  const c = abortCause(t.episode!)
  t.abortCause = c
  if (c === null || c.by !== 'coordinator-timeout') return
  const data = t.runs.filter((r) => r.lastDataOffset !== null && r.topic !== '__consumer_offsets')
  const records = data.reduce((n, r) => n + r.records, 0)
  const where = data
    .map(
      (r) =>
        `${runLabel(r)} ${r.firstOffset === r.lastDataOffset ? r.firstOffset : `${r.firstOffset}..${r.lastDataOffset}`}`,
    )
    .join(', ')
  const late = Number(c.preparedAt - c.startedAt)
  t.findings.push(
    finding(
      'TXN_TIMED_OUT',
      `${id()} epoch ${t.producerEpoch}: aborted by the coordinator's timeout, not by its producer: ` +
        `PrepareAbort (offset ${c.prepare.offset}) ${(late / 1000).toFixed(1)} s after the transaction began, past its transactionTimeoutMs ${c.transactionTimeoutMs}` +
        (records > 0
          ? `; ${records} record${records === 1 ? '' : 's'} no read_committed consumer will see (${where})`
          : '') +
        '. The producer stalled or died between its first send and its commit (a GC pause, a long processing step, a halted job)' +
        ' and will get InvalidProducerEpoch/ProducerFenced on its next call; raise transaction.timeout.ms or commit more often',
      { file: c.prepare.file, position: c.prepare.position },
    ),
  )
}

function outcomeOf(t: JoinedTransaction, types: ReadonlySet<string>, unmarked: number): TxOutcome {
  // a partition's marker or data in bytes that could not be read: what was read there does not decide it
  if (t.runs.some((r) => r.damage !== undefined)) return 'unknown'
  if (types.size === 2) return 'unknown'
  if (types.size === 1 && unmarked === 0) return types.has('COMMIT') ? 'committed' : 'aborted'
  const e = t.episode
  const last = e?.states.at(-1)?.state
  if (last === 'CompleteCommit') return 'committed'
  if (last === 'CompleteAbort') return 'aborted'
  if (last === 'PrepareCommit' || last === 'PrepareAbort') {
    // KIP-939: a two-phase-commit client (timeout Integer.MAX_VALUE) leaves its transaction prepared on purpose
    return e!.states.at(-1)!.transactionTimeoutMs === TWO_PHASE_COMMIT_TIMEOUT_MS ? 'prepared' : 'unknown'
  }
  if (types.size === 1) return types.has('COMMIT') ? 'committed' : 'aborted'
  return unmarked > 0 || last === 'Ongoing' ? 'open' : 'unknown'
}
