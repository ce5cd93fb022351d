// What one copy holds from an offset on: the batches, their records (and those below the copy's high watermark),
// the first BATCHES_LISTED of them with their records' offsets and keys, and the transaction markers among them.
// Tallied as the batches stream past, for each offset that may turn out to be the copy's divergence point (the
// point needs every copy's log end, known only at the end of the walk): nothing else is kept per batch.
import type { Finding } from '../findings.js'
import type { ReplicaBatch } from './replica-input.js'

/** batches past a divergence point listed per copy (the rest are counted) */
export const BATCHES_LISTED = 1000
/** COMMIT/ABORT markers past a divergence point kept per copy to check against the leader's open transactions */
export const MARKERS_KEPT = 1000
/** batches read whole for their keys at most this large: a larger one is listed by its offsets only */
export const MAX_LISTED_BATCH_BYTES = 16 * 1024 * 1024

/**
 * A batch's first records (offset and key) as the listing reads them: up to one more than it lists, since
 * readRecordsOf asks its record iterator for the next record before it checks its budget (a record that cannot be
 * read right after the last one listed is still a problem); `problem`: the read stopped there.
 */
export interface ListedRecords {
  records: Array<{ offset: bigint; key: string | null }>
  problem: Finding | null
}

/** the records of the batch at hand, at most `n + 1`; null when its bytes are no longer at hand */
export type KeysOf = ((n: number) => ListedRecords) | null

export interface PastPoint {
  point: bigint
  /** the high watermark the records below it were counted against */
  highWatermark: bigint | null
  batches: number
  records: number
  /** of those, the records below the copy's high watermark */
  recordsBelowHighWatermark: number
  /** the first BATCHES_LISTED batches, each with its records while `listRecords` lasted */
  listed: ReplicaBatch[]
  /** the COMMIT and ABORT markers among them (the first MARKERS_KEPT) */
  markers: ReplicaBatch[]
  markersOmitted: number
  /** where the listed batches' records could not be read */
  problems: Finding[]
}

/** the records of batch `b` at or after `offset` (and below `below`) */
export function recordsFrom(b: ReplicaBatch, offset: bigint, below: bigint | null): number {
  if (b.lastOffset < offset) return 0
  const first = b.baseOffset > offset ? b.baseOffset : offset
  const last = below === null ? b.lastOffset : b.lastOffset < below ? b.lastOffset : below - 1n
  // a batch straddling the point counts its offsets from the point on (compaction can leave gaps: at most count)
  return last >= first ? Math.min(b.count, Number(last - first + 1n)) : 0
}

/** A copy's batches from `point` on, tallied as they come (in log order). */
export class PastPointTally {
  /** the walk reached the point */
  active = false
  /** a listed batch's records were wanted when its bytes were no longer at hand: this tally cannot be used */
  incomplete = false
  private batches = 0
  private records = 0
  private belowHw = 0
  private readonly listed: ReplicaBatch[] = []
  private readonly markers: ReplicaBatch[] = []
  private markersOmitted = 0
  private readonly problems: Finding[] = []
  /** records still to list (readRecordsOf's budget: the listing's first `listRecords` records) */
  private left: number

  constructor(
    readonly point: bigint,
    private readonly highWatermark: bigint | null,
    listRecords: number,
  ) {
    this.left = listRecords
  }

  /**
   * One batch with `lastOffset >= point`. `keys` reads its records for the listing; undefined: the listing's records
   * are read later (the fallback walk reads them from the files, readRecordsOf).
   */
  add(b: ReplicaBatch, keys: KeysOf | undefined): void {
    this.batches++
    this.records += recordsFrom(b, this.point, null)
    if (this.highWatermark !== null) this.belowHw += recordsFrom(b, this.point, this.highWatermark)
    if (b.isControl && (b.marker === 'COMMIT' || b.marker === 'ABORT')) {
      if (this.markers.length < MARKERS_KEPT) this.markers.push(b)
      else this.markersOmitted++
    }
    if (this.listed.length >= BATCHES_LISTED) return
    this.listed.push(keys === undefined ? b : this.withRecords(b, keys))
  }

  /** the listed batch with its records, as many as are left to list (readRecordsOf's rule) */
  private withRecords(b: ReplicaBatch, keys: KeysOf): ReplicaBatch {
    if (this.left <= 0 || (!b.isControl && b.size > MAX_LISTED_BATCH_BYTES)) return b
    if (b.isControl) return { ...b, records: [] }
    if (keys === null) {
      this.incomplete = true
      return b
    }
    const r = keys(this.left)
    if (r.problem !== null) {
      // the read failed: said, and the batch is listed without records
      this.left -= r.records.length
      this.problems.push(r.problem)
      return b
    }
    const records = r.records.length > this.left ? r.records.slice(0, this.left) : r.records
    this.left -= r.records.length
    return { ...b, records }
  }

  result(): PastPoint {
    return {
      point: this.point,
      highWatermark: this.highWatermark,
      batches: this.batches,
      records: this.records,
      recordsBelowHighWatermark: this.belowHw,
      listed: this.listed,
      markers: this.markers,
      markersOmitted: this.markersOmitted,
      problems: this.problems,
    }
  }
}
