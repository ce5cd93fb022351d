// transactions' join one join key at a time (join.ts keyGroups / joinKeyGroup, transaction-buckets.ts takeGroups,
// joined-runs.ts joinShare) gives what the join of whole shares gave: the oracle is integ's join kept whole in
// test/support/old-join.ts, run as integ ran it (each share of each bucket read into objects, joined, completed,
// sorted, merged). Inputs: producers of transaction version 1 and 2 with several epochs, committed, aborted, open
// and hanging transactions, coordinator episodes complete, prepared, ongoing or missing, partitions listed and not,
// markers far apart in time, damage, offset commits, the partitions' runs read in any order.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { BucketContext, Ordered } from '../../src/analysis/transaction-join/bucket-join.js'
import { joinBucket } from '../../src/analysis/transaction-join/bucket-join.js'
import { GroupTimelines } from '../../src/analysis/transaction-join/group-positions.js'
import type {
  CoordinatorState,
  Episode,
  JoinedTransaction,
  OffsetCommitRecord,
  PartitionRun,
} from '../../src/analysis/transaction-join/types.js'
import { FileTable } from '../../src/analysis/transaction-join/wire.js'
import { outcomeOf } from '../../src/analysis/partition-transaction.js'
import { SpillDir } from '../../src/io/spill.js'
import { JoinedRuns } from '../../src/scan/joined-runs.js'
import type { Item } from '../../src/scan/transaction-buckets.js'
import { Buckets } from '../../src/scan/transaction-buckets.js'
import { oldJoinBucket } from '../support/old-join.js'

const T0 = 1_700_000_000_000
const LABELS = ['t-0', 't-1', 't-2', '__consumer_offsets-0'] as const
const PIDS = [5000n, 5001n, 5002n, 2n ** 60n + 3n]

interface TxPlan {
  /** which of LABELS it writes (bits) and which the coordinator lists (bits; -1: those it writes, both histories complete) */
  writes: number
  lists: number
  outcome: 'COMMIT' | 'ABORT'
  /** its marker missing in these partitions (bits): open there, or hanging */
  unmarked: number
  coordinator: 'complete' | 'prepare' | 'ongoing' | 'none'
  /** ms after the previous transaction's start; its markers this many ms after its start */
  gap: number
  markerLag: number[]
  fence: boolean
  damaged: boolean
}
interface ProducerPlan {
  tv2: boolean
  hasId: boolean
  epoch: number
  txs: TxPlan[]
}

const txPlan = fc.record({
  writes: fc.integer({ min: 0, max: 15 }),
  lists: fc.oneof({ weight: 3, arbitrary: fc.constant(-1) }, { weight: 1, arbitrary: fc.integer({ min: 0, max: 15 }) }),
  outcome: fc.constantFrom('COMMIT' as const, 'ABORT' as const),
  unmarked: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 15 }) },
  ),
  coordinator: fc.constantFrom(
    'complete' as const,
    'complete' as const,
    'prepare' as const,
    'ongoing' as const,
    'none' as const,
  ),
  gap: fc.integer({ min: 0, max: 4000 }),
  markerLag: fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 4, maxLength: 4 }),
  fence: fc.boolean(),
  damaged: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
})
const producerPlan = fc.record({
  tv2: fc.boolean(),
  hasId: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  epoch: fc.integer({ min: 0, max: 3 }),
  txs: fc.array(txPlan, { minLength: 0, maxLength: 7 }),
})

interface Input {
  items: Item[]
  scanned: Set<string>
}

const state = (
  s: string,
  pid: bigint,
  epoch: number,
  at: number,
  start: number,
  partitions: string[],
  offset: number,
  tv2: boolean,
): CoordinatorState => ({
  state: s,
  producerId: pid,
  producerEpoch: epoch,
  timestamp: BigInt(at),
  startTimestamp: BigInt(start),
  partitions,
  transactionTimeoutMs: 60_000,
  clientTransactionVersion: tv2 ? 2 : 0,
  file: '__transaction_state-0/00000000000000000000.log',
  position: offset * 100,
  offset: BigInt(offset),
})

