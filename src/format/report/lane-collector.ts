// The lane of one partition for `tsdump report`, collected while PartitionAnalyzer streams (a RunSink):
// every run as an item while there are at most `maxItems`, and always a bucketed summary over offsets
// whose bucket width doubles whenever more than `maxBuckets` would be needed. Memory is bounded by the
// two limits, not by the number of batches or transactions (a 1 GiB segment holds millions).
import type { I64 } from '../../bytes/int64.js'
import type { RunSink, StreamedTransaction } from '../../analysis/run-sink.js'
import type { BatchFacts } from '../../analysis/batch-facts.js'
import type { Bucket, Int64, LaneItem, PlainBar, TxnBar } from './model.js'
import { jsonInt64 } from '../txn-json.js'

export interface LaneLimits {
  /** items kept one by one before the lane is drawn from buckets only */
  maxItems: number
  /** buckets of the aggregated lane (the width doubles to stay within) */
  maxBuckets: number
}

/** the last ended transactions, to give an open-looking `awaiting-high-watermark` one its outcome */
const RECENT = 64

function int64(v: I64): Int64 {
  return typeof v === 'bigint' ? jsonInt64(v) : v
}
function int64OrNull(v: I64 | null): Int64 | null {
  return v === null ? null : int64(v)
}
/** a timestamp that can be drawn (Kafka writes -1 for "none") */
function drawable(v: I64 | null): number | null {
  return v === null || v < 0 ? null : Number(v)
}

function emptyBucket(): Bucket {
  return {
    firstOffset: Infinity,
    lastOffset: -Infinity,
    minTimestamp: null,
    maxTimestamp: null,
    committed: 0,
    aborted: 0,
    committedRecords: 0,
    abortedRecords: 0,
    plainRecords: 0,
    commitMarkers: 0,
    abortMarkers: 0,
    otherControl: 0,
  }
}

function minOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b)
}
function maxOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.max(a, b)
}

function mergeInto(a: Bucket, b: Bucket): void {
  a.firstOffset = Math.min(a.firstOffset, b.firstOffset)
  a.lastOffset = Math.max(a.lastOffset, b.lastOffset)
  a.minTimestamp = minOf(a.minTimestamp, b.minTimestamp)
  a.maxTimestamp = maxOf(a.maxTimestamp, b.maxTimestamp)
  a.committed += b.committed
  a.aborted += b.aborted
  a.committedRecords += b.committedRecords
  a.abortedRecords += b.abortedRecords
  a.plainRecords += b.plainRecords
  a.commitMarkers += b.commitMarkers
  a.abortMarkers += b.abortMarkers
  a.otherControl += b.otherControl
}

export function txnBar(t: StreamedTransaction): TxnBar {
  return {
    kind: 'txn',
    producerId: int64(t.producerId),
    producerEpoch: t.producerEpoch,
    firstOffset: int64(t.firstOffset),
    lastDataOffset: int64OrNull(t.lastDataOffset),
    records: t.records,
    batches: t.batches,
    firstTimestamp: int64OrNull(t.firstTimestamp),
    lastTimestamp: int64OrNull(t.lastTimestamp),
    outcome: t.outcome,
    marker:
      t.marker === null
        ? null
        : {
            offset: int64(t.marker.offset),
            type: t.marker.type,
            producerEpoch: t.markerEpoch ?? t.producerEpoch,
            coordinatorEpoch: t.coordinatorEpoch,
          },
    coordinatorEpoch: t.coordinatorEpoch,
    empty: t.empty,
    seeded: t.seeded,
  }
}

export class LaneCollector implements RunSink {
  private items: LaneItem[] | null = []
  private buckets: Bucket[] = []
  private width = 1
  private origin: number | null = null
  /** the plain run being extended, with its last offset as a number */
  private plain: { bar: PlainBar; last: number } | null = null
  /** ring of the last RECENT ended transactions (the analyzer's objects; converted only when asked for) */
  private readonly recent: StreamedTransaction[] = []
  private recentAt = 0

