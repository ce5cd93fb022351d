// What the log cleaner will do with a compacted partition: the cleanable range (LogCleanerManager.cleanableOffsets,
// calculateCleanableBytes), whether it is picked now (grabFilthiestCompactedLog, maxCompactionDelay), and what a
// clean of that range leaves (Cleaner.doClean, buildOffsetMap, cleanInto, shouldRetainRecord, CleanedTransactionMetadata).
import type { CleanSegment, ReadSegment } from './model.js'
import type { CleanupSettings } from './configs.js'
import { OffsetMap } from './offset-map.js'
import { CleanedTransactionMetadata } from './txn-metadata.js'
import { DirtyTally } from './dirty-tally.js'
import type { AbortedTxn } from './txn-metadata.js'

export type UncleanableRule = 'last-stable-offset' | 'active-segment' | 'min-compaction-lag'

export interface CompactionInput {
  segments: readonly CleanSegment[]
  /** reads a segment again, for each pass */
  read: ReadSegment
  /** count records per key for topDirtyKeys (--top): one more byte a slot of the key map */
  countKeys?: boolean
  /** headerPass's aborted transactions (the segments' timestamps are filled by it too) */
  aborted: readonly AbortedTxn[]
  /** Kafka's maxDesiredMapSize: (log.cleaner.dedupe.buffer.size / log.cleaner.threads / 24) × log.cleaner.io.buffer.load.factor */
  offsetMapEntries: number
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
  tombstones: { kept: number; removed: number; nextExpiryMs: bigint | null }
  markers: { kept: number; removed: number }
  /** keys with most records in the dirty section, for --top (hex of the key) */
  topDirtyKeys: Array<{ key: string; records: number }>
  /** distinct keys in the dirty section that were mapped */
  dirtyKeys: number
  /** the offset map filled before the dirty section ended: the clean stops at cleanedUpTo (Cleaner.buildOffsetMap) */
  offsetMapFull: boolean
  /** bytes the key map held */
  offsetMapBytes: number
}

/** segments overlapping [from, to): UnifiedLog.logSegments(from, to), from the segment holding `from` */
function logSegments(segs: readonly CleanSegment[], from: bigint, to: bigint): CleanSegment[] {
  let first = 0
  for (let i = 0; i < segs.length; i++) if (segs[i]!.baseOffset <= from) first = i
  return segs.slice(first).filter((s) => s.baseOffset < to)
}

function toHex(b: Uint8Array): string {
  let s = ''
  for (const x of b) s += (x < 16 ? '0' : '') + x.toString(16)
  return s
}

