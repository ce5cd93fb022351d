// Retention of a topic with remote storage (KIP-405): what the broker deletes locally and what it deletes from
// remote storage, and where the local and the overall log start end up. Two of Kafka's tasks decide it:
// UnifiedLog.deleteOldSegments deletes local segments by local.retention.ms/bytes, only those already copied
// (deletableSegments' isSegmentEligibleForDeletion), and moves the local log start; RemoteLogManager's
// RLMExpirationTask (cleanupExpiredRemoteLogSegments) deletes remote segments by retention.ms/bytes over the whole
// log (remote segments plus the local bytes not yet copied) and moves the log start. Both read what the metadata
// says of a remote segment (its end offset, largest timestamp and size), never the segment.
import type { ConfigValue, CleanupSettings } from './configs.js'
import type { CleanSegment } from './model.js'
import { logStartOffset } from '../log-start.js'

/** LogConfig's remote-storage settings of a topic, local.retention.* resolved (-2: the retention.* value) */
export interface TieredSettings {
  /** remote.storage.enable, or remote segments found for the partition */
  remoteStorage: boolean
  /** remote.log.copy.disable (not a topic config cleanup reads: 4.4's describe --all has none): local retention then falls back to retention.ms/bytes */
  copyDisabled: boolean
  localRetentionMs: bigint
  localRetentionBytes: bigint
}

const int = (v: string | undefined, d: bigint): bigint => {
  try {
    return v === undefined ? d : BigInt(v.trim())
  } catch {
    return d
  }
}

/**
 * LogConfig.localRetentionMs / localRetentionBytes: -2 (the default) stands for retention.ms / retention.bytes.
 * `hasRemoteSegments`: the metadata names remote segments of the partition, which only a topic with remote
 * storage has (its config may be out of reach: no metadata log, no --config).
 */
export function tieredSettingsOf(
  c: Record<string, ConfigValue>,
  cfg: CleanupSettings,
  hasRemoteSegments: boolean,
): TieredSettings {
  const local = (name: string, whole: bigint): bigint => {
    const v = int(c[name]?.value, -2n)
    return v === -2n ? whole : v
  }
  return {
    remoteStorage: c['remote.storage.enable']?.value.trim().toLowerCase() === 'true' || hasRemoteSegments,
    copyDisabled: false,
    localRetentionMs: local('local.retention.ms', cfg.retentionMs),
    localRetentionBytes: local('local.retention.bytes', cfg.retentionBytes),
  }
}

/** a remote segment as `__remote_log_metadata` gives it (RemoteLogSegmentMetadata) */
export interface RemoteSegmentFacts {
  segmentId: string
  startOffset: bigint
  endOffset: bigint
  maxTimestampMs: bigint
  sizeInBytes: number
  state: string
}

export type LocalReason = 'log-start-offset' | 'local.retention.bytes' | 'local.retention.ms'
export type RemoteReason = 'log-start-offset' | 'retention.ms' | 'retention.bytes' | 'delete-retried'

export interface TieredRetentionPrediction {
  /** RemoteLogManager's highest copied offset: the largest end offset of a finished copy, -1 when none */
  highestOffsetInRemoteStorage: bigint
  localLogStartOffset: bigint
  logStartOffset: bigint
  localDeleted: Array<{ baseOffset: bigint; sizeBytes: number; reason: LocalReason }>
  remoteDeleted: Array<{
    segmentId: string
    startOffset: bigint
    endOffset: bigint
    sizeBytes: number
    reason: RemoteReason
  }>
  /** the bytes retention.bytes is measured against: local bytes not yet copied plus the finished remote segments' */
  wholeLogBytes: bigint
  localLogStartOffsetAfter: bigint
  logStartOffsetAfter: bigint
}

export interface TieredRetentionInput {
  /** the local segments, oldest first, with the header pass's timestamps */
  local: readonly CleanSegment[]
  /** every remote segment the metadata names for the partition, whatever its state */
  remote: readonly RemoteSegmentFacts[]
  logStartOffset: bigint
  highWatermark: bigint
  logEndOffset: bigint
  cfg: CleanupSettings
  tiered: TieredSettings
  nowMs: bigint
}

const byStart = (a: RemoteSegmentFacts, b: RemoteSegmentFacts): number =>
  a.startOffset < b.startOffset ? -1 : a.startOffset > b.startOffset ? 1 : 0

