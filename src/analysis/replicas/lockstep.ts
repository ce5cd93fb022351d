// The copies of one partition walked side by side (each copy read once, by its own partition scan), one batch of
// each at a time in offset order: a column holds the batches that start at one offset. Every fact the comparison
// needs is taken as the columns pass, before the leader and the divergence points are known (they need each copy's
// log end, known at the end): for each pair of copies the first batch one holds that the other does not hold as it
// is (replication copies batches unchanged, ReplicaFetcherThread), each copy's damaged batches and the copies that
// hold them intact, the epochs its batches carry, the records of a compacted partition, and what each copy holds
// from each offset that may be its divergence point (past-point.ts). Nothing else is kept per batch.
import type { EpochEntry, EpochList } from './epoch-rule.js'
import { truncationAgainst } from './epoch-rule.js'
import type { KeysOf, ListedRecords, PastPoint } from './past-point.js'
import { PastPointTally } from './past-point.js'
import type { RecordDigest } from './record-merge.js'
import { RecordMerge } from './record-merge.js'
import type { ReplicaBatch } from './replica-input.js'

/** a copy's batch at hand in the walk (its bytes are at hand until the walk moves on) */
export interface CopyCursor {
  readonly batch: ReplicaBatch
  /** its first records' offsets and keys (at most n + 1, see ListedRecords) */
  keys: (n: number) => ListedRecords
  /**
   * digests of its records below `below`, and the first `n + 1` records' offsets and keys read on the way; `unread`:
   * the batch could not be read whole for them (too large, damaged: the digests read before the damage stay)
   */
  digests: (below: bigint, n: number) => { records: RecordDigest[]; keys: ListedRecords | null; unread: boolean }
}

export interface CopyPlan {
  /** where the copy's log starts (LogLoader's rule); null: at its first batch */
  logStart: bigint | null
  highWatermark: bigint | null
  /** offsets that may be its divergence point, known before the walk (predictedPoints) */
  points: readonly bigint[]
  /** its epoch cache is taken from its batches (no usable leader-epoch-checkpoint): each epoch's start is a candidate point */
  epochsFromBatches: boolean
}

/** the first batch of a copy that another copy does not hold as it is */
export interface PairDiff {
  batch: ReplicaBatch
  /** the other copy's batch at the same base offset, if it has one */
  theirs: ReplicaBatch | null
  /**
   * the largest offset the walk up to this batch reached (the bases of every batch, the last offsets of those
   * compared): the difference is below a truncation point `to` when `reach < to`, as a walk stopping at `to` finds it
   */
  reach: bigint
}

export interface WalkedCopy {
  /** the cache Kafka would build from the batches' own epochs (cacheFromBatches) */
  batchEpochs: EpochEntry[]
  /** the first MAX_DAMAGED_KEPT batches whose stored CRC-32C does not match their bytes, and how many in all */
  damaged: ReplicaBatch[]
  damagedCount: number
  /** for each kept damaged batch, the copies (their indexes) that hold it intact: same offsets, a CRC that checks */
  intactOn: number[][]
  /** firstDiff[j]: this copy's first batch copy j does not hold as it is (null for j itself, or none) */
  firstDiff: Array<PairDiff | null>
  /** what the copy holds from each offset tallied */
  past: Map<bigint, PastPoint>
}

export interface Walked {
  copies: WalkedCopy[]
  records: RecordMerge | null
}

/** damaged batches kept per copy for the findings (the rest are counted) */
export const MAX_DAMAGED_KEPT = 10
/** candidate divergence points tallied per copy; a point the walk did not tally is read again (the fallback) */
const MAX_POINTS = 32
const MIN_OFFSET = -(2n ** 63n)
/** a log end not known yet: larger than any offset */
const UNKNOWN_END = 2n ** 63n - 1n

interface CopyState {
  plan: CopyPlan
  epochs: EpochEntry[]
  damaged: ReplicaBatch[]
  damagedCount: number
  intactOn: number[][]
  maxBase: bigint
  /** per other copy: the largest last offset compared, and the first difference */
  maxLast: bigint[]
  firstDiff: Array<PairDiff | null>
  tallies: PastPointTally[]
  last: ReplicaBatch | null
  lastKeys: ListedRecords | null
  /** a batch at or past the cleaned point was seen: no more records compared (compareCompacted's stop) */
  recordsDone: boolean
}

