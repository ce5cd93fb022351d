// Joins the transactional runs of every partition into transactions.
//
// A producer has at most one transaction open at a time, and every marker of a transaction carries the
// epoch of the coordinator's Prepare* record (TransactionMarkerChannelManager), so runs are first grouped
// by (producerId, marker epoch; the data epoch for a run still open). With transaction version 2
// (KIP-890) every transaction ends with an epoch bump: a group is one transaction. Before it, a producer
// keeps its epoch across transactions, and a group holds them all: each partition's runs are then paired,
// in order, with the coordinator's episodes that list that partition (when both are complete), or with the
// one episode whose records' time window holds the marker; runs left over are clustered by their markers'
// timestamps (a transaction's data precedes all its markers, the next transaction's data follows them).
// Whatever cannot be told apart exactly is a TXN_JOIN_AMBIGUOUS finding.
import { finding } from '../findings.js'
import { inferTransactionVersion } from '../transactions.js'
import { sortSmall } from '../small-sort.js'
import type { MarkerType } from '../partition-transaction.js'
import type { Episode, JoinBasis, JoinedTransaction, PartitionRun } from './types.js'

/** markers of one transaction written further apart than this, with nothing else to tell, are not joined silently */
export const MARKER_WINDOW_MS = 2000n

/** each topic's partition labels, made once: the join and its checks ask for a run's label several times per transaction */
const labels = new Map<string, string[]>()
const LABELLED_PARTITIONS = 4096

export function runLabel(r: Pick<PartitionRun, 'topic' | 'partition'>): string {
  const p = r.partition
  if (!(p >= 0 && p < LABELLED_PARTITIONS && Number.isInteger(p))) return `${r.topic}-${p}`
  let l = labels.get(r.topic)
  if (l === undefined) {
    if (labels.size >= LABELLED_PARTITIONS) labels.clear()
    l = []
    labels.set(r.topic, l)
  }
  return (l[p] ??= `${r.topic}-${p}`)
}
/** the epoch a run is joined by: its marker's (the Prepare* record's), the data's for a run still open */
export const runKeyEpoch = (r: Pick<PartitionRun, 'marker' | 'producerEpoch'>): number =>
  r.marker?.epoch ?? r.producerEpoch
/** an episode with neither a Prepare* nor a Complete* record: joined with the runs still open */
export const episodeOpen = (e: Pick<Episode, 'prepare' | 'complete'>): boolean =>
  e.prepare === null && e.complete === null
/** the join key: ended runs by marker epoch, open ones by data epoch (with TV2 a run still open has the epoch the previous markers carry) */
export const joinKey = (open: boolean, producerId: bigint | number, epoch: number): string =>
  `${open ? 'o' : 'e'}/${producerId}/${epoch}`
const runKey = (r: PartitionRun): string => joinKey(r.marker === null, r.producerId, runKeyEpoch(r))
const episodeKey = (e: Episode): string => joinKey(episodeOpen(e), e.producerId, e.endEpoch)
const byOffset = (a: PartitionRun, b: PartitionRun): number =>
  a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0

/** by partition label, then first offset (what sorting by offset and then, stably, by label gave) */
const byLabelThenOffset = (a: PartitionRun, b: PartitionRun): number => {
  const la = runLabel(a)
  const lb = runLabel(b)
  return la < lb ? -1 : la > lb ? 1 : byOffset(a, b)
}

/** what a run's epochs say of its client's version */
export function runVersion(r: PartitionRun): 'TV1' | 'TV2' | null {
  return runVersionOf(r.producerEpoch, r.marker?.epoch ?? null, r.marker?.type ?? null, r.records, r.seeded)
}

/** what a run's epochs say of its client's version (analysis/transactions.ts inferTransactionVersion); null: nothing */
export function runVersionOf(
  producerEpoch: number,
  markerEpoch: number | null,
  type: MarkerType | null,
  records: number,
  seeded: boolean,
): 'TV1' | 'TV2' | null {
  if (type === null) return null
  const v = inferTransactionVersion({ producerEpoch, markerEpoch, marker: { type }, empty: records === 0, seeded })
  return v === '2' ? 'TV2' : v === '0/1' ? 'TV1' : null
}

export function groupVersion(runs: readonly PartitionRun[], episodes: readonly Episode[]): 'TV1' | 'TV2' | null {
  return versionFrom(runs.map(runVersion), episodes.some(saysVersion2), episodes.length)
}

