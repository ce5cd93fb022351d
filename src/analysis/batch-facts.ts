// What the analyses are told about one batch: scalars taken from its header and its control record. Nothing
// here holds a Buffer, so read windows can be collected while the analysis runs. Every partition command
// feeds these (scan/partition-scan.ts); a new analysis of batches takes them too.
import type { I64 } from '../bytes/int64.js'

/** What the analysis needs from one v2 batch header (+ its control record, if any). */
export interface BatchSummary {
  baseOffset: bigint
  lastOffset: bigint
  /** recordsCount from the header: compaction can leave fewer records than lastOffset - baseOffset + 1 */
  recordsCount: number
  producerId: bigint
  producerEpoch: number
  isTransactional: boolean
  isControl: boolean
  baseTimestamp: bigint
  maxTimestamp: bigint
  /**
   * control batches: the parsed first control record; null when it could not be read
   * (a compacted, empty control batch — KAFKA-7467 — or a damaged one). Undefined for data batches.
   */
  control?: { type: number; typeName: string; coordinatorEpoch?: number } | null
  /** legacy (magic 0/1) entries are passed as non-transactional data with recordsCount 1 */
  legacy?: boolean
  file?: string
  position?: number
}

/**
 * What the streaming analysis is told about one batch. BatchSummary satisfies it; the partition scan
 * fills one reusable object of this shape per batch instead of allocating a summary (the hot path),
 * with int64 fields as numbers where they fit (canonical I64, bytes/int64.ts: no BigInt per batch).
 */
export interface BatchFacts {
  baseOffset: I64
  lastOffset: I64
  recordsCount: number
  producerId: I64
  producerEpoch: number
  isTransactional: boolean
  isControl: boolean
  baseTimestamp: I64
  maxTimestamp: I64
  control?: { type: number; typeName: string; coordinatorEpoch?: number } | null | undefined
  legacy?: boolean | undefined
  file?: string | undefined
  position?: number | undefined
}

/**
 * A BatchFacts refilled batch after batch (the scan's scratch, the analyzer's canonical copy), with every field
 * present from the start so that the object keeps one shape while it is refilled.
 */
export function refillableFacts(): BatchFacts {
  return {
    baseOffset: 0,
    lastOffset: 0,
    recordsCount: 0,
    producerId: -1,
    producerEpoch: -1,
    isTransactional: false,
    isControl: false,
    baseTimestamp: -1,
    maxTimestamp: -1,
    control: undefined,
    legacy: undefined,
    file: undefined,
    position: undefined,
  }
}