/**
 * RLMExpirationTask.cleanupExpiredRemoteLogSegments, one run: DELETE_SEGMENT_STARTED segments are deleted again,
 * then, oldest first, a finished segment below the log start (isSegmentBreachByLogStartOffset), older than
 * retention.ms (maxTimestampMs <= now - retention.ms) or within the bytes over retention.bytes
 * (isSegmentBreachedByRetentionSize, against buildRetentionSizeData's whole-log size) is deleted, and the walk stops
 * at the first segment kept. The log start moves past the last segment deleted by time or size. Segments are taken
 * as within the leader-epoch lineage (the broker also drops those that are not; the epochs are not compared here).
 */
export function predictRemoteRetention(
  inp: TieredRetentionInput,
  highest: bigint,
): Pick<TieredRetentionPrediction, 'remoteDeleted' | 'wholeLogBytes' | 'logStartOffsetAfter'> {
  const finished = inp.remote.filter((s) => s.state === 'COPY_SEGMENT_FINISHED').sort(byStart)
  // UnifiedLog.onlyLocalLogSegmentsSize: local segments whose base offset is at or above the highest copied offset
  const onlyLocal = inp.local.filter((s) => s.baseOffset >= highest).reduce((n, s) => n + BigInt(s.sizeBytes), 0n)
  const whole = onlyLocal + finished.reduce((n, s) => n + BigInt(s.sizeInBytes), 0n)
  const { retentionMs, retentionBytes } = inp.cfg
  let breached = retentionBytes > -1n && whole > retentionBytes ? whole - retentionBytes : 0n
  const deleted: TieredRetentionPrediction['remoteDeleted'] = []
  const gone = (s: RemoteSegmentFacts, reason: RemoteReason): void => {
    deleted.push({
      segmentId: s.segmentId,
      startOffset: s.startOffset,
      endOffset: s.endOffset,
      sizeBytes: s.sizeInBytes,
      reason,
    })
  }
  for (const s of inp.remote.filter((x) => x.state === 'DELETE_SEGMENT_STARTED').sort(byStart))
    gone(s, 'delete-retried')
  let start = inp.logStartOffset
  for (const s of finished) {
    if (s.endOffset < inp.logStartOffset) {
      gone(s, 'log-start-offset')
      continue
    }
    let reason: RemoteReason | null = null
    if (retentionMs > -1n && s.maxTimestampMs <= inp.nowMs - retentionMs) {
      reason = 'retention.ms'
      breached = breached > BigInt(s.sizeInBytes) ? breached - BigInt(s.sizeInBytes) : 0n
    } else if (breached > 0n && breached - BigInt(s.sizeInBytes) >= 0n) {
      reason = 'retention.bytes'
      breached -= BigInt(s.sizeInBytes)
    }
    if (reason === null) break
    gone(s, reason)
    if (s.endOffset + 1n > start) start = s.endOffset + 1n
  }
  return { remoteDeleted: deleted, wholeLogBytes: whole, logStartOffsetAfter: start }
}

/**
 * UnifiedLog.deleteOldSegments with remote storage and copying on: the log-start rule against the local log start,
 * then local.retention.bytes over the local bytes, then local.retention.ms; deletableSegments walks from the oldest
 * segment, never past the HW, and stops at the first it keeps, and a segment is deletable only once copied (its
 * last offset at or below the highest copied offset) or below the log start (isSegmentEligibleForDeletion).
 * deleteSegments moves the local log start to the next segment's base (maybeIncrementLocalLogStartOffset).
 * `logStart` is the log start after the remote deletions (a larger one lets local segments go uncopied).
 */