/** the coordinator records the client's version (clientTransactionVersion, a tagged field from Kafka 4.0 on); 0 (absent) or 1 is the same log format */
export const saysVersion2 = (e: Episode): boolean => e.states.some((s) => s.clientTransactionVersion === 2)

/** a key's version: its runs' (TV2 over TV1), else its episodes' */
export function versionFrom(
  runVersions: Iterable<'TV1' | 'TV2' | null>,
  episodeSaysVersion2: boolean,
  episodes: number,
): 'TV1' | 'TV2' | null {
  let tv1 = false
  for (const v of runVersions) {
    if (v === 'TV2') return 'TV2'
    if (v === 'TV1') tv1 = true
  }
  if (tv1) return 'TV1'
  if (episodeSaysVersion2) return 'TV2'
  return episodes > 0 ? 'TV1' : null
}

function tx(
  runs: PartitionRun[],
  episode: Episode | null,
  joinedBy: JoinBasis,
  version: 'TV1' | 'TV2' | null,
  first: PartitionRun | undefined,
): JoinedTransaction {
  const pid = episode?.producerId ?? first!.producerId
  const epoch =
    runs.find((r) => r.records > 0)?.producerEpoch ??
    (episode?.states.find((s) => s.state === 'Ongoing') ?? episode?.states[0])?.producerEpoch ??
    first!.producerEpoch
  return {
    transactionalId: episode?.transactionalId ?? null,
    producerId: pid,
    producerEpoch: epoch,
    transactionVersion: version,
    outcome: 'unknown',
    joinedBy,
    firstTimestamp: null,
    lastTimestamp: null,
    runs: sortSmall(runs, byLabelThenOffset),
    offsetCommits: [],
    episode,
    notRead: [],
    abortCause: null,
    findings: [],
  }
}

/**
 * One join key's runs and coordinator episodes: ended runs by (producer id, marker epoch), open ones by (producer
 * id, data epoch), the episodes by the same (`runKey`, `episodeKey`). The join of a key needs no other key's
 * facts, so a caller can hand them one at a time (a producer id of a thousand transactions is a thousand keys with
 * transaction version 2), and a key whose runs pair with its episodes by count (`pairsByCount`) one episode at a
 * time (a thousand transactions of one epoch with version 1).
 */
export type KeyGroup = WholeKeyGroup | PairedKeyGroup

export interface WholeKeyGroup {
  /** the key of runs still open */
  open: boolean
  /** in the order they were read; none: episodes without a run among the paths */
  runs: PartitionRun[]
  /** in the order they began */
  episodes: Episode[]
}

/** a shared-epoch key `pairsByCount` said yes to, its runs and episodes read as the join asks for them */
export interface PairedKeyGroup {
  /** groupVersion of its runs and episodes */
  version: 'TV1' | 'TV2' | null
  /** in the order they began */
  episodes: Iterable<Episode>
  /** the partition's next run, by first offset (undefined: it has none) */
  nextRun: (label: string) => PartitionRun | undefined
}

/**
 * Whether a key's runs are several transactions at one producer epoch (transaction version 1), joined with the
 * coordinator's episodes or their markers' timestamps (joinSharedEpoch); else the key is one transaction (runs
 * still open, TV2's epoch bump, or one run and at most one episode)
 */
export function sharedEpoch(open: boolean, version: 'TV1' | 'TV2' | null, runs: number, episodes: number): boolean {
  return !(open || version === 'TV2' || (runs === 1 && episodes <= 1))
}

/**
 * Whether a shared-epoch key's runs are joined with its episodes by count alone: every partition's runs are as
 * many as the episodes that list it, both histories complete, so the k-th run there is the k-th transaction that
 * listed it (joinSharedEpoch's first rule). `runsIn`: each partition's runs; `listedIn`: how many of the key's
 * episodes list each partition.
 */
export function pairsByCount(runsIn: ReadonlyMap<string, number>, listedIn: ReadonlyMap<string, number>): boolean {
  for (const [label, n] of runsIn) if ((listedIn.get(label) ?? 0) !== n) return false
  return true
}

