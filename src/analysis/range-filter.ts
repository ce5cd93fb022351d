// The filters of dump, txns and reconcile (--start-offset/--end-offset, --from-time/--to-time,
// --producer-id, --transactional-id once resolved to producer ids): which batches, and inside them which
// records, are in range. Pure and stateful per partition: time bounds depend on the order batches come in.
//
// Offsets: [startOffset, endOffset], both inclusive, as tsdump and kafka-dump-log print ranges (`0..15`,
// baseOffset..lastOffset). A batch is in when it overlaps; with records decoded, only the records inside.
//
// Times are turned into places in the log the way Kafka's ListOffsets turns a timestamp into an offset:
// the range starts at the first batch whose maxTimestamp >= fromTime (where ListOffsets(fromTime) lands;
// from there on, every batch is in, whatever its timestamp: a consumer that seeks by time sees them too) and
// ends at the first batch after that whose maxTimestamp > toTime: that batch is in when its first timestamp
// (baseTimestamp) is <= toTime, and nothing after it is. Producers' clocks differ, so a later batch with an
// earlier timestamp is not looked for: reading stops there. With records decoded, the first batch shows its
// records from the first one whose timestamp >= fromTime, the last one its records up to the first whose
// timestamp > toTime (ListOffsets(toTime + 1), exclusive), as kcat's `-o s@T` / `-o e@T` do.
import type { I64 } from '../bytes/int64.js'
import type { TimelineRun } from './timeline.js'

export interface RangeSpec {
  startOffset?: bigint
  endOffset?: bigint
  /** epoch ms */
  fromTime?: number
  toTime?: number
  /** --producer-id, or the producer ids a --transactional-id resolved to */
  producerIds?: readonly bigint[]
  /** the --transactional-id given (producerIds holds what it resolved to) */
  transactionalId?: string
}

/** What a filtered scan let in: the offsets of the first and last batch in range (null: none) and how many. */
export interface RangeCounted {
  firstOffset: bigint | null
  lastOffset: bigint | null
  batches: number
}

/** 'out': not in range, read on; 'in': in range; 'stop': this and every later batch of the partition are out */
export type RangeVerdict = 'out' | 'in' | 'stop'

/** What a batch header says, as the filter needs it (BatchFacts and BatchHeader both have these). */
export interface RangeBatch {
  baseOffset: I64
  lastOffset: I64
  producerId: I64
  baseTimestamp: I64
  maxTimestamp: I64
}

export class RangeFilter {
  /** time: 'before' the first batch at or after fromTime, 'in' the range, 'after' its last batch */
  private time: 'before' | 'in' | 'after'
  private producers: ReadonlySet<bigint> | null
  /** the last batch the filter let in: which of its records are in (record()) */
  private startBatch = false
  private stopBatch = false
  private started = false
  private ended = false
  private cutByOffsets = false
  /** offsets of the batches let in, for the output's statement of what was counted */
  firstOffset: I64 | null = null
  lastOffset: I64 | null = null
  batches = 0

  constructor(readonly spec: RangeSpec) {
    this.time = spec.fromTime === undefined ? 'in' : 'before'
    this.producers = spec.producerIds === undefined ? null : new Set(spec.producerIds)
  }

  /**
   * From the next batch, only `producerIds`' batches are in: export's read of a __transaction_state partition learns
   * --transactional-id's producer ids only after its batches without one, which no producer filter lets in
   */
  admitOnly(producerIds: readonly bigint[]): void {
    this.producers = new Set(producerIds)
  }

  /** nothing after the batch seen last can be in range: the caller stops reading the partition */
  get done(): boolean {
    return this.time === 'after'
  }

