// Seeking for the filtered dump (analysis/range-filter.ts): which segments of a partition can be left
// unread, and where inside a segment reading can begin, from the file names and the .index/.timeindex
// beside the segment, as the broker finds a fetch offset (LogSegment.translateOffset) or a timestamp
// (LogSegment.findOffsetByTimestamp).
//
// Index entries are hints, never trusted blindly: the entry's position must frame as a batch (the one framer,
// readLog) whose CRC checks and whose offsets hold the entry's offset. Otherwise the segment is read from 0
// (an info finding says why): slower, never wrong.
import * as path from 'node:path'
import type { Finding } from '../../analysis/findings.js'
import { finding } from '../../analysis/findings.js'
import type { RangeSpec } from '../../analysis/range-filter.js'
import { decodeOffsetIndex, decodeTimeIndex, OFFSET_INDEX_ENTRY_SIZE } from '../../decode/index-files.js'
import { RECORD_BATCH_OVERHEAD } from '../../decode/layout.js'
import { readLog } from '../../decode/log-reader.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { KafkaFile } from '../../io/discover.js'
import { readSmallFile } from '../../io/file-source.js'

export interface Seek {
  /** where reading the segment begins: the start of a batch, every batch before it out of range */
  position: number
  /** an index entry that could not be used */
  finding?: Finding
  /** the bytes from `position` that the check read (the entry's batch whole, and what followed it in the read): the dump starts in them */
  held?: Buffer
}

/** the most read at once to check an index entry's batch (a larger batch is streamed by readLog, and read again by the dump) */
const CHECK_WINDOW = 64 * 1024

function indexBeside(file: KafkaFile, suffix: string): Buffer | undefined {
  if (!file.path.endsWith('.log')) return undefined
  try {
    return readSmallFile(file.path.slice(0, -'.log'.length) + suffix)
  } catch {
    return undefined
  }
}

/**
 * The first position of `file` that can hold a batch in range. --from-time: from the newest .timeindex entry
 * whose timestamp is below fromTime (every batch up to its offset has an older maxTimestamp, as the entry is
 * the segment's largest timestamp so far), then through .index as for an offset. --start-offset: the newest
 * .index entry at or below it (the entry's offset is its batch's last offset, so every earlier batch ends
 * below it). With both, the time seek alone: the time range may begin before the start offset.
 */
export function seekPosition(file: KafkaFile, source: SegmentSource, spec: RangeSpec): Seek {
  if (file.kind !== 'log' || file.baseOffset === null || file.stdin === true || source.seekable === false)
    return { position: 0 }
  let target: bigint | undefined
  if (spec.fromTime !== undefined) {
    const t = indexBeside(file, '.timeindex')
    if (t === undefined) return { position: 0 }
    for (const e of decodeTimeIndex(t, file.baseOffset)) {
      if (e.timestamp >= BigInt(spec.fromTime)) break
      target = e.offset
    }
  } else {
    target = spec.startOffset
  }
  if (target === undefined) return { position: 0 }
  const idx = indexBeside(file, '.index')
  if (idx === undefined) return { position: 0 }
  let entry: { offset: bigint; position: number; index: number } | undefined
  for (const e of decodeOffsetIndex(idx, file.baseOffset)) {
    if (e.offset > target) break
    entry = e
  }
  if (entry === undefined || entry.position === 0) return { position: 0 }
  const held = Buffer.allocUnsafeSlow(Math.max(0, Math.min(CHECK_WINDOW, source.size - entry.position)))
  const why = entryProblem(source, entry.position, entry.offset, held)
  if (why === undefined) return { position: entry.position, ...(held.length > 0 ? { held } : {}) }
  const indexFile = file.path.slice(0, -'.log'.length) + '.index'
  return {
    position: 0,
    finding: finding(
      'SEEK_INDEX_UNUSABLE',
      `entry ${entry.index} (offset ${entry.offset}, position ${entry.position}): ${why}; ` +
        `${path.basename(file.path)} is read from its start instead`,
      { file: indexFile, position: entry.index * OFFSET_INDEX_ENTRY_SIZE },
    ),
  }
}