/** runs and episodes by join key: the runs' groups in the order their first run was read, then the episodes' groups no run has */
export function keyGroups(runs: readonly PartitionRun[], episodes: readonly Episode[]): WholeKeyGroup[] {
  const groups = new Map<string, WholeKeyGroup>()
  for (const r of runs) {
    const k = runKey(r)
    let g = groups.get(k)
    if (g === undefined) {
      g = { open: r.marker === null, runs: [], episodes: [] }
      groups.set(k, g)
    }
    g.runs.push(r)
  }
  const alone = new Map<string, WholeKeyGroup>()
  for (const e of episodes) {
    const k = episodeKey(e)
    let g = groups.get(k) ?? alone.get(k)
    if (g === undefined) {
      g = { open: k.startsWith('o/'), runs: [], episodes: [] }
      alone.set(k, g)
    }
    g.episodes.push(e)
  }
  return [...groups.values(), ...alone.values()]
}

/** Every transaction the runs and the episodes tell, in no particular order; outcome and findings are filled in later. */
export function joinRuns(runs: readonly PartitionRun[], episodes: readonly Episode[]): JoinedTransaction[] {
  const out: JoinedTransaction[] = []
  const push = (t: JoinedTransaction): void => {
    out.push(t)
  }
  for (const g of keyGroups(runs, episodes)) joinKeyGroup(g, push)
  const versions = new SiblingVersions()
  for (const t of out) versions.note(t)
  for (const t of out) t.transactionVersion ??= versions.of(t.producerId)
  return out
}

/**
 * A producer id keeps its client's version: a transaction whose own epochs do not tell (open, or aborted with a
 * bump) takes its siblings', the last one told in the join's order
 */
export class SiblingVersions {
  private readonly known = new Map<bigint, 'TV1' | 'TV2'>()
  /** a transaction in the join's order */
  note(t: JoinedTransaction): void {
    if (t.transactionVersion !== null) this.known.set(t.producerId, t.transactionVersion)
  }
  of(producerId: bigint): 'TV1' | 'TV2' | null {
    return this.known.get(producerId) ?? null
  }
}

/** The transactions of one join key (before their siblings' version), handed to `emit` in the join's order. */
export function joinKeyGroup(group: KeyGroup, emit: (t: JoinedTransaction) => void): void {
  if (!('runs' in group)) {
    // both histories complete: each episode with the next run of each partition it listed
    for (const e of group.episodes) {
      const rs: PartitionRun[] = []
      for (const p of e.partitions) {
        const r = group.nextRun(p)
        if (r !== undefined) rs.push(r)
      }
      emit(tx(rs, e, 'coordinator', group.version, rs[0]))
    }
    return
  }
  const { runs: g, episodes: es } = group
  if (g.length === 0) {
    // episodes without a run among the paths: the coordinator's word alone
    for (const e of es) if (e.partitions.size > 0) emit(tx([], e, 'coordinator', groupVersion([], [e]), undefined))
    return
  }
  const version = groupVersion(g, es)
  if (!sharedEpoch(group.open, version, g.length, es.length)) {
    const t = tx(g, es.at(-1) ?? null, 'producer-epoch', version, g[0])
    if (es.length > 1)
      t.findings.push(
        finding(
          'TXN_JOIN_AMBIGUOUS',
          `producer ${g[0]!.producerId} epoch ${runKeyEpoch(g[0]!)}: ${es.length} coordinator episodes end at this producer epoch; joined with the last, the others listed on their own`,
          { file: es.at(-1)!.states[0]!.file, position: es.at(-1)!.states[0]!.position },
        ),
      )
    for (const e of es.slice(0, -1)) emit(tx([], e, 'coordinator', version, undefined))
    emit(t)
    return
  }
  for (const t of joinSharedEpoch(g, es, version)) emit(t)
}

