// The PartitionAnalyzer's (partition-analyzer.ts) logic that needs none of its state but what it is given: a
// transaction's working record, a batch's canonical copy, the earliest other open transaction, and at the end of
// the pass the high watermark, the unstable transactions in order and the LSO. Split out of the class's file.
import type { FindingList } from './finding-list.js'
import { finding } from './findings.js'
import type { I64 } from '../bytes/int64.js'
import { i64, i64Add, toBigInt, toI64 } from '../bytes/int64.js'
import type { Txn } from './streaming-txn.js'
import type { BatchFacts } from './batch-facts.js'
import type { HighWatermarkSource } from './partition-input.js'
import type { ExpectedAbortedTxn } from './txn-index-check.js'

/** a transaction's working record at its first batch (or its marker, for an empty one) */
export function newTxn(seq: number, producerId: I64, producerEpoch: number, firstOffset: I64): Txn {
  return {
    seq,
    producerId,
    producerEpoch,
    markerEpoch: null,
    firstOffset,
    lastDataOffset: null,
    records: 0,
    batches: 0,
    firstTimestamp: null,
    lastTimestamp: null,
    marker: null,
    outcome: 'open',
    coordinatorEpoch: null,
    seeded: false,
    empty: false,
    completionLastStableOffset: null,
    iv: null,
    cut: false,
    firstIndex: -1,
    lastIndex: -1,
    spanBatches: 0,
    tl: null,
  }
}

/** whether a batch was given with non-canonical (bigint) fields */
export function needsCanonical(b: BatchFacts): boolean {
  return (
    typeof b.baseOffset === 'bigint' ||
    typeof b.lastOffset === 'bigint' ||
    typeof b.producerId === 'bigint' ||
    typeof b.baseTimestamp === 'bigint' ||
    typeof b.maxTimestamp === 'bigint'
  )
}

/** `x` copied into `c` with its int64 fields canonical; returns `c` */
export function canonicalInto(c: BatchFacts, x: BatchFacts): BatchFacts {
  c.baseOffset = toI64(x.baseOffset)
  c.lastOffset = toI64(x.lastOffset)
  c.recordsCount = x.recordsCount
  c.producerId = toI64(x.producerId)
  c.producerEpoch = x.producerEpoch
  c.isTransactional = x.isTransactional
  c.isControl = x.isControl
  c.baseTimestamp = toI64(x.baseTimestamp)
  c.maxTimestamp = toI64(x.maxTimestamp)
  c.control = x.control
  c.legacy = x.legacy
  c.file = x.file
  c.position = x.position
  return c
}

/**
 * The first offset of the earliest open transaction of another producer. `sorted`: `open` iterates in firstOffset
 * order (see PartitionAnalyzer.openSorted), so it is one of the first two entries.
 */
export function earliestOtherOpen(open: Map<I64, Txn>, sorted: boolean, producerId: I64): I64 | null {
  // values(), not entries(): an [pid, t] pair per step was 8% of reconcile's garbage (each open Txn is keyed by its producerId)
  if (sorted) {
    for (const t of open.values()) if (t.producerId !== producerId) return t.firstOffset
    return null
  }
  let min: I64 | null = null
  for (const t of open.values())
    if (t.producerId !== producerId && (min === null || t.firstOffset < min)) min = t.firstOffset
  return min
}

/** producer -> first offset of its open transaction, for the snapshot checks */
export function openFirstOffsets(open: Map<I64, Txn>): Map<I64, I64> {
  const ours = new Map<I64, I64>()
  for (const [pid, t] of open) ours.set(pid, t.firstOffset)
  return ours
}

/**
 * The high watermark at the end of the pass: the checkpoint's (`checkpoint`, null without one), never below the
 * log start, else the log end offset. A checkpoint HW beyond the log end is a finding.
 */
export function highWatermarkOf(
  checkpoint: I64 | null,
  logStartOffset: I64,
  leo: I64,
  findings: FindingList,
): { hw: I64; source: HighWatermarkSource } {
  if (checkpoint === null) return { hw: leo, source: 'logEndOffset' }
  // UnifiedLog.updateHighWatermark: never below the log start (DeleteRecords can move it past the checkpoint)
  const hw = checkpoint < logStartOffset ? logStartOffset : checkpoint
  if (hw > leo) {
    findings.push(
      finding(
        'HIGH_WATERMARK_BEYOND_LOG_END',
        `replication-offset-checkpoint has high watermark ${hw} but the log ends at ${leo} (files copied from a running broker, or truncated?)`,
        { firstOffset: toBigInt(leo), lastOffset: toBigInt(hw) },
      ),
    )
  }
  return { hw, source: 'checkpoint' }
}

/** the unstable transactions in log order (first offset, then the order they began) */
export function inLogOrder(unstable: Txn[]): Txn[] {
  return unstable.sort((a, b) =>
    a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : a.seq - b.seq,
  )
}

/** the LSO: the first unstable transaction's first offset, at most the HW and at least the log start */
export function lastStableOffset(first: Txn | undefined, hw: I64, logStartOffset: I64): I64 {
  return first === undefined || first.firstOffset >= hw
    ? hw
    : first.firstOffset < logStartOffset
      ? logStartOffset
      : first.firstOffset
}

/** the log end offset after the pass: past the last batch, or the last segment's base offset if that is further */
export function logEndOffsetOf(lastSegmentBaseOffset: bigint | null, prevLast: I64 | null, logStartOffset: I64): I64 {
  const lastBase = lastSegmentBaseOffset === null ? logStartOffset : i64(lastSegmentBaseOffset)
  const afterLast = prevLast === null ? logStartOffset : i64Add(prevLast, 1)
  return afterLast > lastBase ? afterLast : lastBase
}

/** an aborted transaction as the consumer's view and the txnindex check take it, its marker at `markerOffset` */
export function abortedTxnOf(t: Txn, markerOffset: I64): ExpectedAbortedTxn {
  return {
    producerId: toBigInt(t.producerId),
    firstOffset: toBigInt(t.firstOffset),
    lastOffset: toBigInt(markerOffset),
    lastStableOffset: toBigInt(t.completionLastStableOffset!),
  }
}

// the messages of the analyzer's findings on a batch, built only when the finding is listed (PartitionAnalyzer.wanted)

export function notFollowingText(b: BatchFacts, prevLast: I64 | null): string {
  return `batch at offset ${b.baseOffset} does not follow offset ${prevLast}`
}

export function nonTransactionalInOpenText(b: BatchFacts, open: Txn): string {
  return `producer ${b.producerId} wrote a non-transactional batch at ${b.baseOffset} while its transaction from ${open.firstOffset} was open (brokers reject this)`
}

export function controlWithoutRecordText(b: BatchFacts, name: 'EMPTY' | 'UNREADABLE'): string {
  return name === 'EMPTY'
    ? `control batch at offset ${b.baseOffset} has no records (compacted marker, KAFKA-7467); not counted as COMMIT/ABORT`
    : `control batch at offset ${b.baseOffset} could not be read; not counted as COMMIT/ABORT`
}

export function duplicateMarkerText(b: BatchFacts, outcome: string): string {
  return (
    `${outcome} at offset ${b.baseOffset} repeats producer ${b.producerId}'s previous ${outcome} (epoch ${b.producerEpoch}) ` +
    'with no transaction open (KAFKA-19999, a retried WriteTxnMarkers); counted once'
  )
}