/**
 * Why the batch an index entry points at cannot be where reading starts (undefined: it can). `held` is filled from
 * `position` first and the entry framed in it; the dump then starts in those bytes (Seek.held), so they are read
 * once. A batch larger than `held` has its CRC streamed past it, and the dump reads the rest of it again.
 */
function entryProblem(source: SegmentSource, position: number, offset: bigint, held: Buffer): string | undefined {
  if (position < 0 || position >= source.size) return `the position is outside the segment (${source.size} bytes)`
  const n = source.readInto(held, position, held.length)
  const first = readLog(source, {
    from: position,
    verifyCrc: true,
    resync: false,
    window: Math.max(RECORD_BATCH_OVERHEAD, held.length),
    held: held.subarray(0, n),
    streamLarge: 'crc',
  }).next()
  const ev = first.done === true ? undefined : first.value
  if (ev === undefined || (ev.kind !== 'batch' && ev.kind !== 'legacy')) return 'no batch starts there'
  if (ev.kind === 'legacy') {
    // a legacy entry's offset field is its last (inner) offset; older brokers indexed a wrapper by its first inner one
    return ev.bytes.readBigInt64BE(0) >= offset ? undefined : 'the entry there ends before the indexed offset'
  }
  if (ev.crcValid !== true || ev.problems.length > 0) return 'the batch there does not check (CRC or header)'
  const h = ev.header
  return h.baseOffset <= offset && offset <= h.lastOffset
    ? undefined
    : `the batch there holds offsets ${h.baseOffset}..${h.lastOffset}`
}

/**
 * Segments of a partition directory that hold nothing in range. By their names: a segment's offsets lie in
 * [its base offset, the next segment's base offset) (without --from-time: a time range can begin in a segment
 * below the start offset). By time, as the broker's ListOffsets does (UnifiedLog.fetchOffsetByTimestamp takes the
 * first segment whose largest timestamp, its .timeindex's last entry, reaches the time): a segment that has a next
 * one and whose newest .timeindex entry is older than --from-time. Returns the paths to leave unread.
 */
export function segmentsOutOfRange(files: readonly KafkaFile[], spec: RangeSpec): Set<string> {
  const out = new Set<string>()
  const byDir = new Map<string, KafkaFile[]>()
  for (const f of files) {
    if (f.kind !== 'log' || f.baseOffset === null || f.stdin === true) continue
    const d = path.dirname(path.resolve(f.path))
    const list = byDir.get(d) ?? []
    list.push(f)
    byDir.set(d, list)
  }
  for (const list of byDir.values()) {
    list.sort((a, b) => (a.baseOffset! < b.baseOffset! ? -1 : a.baseOffset! > b.baseOffset! ? 1 : 0))
    for (let i = 0; i < list.length; i++) {
      const base = list[i]!.baseOffset!
      const next = list[i + 1]?.baseOffset
      const below =
        spec.fromTime === undefined &&
        spec.startOffset !== undefined &&
        next !== undefined &&
        next !== null &&
        next <= spec.startOffset
      const above = spec.endOffset !== undefined && base > spec.endOffset
      const older = spec.fromTime !== undefined && next !== undefined && newestTimestamp(list[i]!) < spec.fromTime
      if (below || above || older) out.add(list[i]!.path)
    }
  }
  return out
}

/** the largest timestamp of a segment's .timeindex; +Infinity when it has no entry or cannot be read (then the segment is read) */
function newestTimestamp(file: KafkaFile): number {
  const t = indexBeside(file, '.timeindex')
  if (t === undefined || file.baseOffset === null) return Number.POSITIVE_INFINITY
  let max: bigint | undefined
  for (const e of decodeTimeIndex(t, file.baseOffset)) if (max === undefined || e.timestamp > max) max = e.timestamp
  return max === undefined || max < 0n ? Number.POSITIVE_INFINITY : Number(max)
}
