// The join of integ before the join by key (analysis/transaction-join/join.ts joinRuns and bucket-join.ts joinBucket as
// they were, copied whole): the oracle of test/scan/transaction-join-keys.test.ts. Not used by src/.
import type { BucketContext, BucketInput, Ordered } from '../../src/analysis/transaction-join/bucket-join.js'
import { began, compareOrdered, wanted } from '../../src/analysis/transaction-join/bucket-join.js'
import { completeTransaction } from '../../src/analysis/transaction-join/consistency.js'
import { judgeOpenRuns } from '../../src/analysis/transaction-join/open-runs.js'
import { finding } from '../../src/analysis/findings.js'
import { inferTransactionVersion } from '../../src/analysis/transactions.js'
import { sortSmall } from '../../src/analysis/small-sort.js'
import type { Episode, JoinBasis, JoinedTransaction, PartitionRun } from '../../src/analysis/transaction-join/types.js'

/** markers of one transaction written further apart than this, with nothing else to tell, are not joined silently */
const MARKER_WINDOW_MS = 2000n

/** each topic's partition labels, made once: the join and its checks ask for a run's label several times per transaction */
const labels = new Map<string, string[]>()
const LABELLED_PARTITIONS = 4096

function runLabel(r: Pick<PartitionRun, 'topic' | 'partition'>): string {
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
const runKeyEpoch = (r: PartitionRun): number => r.marker?.epoch ?? r.producerEpoch
/** ended runs by marker epoch, open ones by data epoch: with TV2 a run still open has the epoch the previous markers carry */
const runKey = (r: PartitionRun): string => `${r.marker === null ? 'o' : 'e'}/${r.producerId}/${runKeyEpoch(r)}`
const episodeKey = (e: Episode): string =>
  `${e.prepare === null && e.complete === null ? 'o' : 'e'}/${e.producerId}/${e.endEpoch}`
const byOffset = (a: PartitionRun, b: PartitionRun): number =>
  a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0

/** by partition label, then first offset (what sorting by offset and then, stably, by label gave) */
const byLabelThenOffset = (a: PartitionRun, b: PartitionRun): number => {
  const la = runLabel(a)
  const lb = runLabel(b)
  return la < lb ? -1 : la > lb ? 1 : byOffset(a, b)
}

function runVersion(r: PartitionRun): 'TV1' | 'TV2' | null {
  if (r.marker === null) return null
  const v = inferTransactionVersion({
    producerEpoch: r.producerEpoch,
    markerEpoch: r.marker.epoch,
    marker: r.marker,
    empty: r.records === 0,
    seeded: r.seeded,
  })
  return v === '2' ? 'TV2' : v === '0/1' ? 'TV1' : null
}

function groupVersion(runs: readonly PartitionRun[], episodes: readonly Episode[]): 'TV1' | 'TV2' | null {
  const vs = new Set(runs.map(runVersion).filter((v) => v !== null))
  if (vs.has('TV2')) return 'TV2'
  if (vs.has('TV1')) return 'TV1'
  // the coordinator records the client's version (clientTransactionVersion, a tagged field from Kafka 4.0 on);
  // 0 (absent) or 1 is the same log format
  for (const e of episodes) for (const s of e.states) if (s.clientTransactionVersion === 2) return 'TV2'
  return episodes.length > 0 ? 'TV1' : null
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

/** Every transaction the runs and the episodes tell, in no particular order; outcome and findings are filled in later. */
export function oldJoinRuns(runs: readonly PartitionRun[], episodes: readonly Episode[]): JoinedTransaction[] {
  const groups = new Map<string, PartitionRun[]>()
  for (const r of runs) {
    const k = runKey(r)
    let g = groups.get(k)
    if (g === undefined) {
      g = []
      groups.set(k, g)
    }
    g.push(r)
  }
  const episodeGroups = new Map<string, Episode[]>()
  for (const e of episodes) {
    const k = episodeKey(e)
    let g = episodeGroups.get(k)
    if (g === undefined) {
      g = []
      episodeGroups.set(k, g)
    }
    g.push(e)
  }
  const out: JoinedTransaction[] = []
  for (const [k, g] of groups) {
    const es = episodeGroups.get(k) ?? []
    episodeGroups.delete(k)
    const version = groupVersion(g, es)
    if (k.startsWith('o/') || version === 'TV2' || (g.length === 1 && es.length <= 1)) {
      const t = tx(g, es.at(-1) ?? null, 'producer-epoch', version, g[0])
      if (es.length > 1)
        t.findings.push(
          finding(
            'TXN_JOIN_AMBIGUOUS',
            `producer ${g[0]!.producerId} epoch ${runKeyEpoch(g[0]!)}: ${es.length} coordinator episodes end at this producer epoch; joined with the last, the others listed on their own`,
            { file: es.at(-1)!.states[0]!.file, position: es.at(-1)!.states[0]!.position },
          ),
        )
      for (const e of es.slice(0, -1)) out.push(tx([], e, 'coordinator', version, undefined))
      out.push(t)
      continue
    }
    for (const t of joinSharedEpoch(g, es, version)) out.push(t)
  }
  // episodes without a run among the paths: the coordinator's word alone
  for (const es of episodeGroups.values())
    for (const e of es) if (e.partitions.size > 0) out.push(tx([], e, 'coordinator', groupVersion([], [e]), undefined))
  // a producer id keeps its client's version: a transaction whose own epochs do not tell (open, or aborted with a bump) takes its siblings'
  const known = new Map<bigint, 'TV1' | 'TV2'>()
  for (const t of out) if (t.transactionVersion !== null) known.set(t.producerId, t.transactionVersion)
  for (const t of out) t.transactionVersion ??= known.get(t.producerId) ?? null
  return out
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

/** bucket-join.ts joinBucket as it was: every transaction completed, then filled, then judged, then filtered and sorted */
export function oldJoinBucket(b: BucketInput, ctx: BucketContext): Ordered[] {
  const all = oldJoinRuns(b.runs, b.episodes)
  for (const t of all)
    completeTransaction(t, {
      scanned: ctx.scanned,
      idByProducer: b.idByProducer,
      commits: b.commits,
      damaged: ctx.damaged,
    })
  for (const t of all) ctx.groups.fill(t)
  judgeOpenRuns(all, ctx.states, ctx.nowMs, ctx.maxTransactionTimeoutMs)
  const out: Ordered[] = []
  for (const t of all) {
    if (ctx.filter !== undefined && !wanted(t, ctx.filter)) continue
    if (ctx.selects !== undefined && !t.runs.some((r) => ctx.selects!(r.topic, r.partition))) continue
    out.push({ key: began(t), t })
  }
  return out.sort(compareOrdered)
}
