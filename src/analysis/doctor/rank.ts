// `tsdump doctor`'s order of harm, fixed and documented (README, docs/findings.md's codes): what an operator paged
// at night asks first comes first.
//   1 data lost or at risk      records acknowledged and gone, offsets no copy holds, transactions whose atomicity or
//                               exactly-once guarantee failed
//   2 consumers stuck           a last stable offset nothing will move (hanging transactions, lost markers), batches
//                               Kafka's consumers refuse although the bytes are intact
//   3 damage                    bytes, indexes, snapshots, checkpoints or internal-topic records that cannot be read
//                               as Kafka reads them, and what is unknown because of them
//   4 cleaner or retention blocked   the cleaner or remote deletion not doing its work
//   5 the rest                  notes, and what needs more input to be judged
// Within a rank: severity (error, warning, info), then broker, partition, offset (compareDoctorFindings).
import type { FindingCode, Severity } from '../findings.js'

export type HarmRank = 1 | 2 | 3 | 4 | 5

export const HARM_CATEGORIES: Readonly<Record<HarmRank, string>> = {
  1: 'data lost or at risk',
  2: 'consumers stuck',
  3: 'damage',
  4: 'cleaner or retention blocked',
  5: 'the rest',
}

/**
 * The rank of every code. Keyed by string, not by FindingCode, so that codes other commands report before the
 * catalogue lists them (a hanging transaction from lso's result) have a place too; test/analysis/doctor/rank.test.ts
 * fails when a code of the catalogue has none.
 */
export const HARM_RANK: Readonly<Record<string, HarmRank>> = {
  // 1: data lost or at risk
  REPLICA_DIVERGED: 1,
  PARTITION_COPIES_DIFFER: 1,
  REMOTE_SEGMENT_MISSING: 1,
  REMOTE_GAP: 1,
  REMOTE_ZERO_FILLED: 1,
  REMOTE_OFFSETS_MISMATCH: 1,
  REMOTE_EPOCHS_MISMATCH: 1,
  TXN_MIXED_OUTCOME: 1,
  TXN_OUTCOME_CONTRADICTS: 1,
  TXN_TIMED_OUT: 1,
  EOS_MIXED_COMMITS: 1,
  EOS_NO_OFFSETS: 1,
  // 2: consumers stuck
  TXN_HANGING: 2,
  TXN_COORDINATOR_OVERDUE: 2,
  TXN_COORDINATOR_UNKNOWN: 2,
  TXN_PARTITION_NO_MARKER: 2,
  TXN_UNLISTED_PARTITION: 2,
  TXN_PREPARE_STUCK: 2,
  REPLICA_MARKER_LOST: 2,
  ZSTD_WINDOW_TOO_LARGE: 2,
  // 3: damage
  TRUNCATED_TAIL: 3,
  SHORT_TAIL: 3,
  BAD_LENGTH: 3,
  BAD_MAGIC: 3,
  CRC_MISMATCH: 3,
  RECORD_COUNT_MISMATCH: 3,
  BAD_RECORD: 3,
  TRUNCATED: 3,
  VARINT_TOO_LONG: 3,
  UNSUPPORTED_CODEC: 3,
  DECOMPRESS_FAILED: 3,
  DECOMPRESSED_TOO_LARGE: 3,
  BAD_CONTROL_RECORD: 3,
  UNREADABLE_CONTROL_BATCH: 3,
  TXN_OUTCOME_UNKNOWN: 3,
  INDEX_BAD_POSITION: 3,
  INDEX_NOT_CHECKED: 5,
  TIMEINDEX_NOT_CHECKED: 5,
  INDEX_PARTIAL_ENTRY: 3,
  TIMEINDEX_PARTIAL_ENTRY: 3,
  INDEX_MISMATCH: 3,
  INDEX_NOT_MONOTONIC: 3,
  INDEX_CORRUPT: 3,
  TIMEINDEX_CORRUPT: 3,
  TIMEINDEX_OFFSET_NOT_FOUND: 3,
  TIMEINDEX_MISMATCH: 3,
  TIMEINDEX_OUT_OF_ORDER: 3,
  TIMEINDEX_UNVERIFIABLE: 3,
  NO_SEGMENT: 3,
  TXNINDEX_BAD_VERSION: 3,
  TXNINDEX_BAD_RANGE: 3,
  TXNINDEX_PARTIAL_ENTRY: 3,
  TXNINDEX_MISSING_ENTRY: 3,
  TXNINDEX_FIRST_OFFSET_MISMATCH: 3,
  TXNINDEX_LSO_MISMATCH: 3,
  TXNINDEX_DUPLICATE_ENTRY: 3,
  TXNINDEX_UNEXPECTED_ENTRY: 3,
  CONSUMER_VIEW_DIFFERS: 3,
  SNAPSHOT_SCHEMA: 3,
  SNAPSHOT_CRC: 3,
  SNAPSHOT_TXN_MISMATCH: 3,
  OFFSETS_NOT_INCREASING: 3,
  NON_TRANSACTIONAL_IN_OPEN_TXN: 3,
  HIGH_WATERMARK_BEYOND_LOG_END: 3,
  REPLICA_BATCHES_DIFFER: 3,
  REPLICA_RECORDS_DIFFER: 3,
  REPLICA_COPY_DAMAGED: 3,
  EPOCH_CHECKPOINT_DAMAGED: 3,
  EPOCH_CHECKPOINT_MISMATCH: 3,
  OFFSET_CHECKPOINT_DAMAGED: 3,
  META_PROPERTIES_DAMAGED: 3,
  PARTITION_METADATA_DAMAGED: 3,
  BAD_INTERNAL_RECORD: 3,
  CONFIGS_UNKNOWN: 3,
  REMOTE_STATE_UNKNOWN: 3,
  REMOTE_UNREADABLE: 3,
  REMOTE_SIZE_MISMATCH: 3,
  REMOTE_CHUNK_UNREADABLE: 3,
  UNREADABLE: 3,
  STREAM_NOT_ENDING: 3,
  NOT_REGULAR_FILE: 3,
  FILE_TOO_LARGE: 3,
  FILE_CHANGED: 3,
  // 4: cleaner or retention blocked
  CLEANER_CHECKPOINT_OUT_OF_RANGE: 4,
  REMOTE_DELETE_UNFINISHED: 4,
  REMOTE_ORPHAN: 4,
  // 5: the rest
  ZERO_TAIL: 5,
  NAME_NOT_OFFSET: 5,
  READ_LIMIT: 5,
  VALUE_NOT_DECODED: 5,
  RECORDS_SKIPPED: 5,
  INDEX_PREALLOCATED: 5,
  SEEK_INDEX_UNUSABLE: 5,
  TIMEINDEX_RECORD_OFFSET: 5,
  EMPTY_CONTROL_BATCH: 5,
  DUPLICATE_MARKER: 5,
  SNAPSHOT_BEFORE_FIRST_BATCH: 5,
  LEGACY_ENTRIES: 5,
  TXNINDEX_NOT_CHECKED: 5,
  TXNINDEX_OUTSIDE_SCAN: 5,
  TXN_STARTED_BEFORE_SCAN: 5,
  REPLICA_TOPIC_ID_DIFFERS: 5,
  REPLICA_OFFSETS_DIFFER: 5,
  REPLICA_COMPACTED: 5,
  REPLICA_SINGLE_COPY: 5,
  CLEANER_CHECKPOINT_UNREADABLE: 5,
  CLEANUP_POLICY_UNKNOWN: 5,
  REMOTE_NOT_READ: 5,
  TXN_JOIN_AMBIGUOUS: 5,
  PARTITION_COPY_CHOSEN: 5,
  UNKNOWN_RECORD_TYPE: 5,
  UNKNOWN_RECORD_VERSION: 5,
  REMOTE_COPY_UNFINISHED: 5,
  REMOTE_OVERLAP: 5,
  REMOTE_BY_LISTING: 5,
  REMOTE_LAYOUT_UNKNOWN: 5,
  REMOTE_KEY_UNUSABLE: 5,
  OUTPUT_WRITE_FAILED: 5,
}