export class Lockstep {
  private readonly copies: CopyState[]
  private readonly merge: RecordMerge | null

  /** `cleanedTo`: the cleaner's point on any copy (compacted partitions), `listRecords`: records listed past a point */
  constructor(
    plans: readonly CopyPlan[],
    private readonly cleanedTo: bigint | null,
    private readonly listRecords: number,
  ) {
    this.merge = cleanedTo === null ? null : new RecordMerge(plans.length)
    this.copies = plans.map((plan) => ({
      plan,
      epochs: [],
      damaged: [],
      damagedCount: 0,
      intactOn: [],
      maxBase: MIN_OFFSET,
      maxLast: plans.map(() => MIN_OFFSET),
      firstDiff: plans.map(() => null),
      tallies: [],
      last: null,
      lastKeys: null,
      recordsDone: false,
    }))
    this.copies.forEach((c, i) => {
      for (const p of c.plan.points) this.addPoint(i, p)
    })
  }

  /** one column: `at[i]` is copy i's batch at this base offset, null when it has none here */
  column(at: ReadonlyArray<CopyCursor | null>): void {
    const x = at.find((c) => c !== null)?.batch.baseOffset
    if (x === undefined) return
    // every record below this column's base has come in from every copy
    this.merge?.compareUpTo(x - 1n, (i, j, o) => {
      this.addPoint(i, o)
      this.addPoint(j, o)
    })
    at.forEach((c, i) => {
      if (c !== null) this.epoch(i, c.batch)
    })
    at.forEach((c, i) => {
      if (c !== null) this.pairs(i, c.batch, at)
    })
    at.forEach((c, i) => {
      if (c !== null && c.batch.crcValid === false) this.damage(i, c.batch, at)
    })
    at.forEach((c, i) => {
      if (c !== null) this.tally(i, c)
    })
  }

  /** after the last column */
  finish(): Walked {
    this.merge?.compareUpTo(null, (i, j, o) => {
      this.addPoint(i, o)
      this.addPoint(j, o)
    })
    return {
      records: this.merge,
      copies: this.copies.map((c) => ({
        batchEpochs: c.epochs,
        damaged: c.damaged,
        damagedCount: c.damagedCount,
        intactOn: c.intactOn,
        firstDiff: c.firstDiff,
        past: new Map(c.tallies.filter((t) => !t.incomplete).map((t) => [t.point, t.result()])),
      })),
    }
  }

  /** LeaderEpochFileCache.assign as the batches are appended (cacheFromBatches); a new epoch's start is a candidate point */
  private epoch(i: number, b: ReplicaBatch): void {
    const c = this.copies[i]!
    if (b.partitionLeaderEpoch < 0) return
    const last = c.epochs[c.epochs.length - 1]
    if (last !== undefined && b.partitionLeaderEpoch <= last.epoch) return
    c.epochs.push({ epoch: b.partitionLeaderEpoch, startOffset: b.baseOffset })
    if (c.plan.epochsFromBatches)
      this.copies.forEach((_, k) => {
        this.addPoint(k, b.baseOffset)
      })
  }

  /** each other copy's batch at this base against this one (comparePartition's walk of a follower beside its leader) */
  private pairs(i: number, b: ReplicaBatch, at: ReadonlyArray<CopyCursor | null>): void {
    const c = this.copies[i]!
    if (b.baseOffset > c.maxBase) c.maxBase = b.baseOffset
    at.forEach((_, j) => {
      if (j === i || c.firstDiff[j] !== null) return
      const o = this.copies[j]!
      const mine = c.plan.logStart ?? MIN_OFFSET
      const theirStart = o.plan.logStart ?? MIN_OFFSET
      if (b.baseOffset < (mine > theirStart ? mine : theirStart)) return
      // each broker's cleaner rewrites its own batches below its cleaned point: bytes may differ there
      if (this.cleanedTo !== null && b.baseOffset < this.cleanedTo) return
      if (b.lastOffset > c.maxLast[j]!) c.maxLast[j] = b.lastOffset
      const t = at[j]?.batch ?? null
      if (
        t !== null &&
        t.lastOffset === b.lastOffset &&
        t.crc === b.crc &&
        t.partitionLeaderEpoch === b.partitionLeaderEpoch
      )
        return
      c.firstDiff[j] = { batch: b, theirs: t, reach: c.maxBase > c.maxLast[j]! ? c.maxBase : c.maxLast[j]! }
      this.addPoint(i, b.baseOffset)
    })
  }