  batch(b: RangeBatch): RangeVerdict {
    this.startBatch = false
    this.stopBatch = false
    const s = this.spec
    if (this.time === 'after') return 'stop'
    if (s.endOffset !== undefined && b.baseOffset > s.endOffset) {
      this.time = 'after'
      return 'stop'
    }
    if (this.time === 'before') {
      if (b.maxTimestamp < s.fromTime!) return 'out'
      this.time = 'in'
      this.startBatch = true
    }
    if (s.toTime !== undefined && b.maxTimestamp > s.toTime) {
      this.time = 'after'
      if (b.baseTimestamp > s.toTime) return 'stop'
      this.stopBatch = true
    }
    if (s.startOffset !== undefined && b.lastOffset < s.startOffset) return 'out'
    if (this.producers !== null && !this.producers.has(BigInt(b.producerId))) return 'out'
    this.cutByOffsets =
      (s.startOffset !== undefined && b.baseOffset < s.startOffset) ||
      (s.endOffset !== undefined && b.lastOffset > s.endOffset)
    this.started = false
    this.ended = false
    if (this.firstOffset === null) this.firstOffset = b.baseOffset
    this.lastOffset = b.lastOffset
    this.batches++
    return 'in'
  }

  /** the batch let in last has records outside the range: a record-level filter must look at each (record()) */
  get partial(): boolean {
    return this.cutByOffsets || this.startBatch || this.stopBatch
  }

  /** one record of the batch let in last, in order: in range? */
  record(offset: bigint, timestamp: bigint): boolean {
    const s = this.spec
    if (this.startBatch && !this.started) {
      if (timestamp < s.fromTime!) return false
      this.started = true
    }
    if (this.stopBatch && (this.ended || timestamp > s.toTime!)) {
      this.ended = true
      return false
    }
    return (
      (s.startOffset === undefined || offset >= s.startOffset) && (s.endOffset === undefined || offset <= s.endOffset)
    )
  }

  /**
   * The records of a data batch counted in range from its header alone (reconcile, txns): 0 when the batch is
   * out; cut by an offset bound, the offsets inside the range when the batch has no gaps (compaction can leave
   * fewer records than offsets: then the whole count, an upper bound). Time bounds count whole batches.
   */
  weigh(verdict: RangeVerdict, b: RangeBatch, recordsCount: number): number {
    if (verdict !== 'in') return 0
    const s = this.spec
    const base = BigInt(b.baseOffset)
    const last = BigInt(b.lastOffset)
    if (last - base + 1n !== BigInt(recordsCount)) return recordsCount
    const lo = s.startOffset !== undefined && s.startOffset > base ? s.startOffset : base
    const hi = s.endOffset !== undefined && s.endOffset < last ? s.endOffset : last
    return hi < lo ? 0 : Number(hi - lo + 1n)
  }
}

/** `offsets 7..15, from 2026-11-29T15:40:00.000Z, producer 1 (transactional id tx-rw-1)`: what a filtered run was limited to */
export function describeRange(s: RangeSpec): string {
  const parts: string[] = []
  if (s.startOffset !== undefined || s.endOffset !== undefined)
    parts.push(`offsets ${s.startOffset ?? 0}..${s.endOffset ?? ''}`)
  if (s.fromTime !== undefined) parts.push(`from ${new Date(s.fromTime).toISOString()}`)
  if (s.toTime !== undefined) parts.push(`to ${new Date(s.toTime).toISOString()}`)
  if (s.producerIds !== undefined) {
    parts.push(
      `${s.producerIds.length === 1 ? 'producer' : 'producers'} ${s.producerIds.join(', ')}` +
        (s.transactionalId !== undefined ? ` (transactional id ${s.transactionalId})` : ''),
    )
  }
  return parts.join(', ')
}

/**
 * `txns` with a filter: a run is listed when it is of a producer asked for and its offsets (a transaction's from
 * its first data offset to its marker) overlap the batches a first pass found in range.
 */
export function runInRange(r: TimelineRun, counted: RangeCounted, spec: RangeSpec): boolean {
  if (counted.firstOffset === null || counted.lastOffset === null) return false
  const producer = r.kind === 'transaction' ? r.txn.producerId : r.producerId
  if (spec.producerIds !== undefined && !spec.producerIds.includes(producer)) return false
  const first = r.firstOffset
  const last =
    r.kind === 'transaction'
      ? (r.txn.marker?.offset ?? r.txn.lastDataOffset ?? r.firstOffset)
      : r.kind === 'plain'
        ? r.lastOffset
        : r.firstOffset
  return first <= counted.lastOffset && last >= counted.firstOffset
}
