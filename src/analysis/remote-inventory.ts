// `tsdump remote`: a partition's remote segments as __remote_log_metadata describes them, joined with what the
// storage holds and with the local log: unfinished uploads and deletes, objects no metadata names (orphans),
// finished segments whose objects are gone, and offsets neither tier holds. Pure: the caller reads the
// metadata (scan/remote-metadata.ts), lists the storage and the local segments.
import type { Finding, FindingCode } from './findings.js'
import { finding } from './findings.js'
import type { LostRecords } from './lost-records.js'
import { lostAfter, lostText } from './lost-records.js'

export const SEGMENT_STATES = [
  'COPY_SEGMENT_STARTED',
  'COPY_SEGMENT_FINISHED',
  'DELETE_SEGMENT_STARTED',
  'DELETE_SEGMENT_FINISHED',
] as const
export type SegmentState = (typeof SEGMENT_STATES)[number]

export interface RemoteSegmentMetadata {
  topic: string
  partition: number
  topicId: string
  segmentId: string
  startOffset: bigint
  endOffset: bigint
  brokerId: number
  maxTimestampMs: bigint
  /** of the newest event */
  eventTimestampMs: bigint
  /** leader epoch → its first offset in the segment */
  leaderEpochs: Array<{ epoch: number; offset: bigint }>
  sizeInBytes: number
  txnIndexEmpty: boolean
  state: SegmentState
  /** every state in the order written */
  history: SegmentState[]
  /** where its newest record is (scan/remote-metadata.ts), so that lost records after it make its state unknown */
  file?: string
  position?: number
}

/** one segment's objects in the storage */
export interface StoredSegment {
  startOffset: bigint
  topicId: string
  logKey: string | null
  logBytes: number | null
  suffixes: string[]
  keys: string[]
}

export type SegmentVerdict =
  | 'ok'
  | 'copy-unfinished'
  | 'delete-unfinished'
  | 'deleted'
  | 'orphan'
  | 'missing'
  | 'size-mismatch'
  | 'listed'
  | 'unknown'

export interface RemoteSegmentRow {
  segmentId: string
  startOffset: bigint
  /** null for an object no metadata names */
  endOffset: bigint | null
  state: SegmentState | null
  history: SegmentState[]
  leaderEpochs: Array<{ epoch: number; offset: bigint }>
  /** segmentSizeInBytes of the metadata */
  sizeInBytes: number | null
  /** the .log object's size in the storage, null when it is not there */
  storedBytes: number | null
  brokerId: number | null
  eventTimestampMs: bigint | null
  maxTimestampMs: bigint | null
  /** the .log object's name (a path or an s3:// URL), or null */
  key: string | null
  /** the suffixes in the storage (log, index, timeindex, txnindex, snapshot, leader_epoch_checkpoint) */
  stored: string[]
  verdict: SegmentVerdict
}

export interface RemotePartitionInventory {
  topic: string
  partition: number
  topicId: string | null
  /** the first local segment's base offset, when the partition's directory was given */
  localStartOffset: bigint | null
  segments: RemoteSegmentRow[]
  findings: Finding[]
}

export interface RemoteResult {
  storage: string
  /** the __remote_log_metadata partition directories read (empty: none found, the listing alone) */
  metadataFrom: string[]
  partitions: RemotePartitionInventory[]
  /** findings of reading the metadata and listing the storage */
  findings: Finding[]
}

export interface InventoryInput {
  topic: string
  partition: number
  topicId: string | null
  localStartOffset: bigint | null
  /** null: no metadata was read (the storage listing alone) */
  metadata: RemoteSegmentMetadata[] | null
  stored: Map<string, StoredSegment>
  nameOf: (key: string) => string
  /**
   * where records of the partition's metadata could not be read (analysis/lost-records.ts): a state read before
   * that place, an object no record names and the offsets covered are then unknown, not findings
   */
  metadataLost?: LostRecords
}

function inPartition(
  code: FindingCode,
  message: string,
  label: string,
  firstOffset: bigint,
  lastOffset: bigint,
): Finding {
  return { ...finding(code, message, { firstOffset, lastOffset }), partition: label }
}

const VERDICT_OF: Record<SegmentState, SegmentVerdict> = {
  COPY_SEGMENT_STARTED: 'copy-unfinished',
  COPY_SEGMENT_FINISHED: 'ok',
  DELETE_SEGMENT_STARTED: 'delete-unfinished',
  DELETE_SEGMENT_FINISHED: 'deleted',
}

