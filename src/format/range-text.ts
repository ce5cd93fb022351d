// How a filtered reconcile says what it counted (text and JSON): the range asked for, and per partition the
// batches that were in it. The counts are of records in range; LEO, HW, LSO and the transaction and control
// batch counts stay the whole partition's (they are what the range's visibility depends on).
import type { RangeCounted, RangeSpec } from '../analysis/range-filter.js'
import { describeRange } from '../analysis/range-filter.js'
import type { Json } from './txn-json.js'
import { jsonInt64, jsonInt64OrNull } from './txn-json.js'

const WHOLE = "LEO, HW, LSO, COMMIT/ABORT, OPEN: the whole partition's"

/** the note above a filtered reconcile's table: this head, then each partition's rangeNote, then an empty line */
export function rangeNoteHead(spec: RangeSpec): string {
  return `counted in range only: ${describeRange(spec)}\n  COMMITTED, UNCOMMITTED, ABORTED, PENDING: records in range, as the whole log\n  makes them visible; ${WHOLE}\n`
}

/** a partition's line of the note: the batches that were in range */
export function rangeNote(p: { label: string; range?: RangeCounted }): string {
  const r = p.range
  return `  ${p.label}: ${r === undefined || r.firstOffset === null ? 'no batch in range' : `batches ${r.firstOffset}..${r.lastOffset} in range (${r.batches})`}\n`
}

/** a partition's entry of the filter's `partitions` (rangeJsonOf) */
export function rangePartitionJson(p: { label: string; range?: RangeCounted }): Json {
  return {
    partition: p.label,
    firstOffset: jsonInt64OrNull(p.range?.firstOffset ?? null),
    lastOffset: jsonInt64OrNull(p.range?.lastOffset ?? null),
    batches: p.range?.batches ?? 0,
  }
}

/** the filter of a filtered reconcile's JSON, with its partitions' entries */
export function rangeJsonOf(spec: RangeSpec, partitions: Json[]): Json {
  return {
    description: describeRange(spec),
    startOffset: spec.startOffset === undefined ? null : jsonInt64(spec.startOffset),
    endOffset: spec.endOffset === undefined ? null : jsonInt64(spec.endOffset),
    fromTime: spec.fromTime ?? null,
    fromTimeIso: spec.fromTime === undefined ? null : new Date(spec.fromTime).toISOString(),
    toTime: spec.toTime ?? null,
    toTimeIso: spec.toTime === undefined ? null : new Date(spec.toTime).toISOString(),
    producerIds: spec.producerIds === undefined ? null : spec.producerIds.map((p) => jsonInt64(p)),
    transactionalId: spec.transactionalId ?? null,
    counted:
      'readCommitted, readUncommitted, abortedRecords and pendingRecords count records in range; logStartOffset, logEndOffset, highWatermark, ' +
      "lastStableOffset, transactions, controlBatches and openTransactions are the whole partition's",
    partitions,
  }
}
