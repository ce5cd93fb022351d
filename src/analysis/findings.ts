// Findings: problems and notes about the data, reported instead of thrown. This file is the catalogue:
// every code tsdump emits, its one severity, and the one rule that turns findings into an exit code.
// docs/findings.md explains each code to operators; test/analysis/findings-catalogue.test.ts fails
// when a code here is missing there.
import type { DecodeErrorCode } from '../decode/errors.js'

export type Severity = 'error' | 'warning' | 'info'

/** code -> severity. The same fault gets the same code (and so the same exit code) from every command. */
export const FINDING_SEVERITY = {
  // segment framing
  ZERO_TAIL: 'info',
  TRUNCATED_TAIL: 'error',
  SHORT_TAIL: 'error',
  BAD_LENGTH: 'error',
  BAD_MAGIC: 'error',
  NAME_NOT_OFFSET: 'info',
  READ_LIMIT: 'info',
  VALUE_NOT_DECODED: 'info',
  RECORDS_SKIPPED: 'info',
  // batches and records (the DecodeErrorCodes)
  CRC_MISMATCH: 'error',
  RECORD_COUNT_MISMATCH: 'error',
  BAD_RECORD: 'error',
  TRUNCATED: 'error',
  VARINT_TOO_LONG: 'error',
  UNSUPPORTED_CODEC: 'error',
  DECOMPRESS_FAILED: 'error',
  ZSTD_WINDOW_TOO_LARGE: 'warning',
  DECOMPRESSED_TOO_LARGE: 'error',
  BAD_CONTROL_RECORD: 'error',
  // index files and producer snapshots
  INDEX_BAD_POSITION: 'error',
  INDEX_NOT_CHECKED: 'info',
  TIMEINDEX_NOT_CHECKED: 'info',
  INDEX_PREALLOCATED: 'info',
  SEEK_INDEX_UNUSABLE: 'warning',
  INDEX_PARTIAL_ENTRY: 'warning',
  TIMEINDEX_PARTIAL_ENTRY: 'warning',
  INDEX_MISMATCH: 'error',
  INDEX_NOT_MONOTONIC: 'error',
  INDEX_CORRUPT: 'error',
  TIMEINDEX_CORRUPT: 'error',
  TIMEINDEX_OFFSET_NOT_FOUND: 'error',
  TIMEINDEX_MISMATCH: 'error',
  TIMEINDEX_OUT_OF_ORDER: 'error',
  TIMEINDEX_UNVERIFIABLE: 'error',
  TIMEINDEX_RECORD_OFFSET: 'info',
  NO_SEGMENT: 'warning',
  TXNINDEX_BAD_VERSION: 'error',
  TXNINDEX_BAD_RANGE: 'error',
  TXNINDEX_PARTIAL_ENTRY: 'warning',
  SNAPSHOT_SCHEMA: 'error',
  SNAPSHOT_CRC: 'error',
  // partition analysis (reconcile, txns, lso)
  OFFSETS_NOT_INCREASING: 'warning',
  NON_TRANSACTIONAL_IN_OPEN_TXN: 'warning',
  EMPTY_CONTROL_BATCH: 'info',
  DUPLICATE_MARKER: 'info',
  UNREADABLE_CONTROL_BATCH: 'warning',
  SNAPSHOT_BEFORE_FIRST_BATCH: 'info',
  SNAPSHOT_TXN_MISMATCH: 'warning',
  HIGH_WATERMARK_BEYOND_LOG_END: 'warning',
  CONSUMER_VIEW_DIFFERS: 'error',
  LEGACY_ENTRIES: 'info',
  TXNINDEX_NOT_CHECKED: 'info',
  TXNINDEX_MISSING_ENTRY: 'error',
  TXNINDEX_FIRST_OFFSET_MISMATCH: 'error',
  TXNINDEX_LSO_MISMATCH: 'warning',
  TXNINDEX_DUPLICATE_ENTRY: 'warning',
  TXNINDEX_OUTSIDE_SCAN: 'info',
  TXN_STARTED_BEFORE_SCAN: 'info',
  TXN_OUTCOME_UNKNOWN: 'warning',
  TXNINDEX_UNEXPECTED_ENTRY: 'error',
  // replicas compared (`tsdump replicas`)
  REPLICA_DIVERGED: 'error',
  REPLICA_BATCHES_DIFFER: 'error',
  REPLICA_RECORDS_DIFFER: 'error',
  REPLICA_TOPIC_ID_DIFFERS: 'error',
  REPLICA_MARKER_LOST: 'warning',
  REPLICA_COPY_DAMAGED: 'error',
  REPLICA_OFFSETS_DIFFER: 'info',
  REPLICA_COMPACTED: 'info',
  REPLICA_SINGLE_COPY: 'info',
  EPOCH_CHECKPOINT_DAMAGED: 'warning',
  EPOCH_CHECKPOINT_MISMATCH: 'warning',
  OFFSET_CHECKPOINT_DAMAGED: 'warning',
  META_PROPERTIES_DAMAGED: 'warning',
  PARTITION_METADATA_DAMAGED: 'warning',
  // `cleanup`: the log dir's cleaner-offset-checkpoint
  CLEANER_CHECKPOINT_UNREADABLE: 'info',
  CLEANER_CHECKPOINT_OUT_OF_RANGE: 'warning',
  CLEANUP_POLICY_UNKNOWN: 'info',
  REMOTE_NOT_READ: 'warning',
  // one transaction across partitions (transactions)
  TXN_JOIN_AMBIGUOUS: 'warning',
  TXN_MIXED_OUTCOME: 'error',
  TXN_OUTCOME_CONTRADICTS: 'error',
  TXN_PARTITION_NO_MARKER: 'warning',
  TXN_UNLISTED_PARTITION: 'warning',
  TXN_PREPARE_STUCK: 'warning',
  TXN_TIMED_OUT: 'warning',
  // the hanging rule (analysis/hanging.ts), the same in lso, transactions, cleanup and report
  TXN_HANGING: 'warning',
  TXN_COORDINATOR_OVERDUE: 'warning',
  TXN_COORDINATOR_UNKNOWN: 'warning',
  EOS_MIXED_COMMITS: 'warning',
  EOS_NO_OFFSETS: 'warning',
  PARTITION_COPY_CHOSEN: 'info',
  PARTITION_COPIES_DIFFER: 'warning',
  // internal-topic records (--offsets-decoder, --transaction-log-decoder, ...)
  UNKNOWN_RECORD_TYPE: 'warning',
  UNKNOWN_RECORD_VERSION: 'warning',
  BAD_INTERNAL_RECORD: 'warning',
  // what depends on an internal topic's records that could not be read (analysis/lost-records.ts)
  CONFIGS_UNKNOWN: 'warning',
  REMOTE_STATE_UNKNOWN: 'warning',
  // tiered storage (--remote-storage, tsdump remote)
  REMOTE_UNREADABLE: 'error',
  REMOTE_SEGMENT_MISSING: 'error',
  REMOTE_SIZE_MISMATCH: 'error',
  REMOTE_COPY_UNFINISHED: 'warning',
  REMOTE_DELETE_UNFINISHED: 'warning',
  REMOTE_ORPHAN: 'warning',
  REMOTE_GAP: 'error',
  REMOTE_OVERLAP: 'info',
  REMOTE_BY_LISTING: 'info',
  REMOTE_LAYOUT_UNKNOWN: 'error',
  REMOTE_KEY_UNUSABLE: 'error',
  REMOTE_CHUNK_UNREADABLE: 'error',
  REMOTE_OFFSETS_MISMATCH: 'error',
  REMOTE_EPOCHS_MISMATCH: 'error',
  REMOTE_ZERO_FILLED: 'error',
  // input that cannot be used at all (exit 2, see UNREADABLE_CODES)
  UNREADABLE: 'error',
  STREAM_NOT_ENDING: 'error',
  NOT_REGULAR_FILE: 'error',
  FILE_TOO_LARGE: 'error',
  FILE_CHANGED: 'error',
  // output
  OUTPUT_WRITE_FAILED: 'error',
} as const satisfies Record<string, Severity>

