// What the log cleaner will do with a compacted partition: the cleanable range (LogCleanerManager.cleanableOffsets,
// calculateCleanableBytes), whether it is picked now (grabFilthiestCompactedLog, maxCompactionDelay), and what a
// clean of that range leaves (Cleaner.doClean, buildOffsetMap, cleanInto, shouldRetainRecord, CleanedTransactionMetadata).
import type { CleanBatch, CleanSegment } from './model.js'
import type { CleanupSettings } from './configs.js'

export type UncleanableRule = 'last-stable-offset' | 'active-segment' | 'min-compaction-lag'

export interface CompactionInput {
  segments: readonly CleanSegment[]
  logStartOffset: bigint
  logEndOffset: bigint
  lastStableOffset: bigint
  /** an open transaction holds the LSO below the HW */
  openTransaction: boolean
  /** the partition's cleaner-offset-checkpoint entry; undefined when it has none */
  checkpoint: bigint | undefined
  settings: CleanupSettings
  nowMs: bigint
}

export interface CompactionPrediction {
  firstDirtyOffset: bigint
  /** the checkpoint was outside [log start, log end]: reset to the log start */
  checkpointReset: boolean
  firstUncleanableOffset: bigint
  uncleanableBecause: UncleanableRule
  cleanableBytes: number
  totalBytes: number
  dirtyRatio: number
  /** max.compaction.lag.ms forces a clean */
  compactionForced: boolean
  cleanableNow: boolean
  /** the checkpoint the clean would write (Cleaner.doClean: offset map's latest offset + 1); null when nothing is cleanable */
  cleanedUpTo: bigint | null
  /** data records below cleanedUpTo now (all data records when nothing is cleanable) */
  recordsBefore: number
  recordsAfterCleaning: number | null
  abortedRecordsRemovable: number
  tombstones: { kept: number, removed: number, nextExpiryMs: bigint | null }
  markers: { kept: number, removed: number }
  /** keys with most records in the dirty section, for --top */
  topDirtyKeys: Array<{ key: string, records: number }>
}

/** segments overlapping [from, to): UnifiedLog.logSegments(from, to), from the segment holding `from` */
function logSegments (segs: readonly CleanSegment[], from: bigint, to: bigint): CleanSegment[] {
  let first = 0
  for (let i = 0; i < segs.length; i++) if (segs[i]!.baseOffset <= from) first = i
  return segs.slice(first).filter((s) => s.baseOffset < to)
}

/** batches of transactions ended by an ABORT marker (what the .txnindex lists: UnifiedLog.collectAbortedTransactions) */
function abortedBatches (segs: readonly CleanSegment[]): Set<CleanBatch> {
  const aborted = new Set<CleanBatch>()
  const open = new Map<bigint, CleanBatch[]>()
  for (const s of segs) {
    for (const b of s.batches) {
      if (b.control === null) {
        if (b.transactional) { const l = open.get(b.producerId); if (l === undefined) open.set(b.producerId, [b]); else l.push(b) }
      } else if (b.control === 'ABORT' || b.control === 'COMMIT') {
        if (b.control === 'ABORT') for (const x of open.get(b.producerId) ?? []) aborted.add(x)
        open.delete(b.producerId)
      }
    }
  }
  return aborted
}

export function predictCompaction (inp: CompactionInput): CompactionPrediction {
  const { segments: segs, settings: cfg, nowMs } = inp
  const active = segs[segs.length - 1]!
  // LogCleanerManager.cleanableOffsets: a checkpoint below the log start or beyond the log end is reset to the log start
  const cp = inp.checkpoint ?? inp.logStartOffset
  const checkpointReset = inp.checkpoint !== undefined && (cp < inp.logStartOffset || cp > inp.logEndOffset)
  const firstDirty = checkpointReset ? inp.logStartOffset : cp
  const nonActiveFrom = (o: bigint): CleanSegment[] => logSegments(segs, o, active.baseOffset)
  // we cannot clean past the LSO, the active segment, or a segment newer than now - min.compaction.lag.ms
  const rules: Array<{ rule: UncleanableRule, offset: bigint }> = [{ rule: 'active-segment', offset: active.baseOffset }]
  const lag = cfg.minCompactionLagMs > 0n ? cfg.minCompactionLagMs : 0n
  if (lag > 0n) {
    const s = nonActiveFrom(firstDirty).find((x) => x.largestTimestamp > nowMs - lag)
    if (s !== undefined) rules.push({ rule: 'min-compaction-lag', offset: s.baseOffset })
  }
  rules.push({ rule: 'last-stable-offset', offset: inp.lastStableOffset })
  let bind = rules[0]!
  for (const r of rules) {
    if (r.offset < bind.offset || (r.offset === bind.offset && r.rule === 'last-stable-offset' && inp.openTransaction)) bind = r
  }
  const uncleanable = bind.offset > firstDirty ? bind.offset : firstDirty
  // LogCleanerManager.calculateCleanableBytes: the cleaner stops at the start of the segment holding that offset
  const fuo = (nonActiveFrom(uncleanable)[0] ?? active).baseOffset
  const cleanBytes = logSegments(segs, -1n, firstDirty).filter((s) => s.baseOffset < firstDirty).reduce((n, s) => n + s.sizeBytes, 0)
  const dirtySegs = logSegments(segs, firstDirty < fuo ? firstDirty : fuo, fuo)
  const cleanableBytes = dirtySegs.reduce((n, s) => n + s.sizeBytes, 0)
  const totalBytes = cleanBytes + cleanableBytes
  const dirtyRatio = totalBytes === 0 ? 0 : cleanableBytes / totalBytes
  // LogCleanerManager.maxCompactionDelay: the earliest first-batch timestamp of the dirty non-active segments
  const firstTs = nonActiveFrom(firstDirty).map((s) => s.firstBatchTimestamp).filter((t): t is bigint => t !== null && t > 0n)
  const earliest = firstTs.length === 0 ? null : firstTs.reduce((a, b) => (a < b ? a : b))
  const maxLag = cfg.maxCompactionLagMs > 0n ? cfg.maxCompactionLagMs : 0n
  const compactionForced = earliest !== null && earliest < nowMs - maxLag
  // grabFilthiestCompactedLog: (needCompactionNow && cleanableBytes > 0) || cleanableRatio > minCleanableRatio
  const cleanableNow = totalBytes > 0 && ((compactionForced && cleanableBytes > 0) || dirtyRatio > cfg.minCleanableRatio)
  const out: CompactionPrediction = {
    firstDirtyOffset: firstDirty, checkpointReset, firstUncleanableOffset: fuo, uncleanableBecause: bind.rule, cleanableBytes, totalBytes,
    dirtyRatio, compactionForced, cleanableNow, cleanedUpTo: null, recordsBefore: 0, recordsAfterCleaning: null, abortedRecordsRemovable: 0,
    tombstones: { kept: 0, removed: 0, nextExpiryMs: null }, markers: { kept: 0, removed: 0 }, topDirtyKeys: [],
  }
  if (cleanableBytes === 0) return out
  simulateClean(segs, dirtySegs, firstDirty, cfg, nowMs, out)
  return out
}