  constructor(private readonly limits: LaneLimits) {}

  private bucket(offset: number): Bucket {
    if (this.origin === null) this.origin = offset
    let i = Math.floor((Math.max(offset, this.origin) - this.origin) / this.width)
    while (i >= this.limits.maxBuckets) {
      // halve the resolution: bucket j takes 2j and 2j+1
      const merged: Bucket[] = []
      for (let j = 0; j < this.buckets.length; j += 2) {
        const a = this.buckets[j] ?? emptyBucket()
        const b = this.buckets[j + 1]
        if (b !== undefined) mergeInto(a, b)
        merged.push(a)
      }
      this.buckets = merged
      this.width *= 2
      i = Math.floor(i / 2)
    }
    while (this.buckets.length <= i) this.buckets.push(emptyBucket())
    return this.buckets[i]!
  }

  private touch(b: Bucket, first: number, last: number, t0: number | null, t1: number | null): void {
    if (first < b.firstOffset) b.firstOffset = first
    if (last > b.lastOffset) b.lastOffset = last
    b.minTimestamp = minOf(b.minTimestamp, t0)
    b.maxTimestamp = maxOf(b.maxTimestamp, t1)
  }

  private push(it: LaneItem): void {
    if (this.items === null) return
    if (this.items.length >= this.limits.maxItems) {
      this.items = null
      return
    }
    this.items.push(it)
  }

  plainBatch(b: BatchFacts): void {
    const first = Number(b.baseOffset)
    const last = Number(b.lastOffset)
    const t0 = drawable(b.baseTimestamp)
    const t1 = drawable(b.maxTimestamp)
    const bk = this.bucket(first)
    bk.plainRecords += b.recordsCount
    this.touch(bk, first, last, t0, t1)
    if (this.items === null) return
    const p = this.plain
    // one run: the same producer session, and no other batch in between (its offsets follow on)
    if (
      p !== null &&
      p.last + 1 === first &&
      p.bar.producerId === int64(b.producerId) &&
      p.bar.producerEpoch === b.producerEpoch
    ) {
      p.bar.lastOffset = int64(b.lastOffset)
      p.bar.records += b.recordsCount
      p.bar.batches++
      p.last = last
      if (t1 !== null) p.bar.lastTimestamp = Math.max(t1, Number(p.bar.lastTimestamp ?? t1))
      return
    }
    const bar: PlainBar = {
      kind: 'plain',
      producerId: int64(b.producerId),
      producerEpoch: b.producerEpoch,
      firstOffset: int64(b.baseOffset),
      lastOffset: int64(b.lastOffset),
      records: b.recordsCount,
      batches: 1,
      firstTimestamp: t0,
      lastTimestamp: t1,
    }
    this.plain = { bar, last }
    this.push(bar)
  }

  controlBatch(b: BatchFacts, typeName: string): void {
    this.plain = null
    const at = Number(b.baseOffset)
    const bk = this.bucket(at)
    bk.otherControl++
    this.touch(bk, at, Number(b.lastOffset), drawable(b.maxTimestamp), drawable(b.maxTimestamp))
    this.push({
      kind: 'control',
      offset: int64(b.baseOffset),
      typeName,
      producerId: int64(b.producerId),
      timestamp: drawable(b.maxTimestamp),
    })
  }

  transactionEnded(t: StreamedTransaction): void {
    this.plain = null
    const marker = Number(t.marker!.offset)
    const mb = this.bucket(marker)
    if (t.marker!.type === 'COMMIT') mb.commitMarkers++
    else mb.abortMarkers++
    this.touch(mb, marker, marker, drawable(t.lastTimestamp), drawable(t.lastTimestamp))
    if (!t.empty) {
      const first = Number(t.firstOffset)
      const fb = this.bucket(first)
      if (t.marker!.type === 'COMMIT') {
        fb.committed++
        fb.committedRecords += t.records
      } else {
        fb.aborted++
        fb.abortedRecords += t.records
      }
      this.touch(
        fb,
        first,
        Number(t.lastDataOffset ?? t.firstOffset),
        drawable(t.firstTimestamp),
        drawable(t.lastTimestamp),
      )
    }
    this.recent[this.recentAt] = t
    this.recentAt = (this.recentAt + 1) % RECENT
    if (this.items !== null) this.push(txnBar(t))
  }