/** A code's rank and its category's name; a code the table does not know is ranked with the rest. */
export function harmOf(code: FindingCode | string): { rank: HarmRank; category: string } {
  const rank = HARM_RANK[code] ?? 5
  return { rank, category: HARM_CATEGORIES[rank] }
}

const SEVERITY_ORDER: Readonly<Record<Severity, number>> = { error: 0, warning: 1, info: 2 }

/** What the order within a rank reads of a finding. */
export interface RankedPlace {
  rank: HarmRank
  severity: Severity
  code: string
  broker: string | null
  partition: string | null
  firstOffset: bigint | null
  file: string | null
  position: number | null
}

/** topic, then partition number (orders-10-0 before orders-10-2 before orders-11-0) */
function comparePartitions(a: string, b: string): number {
  const ma = partitionName(a)
  const mb = partitionName(b)
  if (ma === null || mb === null) return a < b ? -1 : a > b ? 1 : 0
  if (ma[0] !== mb[0]) return ma[0] < mb[0] ? -1 : 1
  return ma[1] - mb[1]
}

/**
 * `topic-partition` parsed once per name while it is compared (a sort compares each many times, and each finding is
 * compared with the last one kept): the cache is emptied when full, so that it holds no name per partition read
 */
const parsedNames = new Map<string, readonly [string, number] | null>()
const PARSED_NAMES = 4096
function partitionName(name: string): readonly [string, number] | null {
  let p = parsedNames.get(name)
  if (p === undefined) {
    const m = /^(.*)-(\d+)$/.exec(name)
    p = m === null ? null : ([m[1]!, Number(m[2])] as const)
    if (parsedNames.size >= PARSED_NAMES) parsedNames.clear()
    parsedNames.set(name, p)
  }
  return p
}

/** broker names as numbers when they are (node ids: 2 before 10) */
function compareBrokers(a: string, b: string): number {
  const na = Number(a)
  const nb = Number(b)
  if (Number.isInteger(na) && Number.isInteger(nb)) return na - nb
  return a < b ? -1 : a > b ? 1 : 0
}

/** what is not known sorts after what is */
function nullsLast<T>(a: T | null, b: T | null, cmp: (x: T, y: T) => number): number {
  if (a === null) return b === null ? 0 : 1
  if (b === null) return -1
  return cmp(a, b)
}

/** The documented order: rank, severity, broker, partition, offset; then file, position and code, so that it is total. */
export function compareDoctorFindings(a: RankedPlace, b: RankedPlace): number {
  return (
    a.rank - b.rank ||
    SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
    nullsLast(a.broker, b.broker, compareBrokers) ||
    nullsLast(a.partition, b.partition, comparePartitions) ||
    nullsLast(a.firstOffset, b.firstOffset, (x, y) => (x < y ? -1 : x > y ? 1 : 0)) ||
    nullsLast(a.file, b.file, (x, y) => (x < y ? -1 : x > y ? 1 : 0)) ||
    nullsLast(a.position, b.position, (x, y) => x - y) ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
  )
}