export function predictLocalRetention(
  inp: TieredRetentionInput,
  highest: bigint,
  logStart: bigint,
): Pick<TieredRetentionPrediction, 'localDeleted' | 'localLogStartOffsetAfter'> {
  const tiered = inp.tiered.remoteStorage && !inp.tiered.copyDisabled
  const firstLocal = inp.local[0]?.baseOffset ?? inp.logEndOffset
  // UnifiedLog.maybeIncrementLogStartOffset moves the local log start with the log start
  let localStart = firstLocal > logStart ? firstLocal : logStart
  let segs = [...inp.local]
  const deleted: TieredRetentionPrediction['localDeleted'] = []
  const pass = (reason: LocalReason, pred: (s: CleanSegment, next: CleanSegment | undefined) => boolean): void => {
    let n = 0
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!
      const next = segs[i + 1]
      const upper = next?.baseOffset ?? inp.logEndOffset
      const eligible =
        !tiered || (upper > 0n && upper - 1n <= highest) || (next !== undefined && logStart >= next.baseOffset)
      if (!(inp.highWatermark >= upper && pred(s, next)) || (next === undefined && s.sizeBytes === 0) || !eligible)
        break
      n++
    }
    if (n === 0) return
    for (const s of segs.slice(0, n)) deleted.push({ baseOffset: s.baseOffset, sizeBytes: s.sizeBytes, reason })
    segs = segs.slice(n)
    const first = segs[0]?.baseOffset ?? inp.logEndOffset
    if (first > localStart) localStart = first
    if (segs.length === 0)
      segs = [
        {
          baseOffset: inp.logEndOffset,
          file: '',
          sizeBytes: 0,
          largestTimestamp: -1n,
          firstBatchTimestamp: null,
          dataRecords: 0,
        },
      ]
  }
  pass('log-start-offset', (_s, next) => next !== undefined && next.baseOffset <= localStart)
  if (inp.cfg.delete) {
    const bytes = tiered ? inp.tiered.localRetentionBytes : inp.cfg.retentionBytes
    const size = segs.reduce((n, s) => n + BigInt(s.sizeBytes), 0n)
    if (bytes >= 0n && size >= bytes) {
      let diff = size - bytes
      pass('local.retention.bytes', (s) => {
        if (diff - BigInt(s.sizeBytes) >= 0n) {
          diff -= BigInt(s.sizeBytes)
          return true
        }
        return false
      })
    }
    const ms = tiered ? inp.tiered.localRetentionMs : inp.cfg.retentionMs
    if (ms >= 0n) pass('local.retention.ms', (s) => inp.nowMs - s.largestTimestamp > ms)
  }
  return { localDeleted: deleted, localLogStartOffsetAfter: localStart }
}

/** Both tasks as the broker runs them next: the remote deletions first (they move the log start the local rule reads). */
export function predictTieredRetention(inp: TieredRetentionInput): TieredRetentionPrediction {
  // RemoteLogManager.findHighestRemoteOffset: the largest end offset of a finished copy
  const highest = inp.remote
    .filter((s) => s.state === 'COPY_SEGMENT_FINISHED')
    .reduce((m, s) => (s.endOffset > m ? s.endOffset : m), -1n)
  const firstLocal = inp.local[0]?.baseOffset ?? inp.logEndOffset
  // RLMExpirationTask applies retention.ms/bytes whatever cleanup.policy says (a tiered topic cannot be compacted)
  const remote = predictRemoteRetention(inp, highest)
  const local = predictLocalRetention(inp, highest, remote.logStartOffsetAfter)
  return {
    highestOffsetInRemoteStorage: highest,
    localLogStartOffset: firstLocal > inp.logStartOffset ? firstLocal : inp.logStartOffset,
    logStartOffset: inp.logStartOffset,
    ...remote,
    ...local,
  }
}

/** cleanup's answer for a topic with remote storage: the prediction, or why it cannot be made */
export type TieredRetention = TieredRetentionPrediction | { unknown: string }

/**
 * The tiered prediction of a partition, or null when its topic has no remote storage (the local rules of
 * retention.ts then apply alone). `remote`: the metadata's segments of the partition, or why they are unknown.
 */
export function tieredRetentionOf(
  configs: Record<string, ConfigValue>,
  cfg: CleanupSettings,
  remote:
    | { segments: readonly RemoteSegmentFacts[]; logStartCheckpoint: bigint | null }
    | { unknown: string }
    | undefined,
  inp: Omit<TieredRetentionInput, 'remote' | 'cfg' | 'tiered'>,
): TieredRetention | null {
  if (configs['cleanup.policy']?.source === 'UNKNOWN') return null
  const segments = remote !== undefined && 'segments' in remote ? remote.segments : []
  const tiered = tieredSettingsOf(configs, cfg, segments.length > 0)
  if (!tiered.remoteStorage && !(remote !== undefined && 'unknown' in remote)) return null
  if (remote !== undefined && 'unknown' in remote)
    return { unknown: `its remote segments' states are unknown (${remote.unknown})` }
  // without the remote segments read, the scan's log start is the first local segment's: the broker's is the checkpoint's
  const cp = remote !== undefined && 'segments' in remote ? remote.logStartCheckpoint : null
  const start = logStartOffset(inp.local[0]?.baseOffset ?? null, cp, true)?.offset ?? inp.logStartOffset
  return predictTieredRetention({ ...inp, logStartOffset: start, remote: segments, cfg, tiered })
}