  /** an ended transaction among the most recent ones, by producer and first offset */
  recentlyEnded(producerId: Int64, firstOffset: Int64): TxnBar | undefined {
    const t = this.recent.find((x) => int64(x.producerId) === producerId && int64(x.firstOffset) === firstOffset)
    return t === undefined ? undefined : txnBar(t)
  }

  itemCount(): number {
    return this.items?.length ?? 0
  }

  aggregated(): boolean {
    return this.items === null
  }

  /** drop the items: the lane is drawn from its buckets (when the report as a whole holds too many) */
  aggregate(): void {
    this.items = null
  }

  /** the items in offset order, or null when aggregated (then at most `maxBuckets` buckets) */
  lane(maxBuckets = this.limits.maxBuckets): { items: LaneItem[] | null; buckets: Bucket[] | null } {
    const items = this.sortedItems()
    return items !== null ? { items, buckets: null } : { items: null, buckets: this.bucketsUpTo(maxBuckets) }
  }

  /** the items in offset order, null once more than `maxItems` came or the lane was aggregated */
  sortedItems(): LaneItem[] | null {
    if (this.items === null) return null
    const key = (it: LaneItem): number =>
      Number(it.kind === 'control' ? it.offset : it.kind === 'txn' && it.empty ? it.marker?.offset : it.firstOffset)
    return [...this.items].sort((a, b) => key(a) - key(b))
  }

  /** the buckets that hold something, at most `maxBuckets` (the aggregated lane) */
  bucketsUpTo(maxBuckets: number): Bucket[] {
    return mergedDown(
      this.buckets.filter((b) => b.lastOffset >= b.firstOffset),
      maxBuckets,
    )
  }
}

/**
 * Neighbouring buckets merged in pairs until at most `maxBuckets` are left (the buckets are not changed). Merged in
 * two steps (to 400, later to 50) the pairs are those of one step: each halving pairs the list it is given.
 */
export function mergedDown(buckets: Bucket[], maxBuckets: number): Bucket[] {
  let out = buckets
  while (out.length > Math.max(1, maxBuckets)) {
    const merged: Bucket[] = []
    for (let j = 0; j < out.length; j += 2) {
      const a = { ...out[j]! }
      const b = out[j + 1]
      if (b !== undefined) mergeInto(a, b)
      merged.push(a)
    }
    out = merged
  }
  return out
}

/**
 * The page's budget over its lanes: the lanes with the most items aggregated first (ties in the order given) until
 * the rest hold at most `maxItems`, then `maxBuckets` shared by the aggregated lanes (at least 25 each, at most a
 * lane's own `laneMaxBuckets`). `counts[i]` is lane i's item count, `given[i]` whether it is aggregated already (its
 * collector gave its items up); returns whether each lane is aggregated and the buckets each aggregated lane draws.
 */
export function pageBudget(
  counts: readonly number[],
  given: readonly boolean[],
  maxItems: number,
  maxBuckets: number,
  laneMaxBuckets: number,
): { aggregated: boolean[]; perLane: number } {
  const aggregated = [...given]
  let total = counts.reduce((a, n) => a + n, 0)
  const order = counts.map((_, i) => i).sort((a, b) => counts[b]! - counts[a]! || a - b)
  for (const i of order) {
    if (total <= maxItems) break
    total -= counts[i]!
    aggregated[i] = true
  }
  const n = aggregated.filter((a) => a).length
  return { aggregated, perLane: Math.min(laneMaxBuckets, Math.max(25, Math.floor(maxBuckets / Math.max(1, n)))) }
}