function simulateClean (segs: readonly CleanSegment[], dirtySegs: readonly CleanSegment[], firstDirty: bigint, cfg: CleanupSettings, nowMs: bigint, out: CompactionPrediction): void {
  const aborted = abortedBatches(segs)
  // Cleaner.buildOffsetMap: newest offset per key in the dirty segments, aborted batches left out
  const map = new Map<string, bigint>()
  const counts = new Map<string, number>()
  let latest = -1n
  for (const s of dirtySegs) {
    for (const b of s.batches) {
      if (b.control === null && !aborted.has(b)) {
        for (const r of b.records) {
          if (r.key === null || r.offset < firstDirty) continue
          map.set(r.key, r.offset)
          counts.set(r.key, (counts.get(r.key) ?? 0) + 1)
        }
      }
      if (b.lastOffset >= firstDirty && b.lastOffset > latest) latest = b.lastOffset
    }
  }
  out.topDirtyKeys = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 100).map(([key, records]) => ({ key, records }))
  const endOffset = latest + 1n
  out.cleanedUpTo = endOffset
  // Cleaner.cleanSegments over log.logSegments(0, endOffset), one CleanedTransactionMetadata across them
  const committedSeen = new Set<bigint>()
  const abortedSeen = new Set<bigint>()
  let kept = 0
  for (const s of segs.filter((x) => x.baseOffset < endOffset)) {
    for (const b of s.batches) {
      if (b.control !== null) {
        // CleanedTransactionMetadata.onControlBatchRead: an ABORT marker stays while batches of its transaction were
        // seen (they are removed now, so a later clean drops it); a COMMIT marker goes when none of its batches remain
        let canDiscard = false
        if (b.control === 'ABORT') canDiscard = !abortedSeen.delete(b.producerId)
        else if (b.control === 'COMMIT') canDiscard = !committedSeen.delete(b.producerId)
        // cleanInto: a discardable marker goes once its delete horizon has passed (KIP-534); the first pass sets it
        if (canDiscard && b.deleteHorizonMs !== null && b.deleteHorizonMs <= nowMs) out.markers.removed++
        else out.markers.kept++
        continue
      }
      out.recordsBefore += b.records.length
      const isAborted = aborted.has(b)
      if (b.transactional) (isAborted ? abortedSeen : committedSeen).add(b.producerId)
      if (isAborted) { out.abortedRecordsRemovable += b.records.length; continue }
      for (const r of b.records) {
        // Cleaner.shouldRetainRecord
        if (r.offset > latest) { kept++; continue }
        if (r.key === null) continue
        const newest = r.offset >= (map.get(r.key) ?? -1n)
        const horizon = b.deleteHorizonMs ?? nowMs + cfg.deleteRetentionMs
        const retainDelete = b.deleteHorizonMs === null || nowMs < b.deleteHorizonMs
        if (!newest) { if (!r.hasValue) out.tombstones.removed++; continue }
        if (r.hasValue) { kept++; continue }
        if (retainDelete) {
          kept++; out.tombstones.kept++
          if (out.tombstones.nextExpiryMs === null || horizon < out.tombstones.nextExpiryMs) out.tombstones.nextExpiryMs = horizon
        } else out.tombstones.removed++
      }
    }
  }
  out.recordsAfterCleaning = kept
}