export function joinInventory(inp: InventoryInput): RemotePartitionInventory {
  const label = `${inp.topic}-${inp.partition}`
  const findings: Finding[] = []
  const rows: RemoteSegmentRow[] = []
  const seen = new Set<string>()
  const lost = inp.metadataLost
  if (lost !== undefined) {
    findings.push({
      ...finding(
        'REMOTE_STATE_UNKNOWN',
        `${label}: its remote segments' states and which offsets they cover are unknown: ${lostText(lost)}, where records of them may be; ` +
          'the states shown are the last ones read',
        { file: lost.file, position: lost.position },
      ),
      partition: label,
    })
  }
  for (const m of inp.metadata ?? []) {
    const s = inp.stored.get(m.segmentId)
    seen.add(m.segmentId)
    let verdict = VERDICT_OF[m.state]
    const key = s?.logKey != null ? inp.nameOf(s.logKey) : null
    const where = `segment ${m.segmentId} (offsets ${m.startOffset}..${m.endOffset})`
    if (lost !== undefined && stateUnknown(m, lost)) {
      verdict = 'unknown'
    } else if (m.state === 'COPY_SEGMENT_FINISHED' && s?.logKey == null) {
      verdict = 'missing'
      findings.push(
        inPartition(
          'REMOTE_SEGMENT_MISSING',
          `${where} is COPY_SEGMENT_FINISHED but its .log is not in the storage: consumers cannot read those offsets`,
          label,
          m.startOffset,
          m.endOffset,
        ),
      )
    } else if (m.state === 'COPY_SEGMENT_FINISHED' && s?.logBytes != null && s.logBytes !== m.sizeInBytes) {
      verdict = 'size-mismatch'
      findings.push(
        finding(
          'REMOTE_SIZE_MISMATCH',
          `${where}: the metadata says ${m.sizeInBytes} bytes, ${key} has ${s.logBytes}`,
          { file: key ?? label, position: 0 },
        ),
      )
    } else if (m.state === 'COPY_SEGMENT_STARTED') {
      findings.push(
        inPartition(
          'REMOTE_COPY_UNFINISHED',
          `${where}: COPY_SEGMENT_STARTED and nothing after it (an upload that never finished)${s !== undefined ? `; ${s.keys.length} objects of it are stored` : ''}`,
          label,
          m.startOffset,
          m.endOffset,
        ),
      )
    } else if (m.state === 'DELETE_SEGMENT_STARTED') {
      findings.push(
        inPartition(
          'REMOTE_DELETE_UNFINISHED',
          `${where}: DELETE_SEGMENT_STARTED without DELETE_SEGMENT_FINISHED${s !== undefined ? `; ${s.keys.length} objects of it are still stored` : ''}`,
          label,
          m.startOffset,
          m.endOffset,
        ),
      )
    } else if (m.state === 'DELETE_SEGMENT_FINISHED' && s !== undefined) {
      verdict = 'orphan'
      findings.push(
        inPartition(
          'REMOTE_ORPHAN',
          `${where}: its delete finished, but ${s.keys.length} of its objects are still stored (${s.keys.map(inp.nameOf).join(', ')})`,
          label,
          m.startOffset,
          m.endOffset,
        ),
      )
    }
    rows.push({
      segmentId: m.segmentId,
      startOffset: m.startOffset,
      endOffset: m.endOffset,
      state: m.state,
      history: m.history,
      leaderEpochs: m.leaderEpochs,
      sizeInBytes: m.sizeInBytes,
      storedBytes: s?.logBytes ?? null,
      brokerId: m.brokerId,
      eventTimestampMs: m.eventTimestampMs,
      maxTimestampMs: m.maxTimestampMs,
      key,
      stored: s?.suffixes ?? [],
      verdict,
    })
  }
  for (const [segmentId, s] of inp.stored) {
    if (seen.has(segmentId)) continue
    const key = s.logKey !== null ? inp.nameOf(s.logKey) : inp.nameOf(s.keys[0]!)
    if (inp.metadata !== null && lost === undefined) {
      findings.push(
        finding(
          'REMOTE_ORPHAN',
          `segment ${segmentId} (from offset ${s.startOffset}): ${s.keys.length} objects that no ${'__remote_log_metadata'} record names (paid for, never read)`,
          { file: key, position: 0 },
        ),
      )
    }
    rows.push({
      segmentId,
      startOffset: s.startOffset,
      endOffset: null,
      state: null,
      history: [],
      leaderEpochs: [],
      sizeInBytes: null,
      storedBytes: s.logBytes,
      brokerId: null,
      eventTimestampMs: null,
      maxTimestampMs: null,
      key,
      stored: s.suffixes,
      verdict: inp.metadata === null ? 'listed' : lost !== undefined ? 'unknown' : 'orphan',
    })
  }
  rows.sort((a, b) => (a.startOffset < b.startOffset ? -1 : a.startOffset > b.startOffset ? 1 : 0))
  // with records lost, a segment may be missing from the metadata read: gaps are not known
  if (lost === undefined) coverage(rows, inp.localStartOffset, label, findings)
  return {
    topic: inp.topic,
    partition: inp.partition,
    topicId: inp.topicId,
    localStartOffset: inp.localStartOffset,
    segments: rows,
    findings,
  }
}

/** a segment whose newest record precedes the lost bytes (an update of it may be there) */
function stateUnknown(m: RemoteSegmentMetadata, lost: LostRecords): boolean {
  return lostAfter([lost], m.file, m.position) !== undefined
}

/** gaps between finished remote segments and up to the local log, and where remote and local overlap */
function coverage(
  rows: readonly RemoteSegmentRow[],
  localStart: bigint | null,
  label: string,
  findings: Finding[],
): void {
  const finished = rows.filter((r) => r.state === 'COPY_SEGMENT_FINISHED' && r.endOffset !== null)
  let next: bigint | null = null
  for (const r of finished) {
    if (next !== null && r.startOffset > next) {
      findings.push(
        inPartition(
          'REMOTE_GAP',
          `no remote segment holds offsets ${next}..${r.startOffset - 1n} (between two remote segments)`,
          label,
          next,
          r.startOffset - 1n,
        ),
      )
    }
    const after = r.endOffset! + 1n
    if (next === null || after > next) next = after
  }
  if (next === null || localStart === null) return
  if (localStart > next) {
    findings.push(
      inPartition(
        'REMOTE_GAP',
        `neither tier holds offsets ${next}..${localStart - 1n}: the remote segments end at ${next - 1n}, the local log starts at ${localStart}`,
        label,
        next,
        localStart - 1n,
      ),
    )
  } else if (localStart < next) {
    findings.push(
      inPartition(
        'REMOTE_OVERLAP',
        'both remote and local (local retention has not deleted them yet): tsdump reads the local segments there, as the broker does',
        label,
        localStart,
        next - 1n,
      ),
    )
  }
}