  private damage(i: number, b: ReplicaBatch, at: ReadonlyArray<CopyCursor | null>): void {
    const c = this.copies[i]!
    if (c.damagedCount++ >= MAX_DAMAGED_KEPT) return
    c.damaged.push(b)
    const intact: number[] = []
    at.forEach((o, j) => {
      const t = o?.batch
      if (
        j !== i &&
        t !== undefined &&
        t.baseOffset === b.baseOffset &&
        t.lastOffset === b.lastOffset &&
        t.crcValid === true
      )
        intact.push(j)
    })
    c.intactOn.push(intact)
  }

  /** the batch into the tallies of the points it reaches, and its records into the comparison below the cleaned point */
  private tally(i: number, cur: CopyCursor): void {
    const c = this.copies[i]!
    const b = cur.batch
    let keys: ListedRecords | null = null
    if (this.merge !== null && this.cleanedTo !== null && !c.recordsDone) {
      if (b.baseOffset >= this.cleanedTo) c.recordsDone = true
      else if (!b.isControl) {
        const d = cur.digests(this.cleanedTo, this.listRecords)
        this.merge.add(i, d.records, d.unread)
        keys = d.keys
      }
    }
    const keysOf: KeysOf = keys !== null ? (n) => listedUpTo(keys, n) : (n) => cur.keys(n)
    for (const t of c.tallies) {
      if (!t.active && b.lastOffset >= t.point) t.active = true
      if (t.active) t.add(b, keysOf)
    }
    c.last = b
    c.lastKeys = keys
  }

  /**
   * Tally copy i from `point` on. A batch already passed that reaches the point is added first (a record of a compacted
   * partition is compared once every copy is past it); its keys are at hand only when its records were read.
   */
  private addPoint(i: number, point: bigint): void {
    const c = this.copies[i]!
    if (c.tallies.length >= MAX_POINTS || c.tallies.some((t) => t.point === point)) return
    const t = new PastPointTally(point, c.plan.highWatermark, this.listRecords)
    if (c.last !== null && c.last.lastOffset >= point) {
      t.active = true
      const keys = c.lastKeys
      t.add(c.last, keys !== null ? (n) => listedUpTo(keys, n) : null)
    }
    c.tallies.push(t)
  }
}

/** the listing's reading of a batch with budget n, from a reading with a larger budget */
function listedUpTo(l: ListedRecords, n: number): ListedRecords {
  if (l.records.length <= n + 1) return l
  return { records: l.records.slice(0, n + 1), problem: null }
}

/**
 * The offsets where a copy may diverge, from what is known before the walk: its high watermark (where a follower
 * truncates when the leader cannot answer), and the truncation the epoch rule gives against each other copy whose
 * leader-epoch-checkpoint is usable, with log ends not known yet (the rule then caps the point at the log end:
 * truncationAgainst). A copy whose epochs come from its batches adds its points as the walk finds them; with one,
 * the others' own checkpoint entries are candidates too (the newest first).
 */
export function predictedPoints(
  copies: ReadonlyArray<{ cache: EpochList | null; highWatermark: bigint | null }>,
): bigint[][] {
  const fromBatches = copies.some((c) => c.cache === null)
  return copies.map((f, i) => {
    const out: bigint[] = []
    if (f.highWatermark !== null) out.push(f.highWatermark)
    copies.forEach((l, j) => {
      if (j === i || f.cache === null || l.cache === null) return
      const t = truncationAgainst(
        { cache: f.cache, logEndOffset: UNKNOWN_END, highWatermark: f.highWatermark ?? UNKNOWN_END },
        { cache: l.cache, logEndOffset: UNKNOWN_END, highWatermark: l.highWatermark ?? UNKNOWN_END },
      )
      if (t.offset < UNKNOWN_END) out.push(t.offset)
    })
    if (fromBatches && f.cache !== null)
      for (let k = f.cache.length - 1; k >= 0 && k >= f.cache.length - 8; k--) out.push(f.cache.at(k)!.startOffset)
    return out
  })
}
