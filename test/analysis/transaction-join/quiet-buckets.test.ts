// A bucket told quiet (analysis/transaction-join/quiet-buckets.ts) is one the join finds nothing in: random buckets
// of a few producers' runs and coordinator episodes, near-matching on purpose (markers swapped, missing, of the
// other type, epochs repeated or going back, a timed-out abort, an open run), each judged by the witness and by
// joinBucket itself (join.ts, consistency.ts, open-runs.ts); and the witness is not trivially silent: every
// transaction told as the coordinator wrote it makes the bucket quiet.
import { describe, expect, it } from 'vitest'
import { joinBucket } from '../../../src/analysis/transaction-join/bucket-join.js'
import { GroupTimelines } from '../../../src/analysis/transaction-join/group-positions.js'
import { QuietBuckets } from '../../../src/analysis/transaction-join/quiet-buckets.js'
import type { CoordinatorState, Episode, PartitionRun } from '../../../src/analysis/transaction-join/types.js'

const LABELS = ['a-0', 'a-1', 'b-0']

/** mulberry32: the same cases on every run */
function prng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function state(
  s: string,
  pid: bigint,
  epoch: number,
  at: number,
  partitions: string[],
  opts: { start?: number; timeout?: number; version?: number } = {},
): CoordinatorState {
  return {
    state: s,
    producerId: pid,
    producerEpoch: epoch,
    timestamp: BigInt(at),
    startTimestamp: BigInt(opts.start ?? at),
    partitions,
    transactionTimeoutMs: opts.timeout ?? 60_000,
    clientTransactionVersion: opts.version ?? 0,
    file: 'state.log',
    position: at,
    offset: BigInt(at),
  }
}

interface Tx {
  pid: bigint
  epoch: number
  /** the marker epoch: epoch (TV1) or epoch + 1 (TV2) */
  end: number
  commit: boolean
  labels: string[]
  at: number
}

function episodeOf(t: Tx, opts: { timedOut?: boolean; noComplete?: boolean; version?: number }): Episode {
  const word = t.commit ? 'Commit' : 'Abort'
  const ongoing = state('Ongoing', t.pid, t.epoch, t.at, t.labels, { version: opts.version ?? 0 })
  const prepAt = opts.timedOut === true ? t.at + 120_000 : t.at + 4
  const prepare = state(`Prepare${word}`, t.pid, opts.timedOut === true ? t.epoch + 1 : t.end, prepAt, t.labels, {
    start: t.at,
    version: opts.version ?? 0,
  })
  const complete =
    opts.noComplete === true
      ? null
      : state(`Complete${word}`, t.pid, prepare.producerEpoch, prepAt + 2, t.labels, { version: opts.version ?? 0 })
  return {
    transactionalId: `id-${t.pid}`,
    states: complete === null ? [ongoing, prepare] : [ongoing, prepare, complete],
    producerId: t.pid,
    endEpoch: prepare.producerEpoch,
    partitions: new Set(t.labels),
    prepare,
    complete,
  }
}

function runOf(
  t: Tx,
  label: string,
  offset: number,
  type: 'COMMIT' | 'ABORT' | null,
  markerEpoch: number,
): PartitionRun {
  const [topic, p] = [label.slice(0, label.lastIndexOf('-')), Number(label.slice(label.lastIndexOf('-') + 1))]
  return {
    topic,
    partition: p,
    producerId: t.pid,
    producerEpoch: t.epoch,
    firstOffset: BigInt(offset),
    lastDataOffset: BigInt(offset),
    records: 1,
    marker:
      type === null
        ? null
        : {
            offset: BigInt(offset + 1),
            type,
            coordinatorEpoch: 0,
            epoch: markerEpoch,
            timestamp: BigInt(t.at + 5),
            file: `${label}.log`,
            position: offset + 1,
          },
    outcome: type === null ? 'open' : type === 'COMMIT' ? 'committed' : 'aborted',
    firstTimestamp: BigInt(t.at + 1),
    lastTimestamp: BigInt(t.at + 1),
    seeded: false,
    file: `${label}.log`,
    position: offset,
  }
}