/** TV1: the runs of one (producerId, epoch), several transactions; paired with the coordinator's episodes, else clustered by marker time. */
function joinSharedEpoch(g: PartitionRun[], es: Episode[], version: 'TV1' | 'TV2' | null): JoinedTransaction[] {
  const byPart = new Map<string, PartitionRun[]>()
  for (const r of g) {
    const l = runLabel(r)
    let p = byPart.get(l)
    if (p === undefined) {
      p = []
      byPart.set(l, p)
    }
    p.push(r)
  }
  const paired = new Map<Episode, PartitionRun[]>(es.map((e) => [e, []]))
  const byTime = new Set<Episode>()
  const left: PartitionRun[] = []
  // each partition's episodes that listed it, in the episodes' order: one pass over their partitions, not one
  // over every episode per partition (a producer id of a thousand transactions in fifty partitions)
  const listings = new Map<string, Episode[]>()
  for (const e of es)
    for (const p of e.partitions) {
      let l = listings.get(p)
      if (l === undefined) {
        l = []
        listings.set(p, l)
      }
      l.push(e)
    }
  for (const [label, rs] of byPart) {
    sortSmall(rs, byOffset)
    const listing = listings.get(label) ?? []
    if (listing.length === rs.length) {
      // both histories complete: the k-th run of this producer epoch here is the k-th transaction that listed it
      // (pairsByCount: when it holds in every partition the key is streamed, joinKeyGroup's PairedKeyGroup)
      rs.forEach((r, i) => paired.get(listing[i]!)!.push(r))
      continue
    }
    for (const r of rs) {
      const at = r.marker?.timestamp ?? r.firstTimestamp
      let fits = at === null ? [] : listing.filter((e) => inWindow(e, at))
      // a partition no episode listed: the one episode whose time holds its marker (consistency.ts says it was never listed)
      if (listing.length === 0 && at !== null) fits = es.filter((e) => inWindow(e, at))
      if (fits.length === 1) {
        paired.get(fits[0]!)!.push(r)
        byTime.add(fits[0]!)
      } else left.push(r)
    }
  }
  const out: JoinedTransaction[] = []
  for (const [e, rs] of paired)
    out.push(tx(rs, e, byTime.has(e) ? 'coordinator-timestamps' : 'coordinator', version, rs[0]))
  for (const t of clusterByMarkers(left, version, es.length > 0)) out.push(t)
  return out
}

function inWindow(e: Episode, at: bigint): boolean {
  const from = e.states[0]!.timestamp
  const to = e.complete?.timestamp ?? null
  return at >= from && (to === null || at <= to)
}

/** Runs without a coordinator episode: a new transaction starts where a partition repeats or data follows the markers before it. */
function clusterByMarkers(
  left: PartitionRun[],
  version: 'TV1' | 'TV2' | null,
  hadEpisodes: boolean,
): JoinedTransaction[] {
  if (left.length === 0) return []
  const open = left.filter((r) => r.marker === null)
  const ended = left
    .filter((r) => r.marker !== null)
    .sort((a, b) =>
      a.marker!.timestamp < b.marker!.timestamp ? -1 : a.marker!.timestamp > b.marker!.timestamp ? 1 : byOffset(a, b),
    )
  const clusters: Array<{ runs: PartitionRun[]; ambiguous: boolean }> = []
  let cur: { runs: PartitionRun[]; ambiguous: boolean; minMarker: bigint; maxMarker: bigint } | null = null
  for (const r of ended) {
    const ts = r.marker!.timestamp
    const repeats: boolean = cur !== null && cur.runs.some((x) => runLabel(x) === runLabel(r))
    const after: boolean =
      cur !== null && r.firstTimestamp !== null && r.records > 0 && r.firstTimestamp > cur.minMarker
    const far: boolean = cur !== null && ts - cur.maxMarker > MARKER_WINDOW_MS
    if (cur === null || repeats || after || far) {
      cur = { runs: [r], ambiguous: cur !== null && far && !repeats && !after, minMarker: ts, maxMarker: ts }
      clusters.push(cur)
      continue
    }
    cur.runs.push(r)
    if (ts > cur.maxMarker) cur.maxMarker = ts
  }
  // one transaction open at a time: the runs still open are the producer's current transaction
  if (open.length > 0) clusters.push({ runs: open, ambiguous: false })
  const basis: JoinBasis = left.length === 1 ? 'producer-epoch' : 'marker-timestamps'
  return clusters.map((c) => {
    const t = tx(c.runs, null, basis, version, c.runs[0])
    const r0 = c.runs[0]!
    if (c.ambiguous) {
      t.findings.push(
        finding(
          'TXN_JOIN_AMBIGUOUS',
          `producer ${r0.producerId} epoch ${runKeyEpoch(r0)}: the marker in ${runLabel(r0)} at offset ${r0.marker!.offset} came over ${MARKER_WINDOW_MS} ms after the previous ones ` +
            'and nothing else tells whether it ends the same transaction; listed as a transaction of its own',
          { file: r0.marker!.file, position: r0.marker!.position },
        ),
      )
    }
    if (hadEpisodes) {
      t.findings.push(
        finding(
          'TXN_JOIN_AMBIGUOUS',
          `producer ${r0.producerId} epoch ${runKeyEpoch(r0)}: runs in ${[...new Set(c.runs.map(runLabel))].join(', ')} match no single coordinator record ` +
            '(its history compacted, or partitions it never listed); joined by marker timestamps',
          { file: r0.file, position: r0.position },
        ),
      )
    }
    return t
  })
}