export type FindingCode = keyof typeof FINDING_SEVERITY

// every decoding problem is a finding code too
const decodeCodesAreFindings: Record<DecodeErrorCode, Severity> = FINDING_SEVERITY
void decodeCodesAreFindings

interface FindingOf<C extends FindingCode> {
  code: C
  /** always the catalogue's severity for the code: the compiler rejects any other */
  severity: (typeof FINDING_SEVERITY)[C]
  file?: string
  /** absolute byte position in `file` */
  position?: number
  /** a partition-level finding (reconcile, txns, lso): the partition, `topic-partition` */
  partition?: string
  /** and the offsets it is about: [firstOffset, lastOffset] */
  firstOffset?: bigint
  lastOffset?: bigint
  message: string
}

/** One finding: `severity` is tied to `code` by the catalogue. */
export type Finding = { [C in FindingCode]: FindingOf<C> }[FindingCode]

export interface FindingPlace {
  file?: string | undefined
  position?: number | undefined
  firstOffset?: bigint | undefined
  lastOffset?: bigint | undefined
}

/** A finding with the catalogue's severity for `code`. */
export function finding(code: FindingCode, message: string, at: FindingPlace = {}): Finding {
  const f = { severity: FINDING_SEVERITY[code], code, message } as Finding
  if (at.file !== undefined) f.file = at.file
  if (at.position !== undefined) f.position = at.position
  if (at.firstOffset !== undefined) f.firstOffset = at.firstOffset
  if (at.lastOffset !== undefined) f.lastOffset = at.lastOffset
  return f
}

