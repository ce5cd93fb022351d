// What retention deletes now (UnifiedLog.deleteOldSegments: log-start-offset breach, then retention.bytes, then
// retention.ms; deletableSegments walks from the oldest segment and stops at the first it keeps, never past the HW).
// When every segment goes, the active one too, deleteSegments rolls a new empty segment first: the log start is then
// the log end.
import type { CleanSegment } from './model.js'
import type { CleanupSettings } from './configs.js'

export interface RetentionPrediction {
  deleted: Array<{
    baseOffset: bigint
    sizeBytes: number
    reason: 'log-start-offset' | 'retention.bytes' | 'retention.ms'
  }>
  logStartOffsetAfterRetention: bigint
}

export function predictRetention(
  segments: readonly CleanSegment[],
  logStart: bigint,
  highWatermark: bigint,
  logEnd: bigint,
  cfg: CleanupSettings,
  nowMs: bigint,
): RetentionPrediction {
  let segs = [...segments]
  let start = logStart
  const deleted: RetentionPrediction['deleted'] = []
  const pass = (
    reason: RetentionPrediction['deleted'][number]['reason'],
    pred: (s: CleanSegment, next: CleanSegment | undefined) => boolean,
  ): void => {
    let n = 0
    for (let i = 0; i < segs.length; i++) {
      const s = segs[i]!
      const next = segs[i + 1]
      const upper = next?.baseOffset ?? logEnd
      if (!(highWatermark >= upper && pred(s, next)) || (next === undefined && s.sizeBytes === 0)) break
      n++
    }
    if (n === 0) return
    for (const s of segs.slice(0, n)) deleted.push({ baseOffset: s.baseOffset, sizeBytes: s.sizeBytes, reason })
    segs = segs.slice(n)
    // UnifiedLog.deleteSegments: the log start moves to the new first segment (a freshly rolled one at the log end)
    const first = segs[0]?.baseOffset ?? logEnd
    if (first > start) start = first
    if (segs.length === 0)
      segs = [
        {
          baseOffset: logEnd,
          file: '',
          sizeBytes: 0,
          largestTimestamp: -1n,
          firstBatchTimestamp: null,
          dataRecords: 0,
        },
      ]
  }
  pass('log-start-offset', (_s, next) => next !== undefined && next.baseOffset <= start)
  if (cfg.delete) {
    const size = segs.reduce((n, s) => n + BigInt(s.sizeBytes), 0n)
    if (cfg.retentionBytes >= 0n && size >= cfg.retentionBytes) {
      let diff = size - cfg.retentionBytes
      pass('retention.bytes', (s) => {
        if (diff - BigInt(s.sizeBytes) >= 0n) {
          diff -= BigInt(s.sizeBytes)
          return true
        }
        return false
      })
    }
    if (cfg.retentionMs >= 0n) pass('retention.ms', (s) => nowMs - s.largestTimestamp > cfg.retentionMs)
  }
  return { deleted, logStartOffsetAfterRetention: start }
}