export function predictCompaction(inp: CompactionInput): CompactionPrediction {
  const { segments: segs, settings: cfg, nowMs } = inp
  const aborted = inp.aborted
  const active = segs[segs.length - 1]!
  // LogCleanerManager.cleanableOffsets: a checkpoint below the log start or beyond the log end is reset to the log start
  const cp = inp.checkpoint ?? inp.logStartOffset
  const checkpointReset = inp.checkpoint !== undefined && (cp < inp.logStartOffset || cp > inp.logEndOffset)
  const firstDirty = checkpointReset ? inp.logStartOffset : cp
  const nonActiveFrom = (o: bigint): CleanSegment[] => logSegments(segs, o, active.baseOffset)
  // we cannot clean past the LSO, the active segment, or a segment newer than now - min.compaction.lag.ms
  const rules: Array<{ rule: UncleanableRule; offset: bigint }> = [
    { rule: 'active-segment', offset: active.baseOffset },
  ]
  const lag = cfg.minCompactionLagMs > 0n ? cfg.minCompactionLagMs : 0n
  if (lag > 0n) {
    const s = nonActiveFrom(firstDirty).find((x) => x.largestTimestamp > nowMs - lag)
    if (s !== undefined) rules.push({ rule: 'min-compaction-lag', offset: s.baseOffset })
  }
  rules.push({ rule: 'last-stable-offset', offset: inp.lastStableOffset })
  let bind = rules[0]!
  for (const r of rules) {
    if (r.offset < bind.offset || (r.offset === bind.offset && r.rule === 'last-stable-offset' && inp.openTransaction))
      bind = r
  }
  const uncleanable = bind.offset > firstDirty ? bind.offset : firstDirty
  // LogCleanerManager.calculateCleanableBytes: the cleaner stops at the start of the segment holding that offset
  const fuo = (nonActiveFrom(uncleanable)[0] ?? active).baseOffset
  const cleanBytes = logSegments(segs, -1n, firstDirty)
    .filter((s) => s.baseOffset < firstDirty)
    .reduce((n, s) => n + s.sizeBytes, 0)
  const dirtySegs = logSegments(segs, firstDirty < fuo ? firstDirty : fuo, fuo)
  const cleanableBytes = dirtySegs.reduce((n, s) => n + s.sizeBytes, 0)
  const totalBytes = cleanBytes + cleanableBytes
  const dirtyRatio = totalBytes === 0 ? 0 : cleanableBytes / totalBytes
  // LogCleanerManager.maxCompactionDelay: the earliest first-batch timestamp of the dirty non-active segments
  const firstTs = nonActiveFrom(firstDirty)
    .map((s) => s.firstBatchTimestamp)
    .filter((t): t is bigint => t !== null && t > 0n)
  const earliest = firstTs.length === 0 ? null : firstTs.reduce((a, b) => (a < b ? a : b))
  const maxLag = cfg.maxCompactionLagMs > 0n ? cfg.maxCompactionLagMs : 0n
  const compactionForced = earliest !== null && earliest < nowMs - maxLag
  // grabFilthiestCompactedLog: (needCompactionNow && cleanableBytes > 0) || cleanableRatio > minCleanableRatio
  const cleanableNow =
    totalBytes > 0 && ((compactionForced && cleanableBytes > 0) || dirtyRatio > cfg.minCleanableRatio)
  const out: CompactionPrediction = {
    firstDirtyOffset: firstDirty,
    checkpointReset,
    firstUncleanableOffset: fuo,
    uncleanableBecause: bind.rule,
    cleanableBytes,
    totalBytes,
    dirtyRatio,
    compactionForced,
    cleanableNow,
    cleanedUpTo: null,
    recordsBefore: 0,
    recordsAfterCleaning: null,
    abortedRecordsRemovable: 0,
    tombstones: { kept: 0, removed: 0, nextExpiryMs: null },
    markers: { kept: 0, removed: 0 },
    topDirtyKeys: [],
    dirtyKeys: 0,
    offsetMapFull: false,
    offsetMapBytes: 0,
  }
  if (cleanableBytes === 0) return out
  simulateClean(inp, aborted, dirtySegs, firstDirty, out)
  return out
}

/**
 * Cleaner.buildOffsetMap: the newest offset per key from the first dirty offset on, aborted batches left out, until
 * the map is full (then the batch that did not fit and everything after it wait for the next clean). False when the
 * map was sized for fewer keys than the batches hold (it is then to be built again, larger). With a tally, what the
 * clean does to these records and markers is counted on the way (dirty-tally.ts).
 */
function buildOffsetMap(
  inp: CompactionInput,
  aborted: readonly AbortedTxn[],
  dirtySegs: readonly CleanSegment[],
  firstDirty: bigint,
  map: OffsetMap,
  out: CompactionPrediction,
  tally: DirtyTally | null,
): boolean {
  out.offsetMapFull = false
  const build = new CleanedTransactionMetadata(aborted.filter((t) => t.lastOffset >= firstDirty))
  for (const s of dirtySegs) {
    if (out.offsetMapFull) break
    let pending: bigint | null = null
    inp.read(s, {
      batch(b) {
        if (pending !== null && pending >= firstDirty && pending > map.latestOffset) map.latestOffset = pending
        pending = null
        if (out.offsetMapFull) return 'stop'
        let isAborted = false
        if (b.control !== null) {
          if (tally !== null) tally.control(b, build)
          else build.onControlBatchRead(b)
        } else isAborted = build.onBatchRead(b)
        pending = b.lastOffset
        if (tally !== null && b.control === null) {
          tally.discard = isAborted
          tally.horizon = b.deleteHorizonMs
          return 'records'
        }
        return b.control === null && !isAborted ? 'records' : 'skip'
      },
      record(offset, key, hasValue) {
        if (tally !== null) {
          tally.recordsBefore++
          if (tally.discard) {
            tally.abortedRecords++
            return
          }
        }
        if (out.offsetMapFull || key === null || offset < firstDirty) return
        if (!map.put(key, offset, !hasValue, tally?.horizon ?? null)) {
          out.offsetMapFull = true
          pending = null
        }
      },
    })
    if (map.undersized) return false
    if (pending !== null && pending >= firstDirty && pending > map.latestOffset) map.latestOffset = pending
  }
  return true
}