/** the runs, episodes, ids and commits a plan's producers leave, the runs of each partition in offset order, the partitions read in `order` */
function inputOf(plans: ProducerPlan[], order: number[], notScanned: number): Input {
  const offsets = [0, 0, 0, 0]
  const perLabel: PartitionRun[][] = [[], [], [], []]
  const commits: Array<[string, OffsetCommitRecord]> = []
  const episodes: Episode[] = []
  const ids: Array<[bigint, string]> = []
  let stateOffset = 0
  // every producer's transactions interleaved by start time, so that offsets follow time in each partition
  const starts: Array<{ p: number; i: number; at: number }> = []
  plans.forEach((pl, p) => {
    let at = T0 + p * 700
    pl.txs.forEach((tp, i) => {
      at += tp.gap
      starts.push({ p, i, at })
    })
  })
  starts.sort((a, b) => a.at - b.at || a.p - b.p || a.i - b.i)
  const epochs = plans.map((pl) => pl.epoch)
  const open = plans.map(() => false)
  for (const { p, i, at } of starts) {
    const pl = plans[p]!
    const tp = pl.txs[i]!
    const pid = PIDS[p]!
    const id = `app-${p}`
    if (pl.hasId && i === 0) ids.push([pid, id])
    if (tp.fence && !pl.tv2) epochs[p]!++
    const epoch = epochs[p]!
    const markerEpoch = pl.tv2 ? epoch + 1 : epoch
    const lists = tp.lists < 0 ? tp.writes : tp.lists
    const listed = LABELS.filter((_, k) => (lists >> k) & 1)
    for (let k = 0; k < 4; k++) {
      if (!((tp.writes >> k) & 1)) continue
      const label = LABELS[k]!
      const [topic, part] = [label.slice(0, label.lastIndexOf('-')), Number(label.slice(label.lastIndexOf('-') + 1))]
      const first = offsets[k]!
      const records = 1 + ((tp.gap + k) % 3)
      offsets[k]! += records
      const marked = !((tp.unmarked >> k) & 1) && !open[p]
      const mAt = at + tp.markerLag[k]!
      const run: PartitionRun = {
        topic,
        partition: part,
        producerId: pid,
        producerEpoch: epoch,
        firstOffset: BigInt(first),
        lastDataOffset: BigInt(first + records - 1),
        records,
        firstTimestamp: BigInt(at + k),
        lastTimestamp: BigInt(at + k + 5),
        marker: marked
          ? {
              offset: BigInt(offsets[k]!++),
              type: tp.outcome,
              coordinatorEpoch: 0,
              epoch: markerEpoch,
              timestamp: BigInt(mAt),
              file: `${label}/0.log`,
              position: offsets[k]! * 70,
            }
          : null,
        seeded: false,
        file: `${label}/0.log`,
        position: first * 70,
        outcome: 'open',
      }
      if (tp.damaged && k === 1) run.damage = { file: `${label}/0.log`, position: first * 70 + 3 }
      run.outcome = outcomeOf(run.marker?.type ?? null, run.damage)
      perLabel[k]!.push(run)
      if (label.startsWith('__consumer_offsets'))
        commits.push([
          label,
          {
            recordOffset: BigInt(first),
            producerId: pid,
            producerEpoch: epoch,
            transactional: true,
            group: 'g',
            topic: 'in',
            partition: p,
            offset: BigInt(i * 10),
            metadata: null,
            timestamp: BigInt(at),
            file: `${label}/0.log`,
            position: first * 70,
          },
        ])
    }
    // a producer whose markers are missing everywhere stays open: its later transactions' data has no marker either
    if (tp.unmarked === 15 && tp.writes !== 0) open[p] = true
    if (pl.hasId && tp.coordinator !== 'none') {
      const states: CoordinatorState[] = [state('Ongoing', pid, epoch, at, at, listed, stateOffset++, pl.tv2)]
      const done = tp.outcome === 'COMMIT' ? 'Commit' : 'Abort'
      if (tp.coordinator !== 'ongoing')
        states.push(state(`Prepare${done}`, pid, markerEpoch, at + 400, at, listed, stateOffset++, pl.tv2))
      if (tp.coordinator === 'complete')
        states.push(state(`Complete${done}`, pid, markerEpoch, at + 3500, at, listed, stateOffset++, pl.tv2))
      const prepare = states.find((s) => s.state.startsWith('Prepare')) ?? null
      const complete = states.find((s) => s.state.startsWith('Complete')) ?? null
      episodes.push({
        transactionalId: id,
        states,
        producerId: pid,
        endEpoch: prepare?.producerEpoch ?? (complete ?? states.at(-1)!).producerEpoch,
        partitions: new Set(listed),
        prepare,
        complete,
      })
    }
    if (pl.tv2) epochs[p]!++
  }
  const items: Item[] = []
  for (const [pid, id] of ids) items.push(['i', pid, id])
  episodes.forEach((e, seq) => items.push(['e', seq, e]))
  for (const [label, c] of commits) items.push(['c', label, c])
  // the partitions read in the order given, each one's runs in offset order
  for (const k of order) for (const r of perLabel[k]!) items.push(['r', r])
  const scanned = new Set<string>(LABELS.filter((_, k) => k !== notScanned))
  return { items, scanned }
}

function ctxOf(scanned: Set<string>): BucketContext {
  return {
    scanned,
    damaged: new Map([['t-1', { file: 't-1/0.log', position: 3 }]]),
    groups: new GroupTimelines(),
    states: [],
    nowMs: T0 + 3_600_000,
    maxTransactionTimeoutMs: 15 * 60_000,
  }
}