/** a random bucket: its runs (each partition's in offset order) and episodes (in the order they began) */
function bucket(rnd: () => number, faithful: boolean): { runs: PartitionRun[]; episodes: Episode[] } {
  const pick = <T>(l: readonly T[]): T => l[Math.floor(rnd() * l.length)]!
  const txs: Tx[] = []
  let at = 1_000_000
  for (const pid of [7n, 8n].slice(0, 1 + Math.floor(rnd() * 2))) {
    const tv2 = rnd() < 0.5
    let epoch = Math.floor(rnd() * 3)
    for (let i = 0, n = 1 + Math.floor(rnd() * 4); i < n; i++) {
      const labels = LABELS.filter(() => rnd() < 0.6)
      if (labels.length === 0) labels.push(pick(LABELS))
      txs.push({ pid, epoch, end: tv2 ? epoch + 1 : epoch, commit: rnd() < 0.7, labels, at })
      at += 10_000
      if (tv2) epoch++
    }
  }
  const episodes: Episode[] = []
  const runs: PartitionRun[] = []
  const offsets = new Map<string, number>()
  const perLabel = new Map<string, PartitionRun[]>()
  for (const t of txs) {
    const twist = faithful ? 'none' : pick(['none', 'none', 'timeout', 'noComplete', 'v2', 'dropEpisode'])
    if (twist !== 'dropEpisode')
      episodes.push(
        episodeOf(t, {
          timedOut: twist === 'timeout' && !t.commit,
          noComplete: twist === 'noComplete',
          version: twist === 'v2' ? 2 : 0,
        }),
      )
    for (const l of t.labels) {
      const o = offsets.get(l) ?? 0
      offsets.set(l, o + 2)
      const r = runOf(t, l, o, t.commit ? 'COMMIT' : 'ABORT', t.end)
      const list = perLabel.get(l) ?? []
      list.push(r)
      perLabel.set(l, list)
    }
  }
  if (!faithful) {
    // near-misses in the markers: a type flipped, two runs swapped, one dropped, one left open, an epoch moved
    for (const l of perLabel.values()) {
      const kind = pick(['none', 'none', 'flip', 'swap', 'drop', 'open', 'epoch'])
      const i = Math.floor(rnd() * l.length)
      const r = l[i]!
      if (kind === 'flip' && r.marker !== null) r.marker.type = r.marker.type === 'COMMIT' ? 'ABORT' : 'COMMIT'
      else if (kind === 'swap' && l.length > 1) {
        const j = (i + 1) % l.length
        const [a, b] = [l[i]!, l[j]!]
        ;[a.marker, b.marker] = [b.marker, a.marker]
      } else if (kind === 'drop') l.splice(i, 1)
      else if (kind === 'open') r.marker = null
      else if (kind === 'epoch' && r.marker !== null) r.marker.epoch += 1
    }
  }
  for (const l of perLabel.values()) runs.push(...l)
  return { runs, episodes }
}

function judged(b: { runs: PartitionRun[]; episodes: Episode[] }): { quiet: boolean; findings: string[] } {
  const q = new QuietBuckets(1)
  // the collector's order: each partition's runs as its scan meets them, the episodes as they are cut
  for (const e of b.episodes) q.episode(0, e, b.episodes.indexOf(e))
  for (const r of b.runs)
    q.run(
      0,
      `${r.topic}-${r.partition}`,
      Number(r.producerId),
      r.producerEpoch,
      r.marker,
      r.marker?.epoch ?? null,
      r.records,
      r.seeded,
      r.damage !== undefined,
    )
  const joined = joinBucket(
    { runs: b.runs, episodes: b.episodes, idByProducer: new Map(), commits: new Map() },
    {
      scanned: new Set(LABELS),
      damaged: new Map(),
      groups: new GroupTimelines(),
      states: [],
      nowMs: 2_000_000_000_000,
      maxTransactionTimeoutMs: 15 * 60_000,
    },
  )
  return { quiet: q.quiet(0), findings: joined.flatMap((o) => o.t.findings.map((f) => f.code)) }
}

describe('quiet buckets: the join finds nothing in them', () => {
  it('2,000 random near-matching buckets: none told quiet has a finding', () => {
    const rnd = prng(20261207)
    let quiet = 0
    let loud = 0
    for (let i = 0; i < 2000; i++) {
      const b = bucket(rnd, false)
      const j = judged(b)
      if (j.quiet) {
        quiet++
        expect(j.findings, `case ${i}`).toEqual([])
      } else if (j.findings.length > 0) loud++
    }
    // both kinds were met
    expect(quiet).toBeGreaterThan(30)
    expect(loud).toBeGreaterThan(100)
  })

  it('every transaction as its coordinator wrote it: quiet', () => {
    const rnd = prng(7)
    for (let i = 0; i < 300; i++) {
      const j = judged(bucket(rnd, true))
      expect(j.findings, `case ${i}`).toEqual([])
      expect(j.quiet, `case ${i}`).toBe(true)
    }
  })

  it('the same markers in the other order (transaction version 1, one epoch): not quiet', () => {
    const t1: Tx = { pid: 9n, epoch: 3, end: 3, commit: true, labels: ['a-0'], at: 1000 }
    const t2: Tx = { ...t1, commit: false, at: 2000 }
    const episodes = [episodeOf(t1, {}), episodeOf(t2, {})]
    const inOrder = judged({ runs: [runOf(t1, 'a-0', 0, 'COMMIT', 3), runOf(t2, 'a-0', 2, 'ABORT', 3)], episodes })
    expect(inOrder).toEqual({ quiet: true, findings: [] })
    const swapped = judged({ runs: [runOf(t1, 'a-0', 0, 'ABORT', 3), runOf(t2, 'a-0', 2, 'COMMIT', 3)], episodes })
    expect(swapped.quiet).toBe(false)
    expect(swapped.findings).toContain('TXN_OUTCOME_CONTRADICTS')
  })
})