function simulateClean(
  inp: CompactionInput,
  aborted: readonly AbortedTxn[],
  dirtySegs: readonly CleanSegment[],
  firstDirty: bigint,
  out: CompactionPrediction,
): void {
  const { settings: cfg, nowMs, read } = inp
  // the table for the records the dirty batches declare; a batch holding more than it declares: once more at full capacity
  const declared = dirtySegs.reduce((n, s) => n + s.dataRecords, 0)
  // the dirty section's outcome from the map pass itself (read twice in all, as Kafka's cleaner reads it), when it
  // starts at a segment and --top does not need its keys again; a map that fills mid-way reads the section once more
  const tallied = inp.countKeys !== true && dirtySegs[0]!.baseOffset === firstDirty
  let tally = tallied ? new DirtyTally(nowMs) : null
  let map = new OffsetMap(inp.offsetMapEntries, firstDirty, inp.countKeys === true, declared, tallied)
  if (!buildOffsetMap(inp, aborted, dirtySegs, firstDirty, map, out, tally)) {
    map = new OffsetMap(inp.offsetMapEntries, firstDirty, inp.countKeys === true, undefined, tallied)
    tally = tallied ? new DirtyTally(nowMs) : null
    buildOffsetMap(inp, aborted, dirtySegs, firstDirty, map, out, tally)
  }
  if (out.offsetMapFull) tally = null
  const latest = map.latestOffset
  const endOffset = latest + 1n
  out.cleanedUpTo = endOffset
  out.dirtyKeys = map.size
  out.offsetMapBytes = map.bytes
  // Cleaner.cleanSegments over log.logSegments(0, endOffset), one CleanedTransactionMetadata across them
  const txns = new CleanedTransactionMetadata(aborted)
  const tops = map.topCounts(100)
  const minTop = tops.length === 0 ? Infinity : tops[tops.length - 1]!
  const topKeys = new Map<string, number>()
  let kept = 0
  let discard = false
  let horizon: bigint | null = null
  for (const s of inp.segments.filter(
    (x) => x.baseOffset < endOffset && (tally === null || x.baseOffset < firstDirty),
  )) {
    read(s, {
      batch(b) {
        if (b.control !== null) {
          // cleanInto: a discardable marker goes once its delete horizon has passed (KIP-534); the first pass sets it
          const canDiscard = txns.onControlBatchRead(b)
          if (b.control === 'EMPTY') return 'skip'
          if (canDiscard && b.deleteHorizonMs !== null && b.deleteHorizonMs <= nowMs) out.markers.removed++
          else out.markers.kept++
          return 'skip'
        }
        discard = txns.onBatchRead(b)
        horizon = b.deleteHorizonMs
        return 'records'
      },
      record(offset, key, hasValue) {
        out.recordsBefore++
        if (discard) {
          out.abortedRecordsRemovable++
          return
        }
        // Cleaner.shouldRetainRecord
        if (offset > latest) {
          kept++
          return
        }
        if (key === null) return
        const slot = map.find(key)
        const newest = map.isNewest(slot, offset)
        // the keys of the 100 largest counts: those above the 100th are at most 99, ties fill the rest
        const n = map.countAt(slot)
        if (n > 0 && (n > minTop || (n === minTop && topKeys.size < 100))) {
          const hex = toHex(key)
          if (!topKeys.has(hex)) topKeys.set(hex, n)
        }
        if (!newest) {
          if (!hasValue) out.tombstones.removed++
          return
        }
        if (hasValue) {
          kept++
          return
        }
        if (horizon === null || nowMs < horizon) {
          kept++
          out.tombstones.kept++
          const expiry = horizon ?? nowMs + cfg.deleteRetentionMs
          if (out.tombstones.nextExpiryMs === null || expiry < out.tombstones.nextExpiryMs)
            out.tombstones.nextExpiryMs = expiry
        } else out.tombstones.removed++
      },
    })
  }
  if (tally !== null) {
    // the dirty section, counted as the map filled: its markers, then each key's newest record as the map holds it
    tally.settle(txns)
    out.recordsBefore += tally.recordsBefore
    out.abortedRecordsRemovable += tally.abortedRecords
    out.markers.kept += tally.markersKept
    out.markers.removed += tally.markersRemoved
    out.tombstones.removed += map.supersededTombstones
    map.retained((tombstone, h) => {
      if (!tombstone) {
        kept++
        return
      }
      if (h === null || nowMs < h) {
        kept++
        out.tombstones.kept++
        const expiry = h ?? nowMs + cfg.deleteRetentionMs
        if (out.tombstones.nextExpiryMs === null || expiry < out.tombstones.nextExpiryMs)
          out.tombstones.nextExpiryMs = expiry
      } else out.tombstones.removed++
    })
  }
  out.topDirtyKeys = [...topKeys]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 100)
    .map(([key, records]) => ({ key, records }))
  out.recordsAfterCleaning = kept
}