function bucketsOf(
  items: readonly Item[],
  n: number,
  shareBytes: number,
): { b: Buckets; spill: SpillDir; files: FileTable } {
  const spill = new SpillDir('tsdump-join-keys-', n)
  const files = new FileTable()
  const b = new Buckets(n, spill, files)
  b.shareBytes = shareBytes
  for (const it of items)
    b.put(
      it[0] === 'r' ? it[1].producerId : it[0] === 'e' ? it[2].producerId : it[0] === 'i' ? it[1] : it[2].producerId,
      it,
    )
  b.flush()
  return { b, spill, files }
}

/** integ's pipeline: each share read whole, joined by the old join, sorted, the shares and buckets merged */
function oldPipeline(inp: Input, n: number, shareBytes: number): JoinedTransaction[] {
  const { b, spill, files } = bucketsOf(inp.items, n, shareBytes)
  try {
    const ctx = ctxOf(inp.scanned)
    const runs = new JoinedRuns(spill, files)
    for (let k = 0; k < n; k++) {
      for (const input of b.take(k)) runs.addShare(oldJoinBucket(input, ctx))
      runs.endBucket()
    }
    return [...runs.merged()]
  } finally {
    spill.close()
  }
}

/** this build's: each share joined one join key at a time */
function newPipeline(inp: Input, n: number, shareBytes: number): { all: JoinedTransaction[]; kept: Ordered[] } {
  const { b, spill, files } = bucketsOf(inp.items, n, shareBytes)
  try {
    const ctx = ctxOf(inp.scanned)
    const runs = new JoinedRuns(spill, files)
    const kept: Ordered[] = []
    for (let k = 0; k < n; k++) {
      for (const share of b.takeGroups(k)) runs.joinShare(share, ctx, (o) => kept.push(o))
      runs.endBucket()
    }
    return { all: [...runs.merged()], kept }
  } finally {
    spill.close()
  }
}

/** the items as the in-memory bucket holds them, each object its own (the join fills them in) */
function inMemory(items: readonly Item[]): Parameters<typeof joinBucket>[0] {
  const copy = structuredClone(items)
  const runs: PartitionRun[] = []
  const episodes: Episode[] = []
  const idByProducer = new Map<bigint, string>()
  const commits = new Map<string, OffsetCommitRecord[]>()
  for (const it of copy) {
    if (it[0] === 'r') runs.push(it[1])
    else if (it[0] === 'e') episodes.push(it[2])
    else if (it[0] === 'i') idByProducer.set(it[1], it[2])
    else commits.set(it[1], [...(commits.get(it[1]) ?? []), it[2]])
  }
  return { runs, episodes, idByProducer, commits }
}

const arbInput = fc.record({
  plans: fc.array(producerPlan, { minLength: 1, maxLength: 4 }),
  order: fc.shuffledSubarray([0, 1, 2, 3], { minLength: 4, maxLength: 4 }),
  notScanned: fc.integer({ min: -1, max: 3 }),
  n: fc.integer({ min: 1, max: 3 }),
  shareBytes: fc.constantFrom(64, 512, 4096, 1 << 20),
})

describe('the join by key = the join of whole shares (integ)', () => {
  it('on generated producers, episodes, runs and commits, through the temp files', () => {
    fc.assert(
      fc.property(arbInput, ({ plans, order, notScanned, n, shareBytes }) => {
        const inp = inputOf(plans, order, notScanned)
        const before = oldPipeline(inp, n, shareBytes)
        const { all, kept } = newPipeline(inp, n, shareBytes)
        expect(all).toEqual(before)
        expect(kept).toHaveLength(before.length)
      }),
      { numRuns: 300 },
    )
  })

  it('on the same inputs in memory (joinBucket)', () => {
    fc.assert(
      fc.property(arbInput, ({ plans, order, notScanned }) => {
        const inp = inputOf(plans, order, notScanned)
        const before = oldJoinBucket(inMemory(inp.items), ctxOf(inp.scanned))
        const after = joinBucket(inMemory(inp.items), ctxOf(inp.scanned))
        expect(after).toEqual(before)
      }),
      { numRuns: 300 },
    )
  })

  it('the generated inputs reach every way of joining and every outcome', () => {
    const seen = new Set<string>()
    for (const x of fc.sample(arbInput, 200)) {
      for (const t of oldPipeline(inputOf(x.plans, x.order, x.notScanned), 1, 1 << 20)) {
        seen.add(`by:${t.joinedBy}`)
        seen.add(`outcome:${t.outcome}`)
        seen.add(`version:${t.transactionVersion}`)
        for (const f of t.findings) seen.add(f.code)
      }
    }
    for (const k of [
      'by:producer-epoch',
      'by:coordinator',
      'by:coordinator-timestamps',
      'by:marker-timestamps',
      'outcome:committed',
      'outcome:aborted',
      'outcome:open',
      'outcome:unknown',
      'version:TV1',
      'version:TV2',
      'TXN_JOIN_AMBIGUOUS',
      'TXN_PARTITION_NO_MARKER',
      'TXN_UNLISTED_PARTITION',
      'TXN_HANGING',
    ])
      expect(seen, k).toContain(k)
  })
})