/**
 * Every finding can be located: one without a file and byte position is about the partition, so it gets
 * the partition's label and, unless it already names the offsets it is about, the offsets scanned.
 */
export function locatePartitionFindings(
  findings: readonly Finding[],
  partition: string,
  firstOffset: bigint,
  lastOffset: bigint,
): void {
  for (const f of findings) {
    if (f.file !== undefined && f.position !== undefined) continue
    f.partition = partition
    if (f.firstOffset === undefined) f.firstOffset = firstOffset
    if (f.lastOffset === undefined) f.lastOffset = lastOffset
  }
}

export const EXIT_OK = 0
export const EXIT_FINDINGS = 1
export const EXIT_USAGE = 2

/**
 * Input that could not be read at all (or output that could not be written): exit 2 from every command,
 * whether `dump` or `reconcile`/`txns`/`lso` meets it.
 */
export const UNREADABLE_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'UNREADABLE',
  'STREAM_NOT_ENDING',
  'NOT_REGULAR_FILE',
  'FILE_TOO_LARGE',
  'FILE_CHANGED',
  'OUTPUT_WRITE_FAILED',
  'REMOTE_LAYOUT_UNKNOWN',
])

/** The exit-code rule, the only one: unusable input -> 2; errors or warnings in the data -> 1; info only -> 0. */
export function exitCodeOf(f: Pick<Finding, 'code' | 'severity'>): number {
  if (UNREADABLE_CODES.has(f.code)) return EXIT_USAGE
  return f.severity === 'info' ? EXIT_OK : EXIT_FINDINGS
}

export function exitCodeFor(findings: readonly Finding[]): number {
  let code = EXIT_OK
  for (const f of findings) code = Math.max(code, exitCodeOf(f))
  return code
}

/** Findings that make a command exit non-zero. */
export function hasErrors(findings: readonly Finding[]): boolean {
  return exitCodeFor(findings) !== EXIT_OK
}
