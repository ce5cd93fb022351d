// .timeindex dumps with verification against the segment, as kafka-dump-log does (read-only, no crash on
// a bad position); the helpers it shares with the .index dump are in dump-index.ts.
import * as path from 'node:path'
import type { DumpPrinter } from '../../format/dump-printer.js'
import type { TimeIndexEntry } from '../../decode/index-files.js'
import {
  decodeOffsetIndex,
  decodeTimeIndex,
  TIME_INDEX_ENTRY_SIZE,
  timeIndexRelativeOffset,
  timeIndexTimestamp,
} from '../../decode/index-files.js'
import type { Finding } from '../../analysis/findings.js'
import type { KafkaFile } from '../../io/discover.js'
import { FileSource, readSmallFile } from '../../io/file-source.js'
import { BufferSource } from '../../io/buffer-source.js'
import { PrefixSource } from '../../io/prefix-source.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import { maxRecordTimestamp, recordTimestampAt } from './time-stamps.js'
import { entryWindows } from '../../decode/entry-windows.js'
import type { IndexRunState } from './dump-index.js'
import type { BatchAt } from './framed-headers.js'
import { batchSeenAt, framedHeaders } from './framed-headers.js'
import { companion, lookup, openIndexFile, openLog, partialEntry, preallocated, unframedSeenAt } from './dump-index.js'
import type { DumpOptions } from './dump-options.js'
import type { FindingLog } from './finding-log.js'

/**
 * Where the last forward scan of the log stopped: it started at `from`, every batch in [from, pos) ends
 * at or below `maxLast`, and `pos` is the next batch (or where framing stopped). An entry whose scan
 * starts at `from` too and whose offset is above `maxLast` resumes at `pos` with the same result as a
 * scan from `from`: without a .index every scan starts at 0, and entries beyond the log end rescanned
 * the whole log each (Kafka's DumpLogSegments does; 116 entries a minute on a long log).
 */
interface ScanCursor {
  from: number
  pos: number
  maxLast: bigint
  ended: boolean
}

export function dumpTimeIndex(
  file: KafkaFile,
  opts: DumpOptions,
  printer: DumpPrinter,
  log: FindingLog,
  state: IndexRunState,
): void {
  // the bytes read before the segment's .log, when its dump took the records' timestamps (time-stamps.ts)
  const held = state.stamps?.timeIndex === path.resolve(file.path) ? state.stamps : undefined
  const src: SegmentSource =
    held !== undefined
      ? new PrefixSource(held.bytes, file.path, held.size, true)
      : openIndexFile(file.path, TIME_INDEX_ENTRY_SIZE, (w, first) => decodeTimeIndex(w, 0n, first))
  try {
    dumpTimeIndexFrom(src, file, opts, printer, log, state)
  } finally {
    src.close()
  }
}

function dumpTimeIndexFrom(
  src: SegmentSource,
  file: KafkaFile,
  opts: DumpOptions,
  printer: DumpPrinter,
  log: FindingLog,
  state: IndexRunState,
): void {
  const base = file.baseOffset ?? 0n
  if (opts.indexSanityCheck) {
    sanityTimeIndex(file, src, base, printer, log)
    return
  }
  partialEntry(file, src, TIME_INDEX_ENTRY_SIZE, 'TIMEINDEX_PARTIAL_ENTRY', opts, log)
  const prealloc = preallocated(file, src, TIME_INDEX_ENTRY_SIZE, opts, log)
  if (prealloc === 'done') return
  // preallocated space in --compat: Kafka's lines and lists, but no finding (the space is normal)
  const report = (f: Finding): void => {
    if (!prealloc) log.add(f)
  }
  let idx: Buffer = Buffer.alloc(0)
  const idxPath = companion(file, '.index')
  try {
    // the .index this run dumped just before, as it read it
    idx = state.offsetIndex?.path === path.resolve(idxPath) ? state.offsetIndex.bytes : readSmallFile(idxPath)
  } catch {
    /* no offset index: scan from 0 */
  }
  let idxEntries = 0
  for (const _ of decodeOffsetIndex(idx, base)) idxEntries++
  const cursor: ScanCursor = { from: -1, pos: 0, maxLast: -1n, ended: false }
  const opened = openLog(file, log)
  const logPath = path.resolve(companion(file, '.log'))
  const seg = opened !== undefined && state.seen?.log === logPath ? state.seen.source(opened) : opened
  const framed = framedHeaders(state, logPath)
  const abs = path.resolve(file.path)
  let prevTs = -1n
  try {
    for (const e of entryWindows(src, TIME_INDEX_ENTRY_SIZE, (w, first) => decodeTimeIndex(w, base, first))) {
      if (seg !== undefined) checkTimeEntry(e, seg, prevTs, opts, report, file)
      prevTs = e.timestamp
      if (opts.verifyIndexOnly) continue
      printer.timeIndexEntry(file, e)
    }
  } finally {
    opened?.close()
  }

  // only kafka-dump-log's closing blocks (--compat) list these pairs; elsewhere each is a finding already,
  // written when found, and keeping the pairs too made memory grow with the mismatches for nothing
  function push(m: Map<string, Array<[bigint, bigint]>>, pair: [bigint, bigint]): void {
    if (!opts.compat) return
    const l = m.get(abs) ?? []
    l.push(pair)
    m.set(abs, l)
  }
  function checkTimeEntry(
    e: TimeIndexEntry,
    seg: SegmentSource,
    prev: bigint,
    o: DumpOptions,
    add: (f: Finding) => void,
    f: KafkaFile,
  ): void {
    const from = lookup(idx, idxEntries, base, e.offset)
    let pos = from
    let maxLast = -1n
    if (cursor.from === from && e.offset > cursor.maxLast) {
      pos = cursor.pos
      maxLast = cursor.maxLast
    }
    // scan forward from the indexed position to the first batch whose lastOffset >= the entry's offset
    let hit: BatchAt | undefined
    let hitPos = pos
    let ended = cursor.from === from && pos === cursor.pos && cursor.ended
    for (let guard = 0; !ended && pos < seg.size && guard < 1_000_000; guard++) {
      // the walk stops where nothing can be framed: at damage the log's dump met there, unread again
      const b = unframedSeenAt(state.seen, logPath, pos)
        ? 'damaged'
        : batchSeenAt(state.seen, logPath, seg, pos, Number.MAX_SAFE_INTEGER, framed)
      if (typeof b === 'string') {
        ended = true
        break
      }
      if (b.lastOffset >= e.offset) {
        hit = b
        hitPos = pos
        break
      }
      if (b.lastOffset > maxLast) maxLast = b.lastOffset
      pos += b.sizeInBytes
    }
    if (pos >= seg.size) ended = true
    Object.assign(cursor, { from, pos, maxLast, ended })
    if (hit !== undefined && hit.lastOffset !== e.offset && hit.baseOffset <= e.offset && hit.magic >= 2) {
      // Older brokers indexed the offset of the record with the largest timestamp,
      // not the batch's last offset. kafka-dump-log 3.9 calls this "not found"; it is not damage if the
      // record there carries the indexed timestamp.
      push(state.timeNotFound, [e.offset, hit.lastOffset])
      const kept = state.stamps?.stampsAt(logPath, hitPos)?.at
      const ts =
        kept?.has(Number(e.offset)) === true
          ? kept.get(Number(e.offset))
          : recordTimestampAt(framed.entryBytes(seg, hitPos, hit.sizeInBytes), hitPos, e.offset, o)
      if (ts === e.timestamp) {
        add({
          severity: 'info',
          code: 'TIMEINDEX_RECORD_OFFSET',
          file: f.path,
          position: e.index * 12,
          message: `entry ${e.index}: offset ${e.offset} is inside the batch ending at ${hit.lastOffset} and its record has the indexed timestamp (written by an older broker)`,
        })
        if (prev >= e.timestamp) push(state.timeOutOfOrder, [e.timestamp, prev])
        return
      }
    }
    const damage =
      hit !== undefined || opts.compat || state.seen?.log !== logPath ? undefined : state.seen.damageAt(pos)
    if (damage !== undefined) {
      // the walk to the entry's batch stopped in bytes the log's dump could not read: the damage is the log's
      add({
        severity: 'info',
        code: 'TIMEINDEX_NOT_CHECKED',
        file: f.path,
        position: e.index * 12,
        message: `entry ${e.index} (offset ${e.offset}): its batch lies past log bytes ${damage.from}..${damage.to} that could not be read: not checked (see the log's finding there)`,
      })
      return
    }
    if (hit === undefined || hit.lastOffset !== e.offset) {
      if (!(hit !== undefined && hit.baseOffset <= e.offset && hit.magic >= 2))
        push(state.timeNotFound, [e.offset, hit?.lastOffset ?? -1n])
      add({
        severity: 'error',
        code: 'TIMEINDEX_OFFSET_NOT_FOUND',
        file: f.path,
        position: e.index * 12,
        message: `entry ${e.index}: indexed offset ${e.offset} is not the last offset of a batch (found ${hit?.lastOffset ?? -1n})`,
      })
      return
    }
    const maxTs =
      state.stamps?.stampsAt(logPath, hitPos)?.maxTimestamp ??
      maxRecordTimestamp(framed.entryBytes(seg, hitPos, hit.sizeInBytes), hitPos, hit.magic, o)
    if (typeof maxTs === 'string') {
      add({
        severity: 'error',
        code: 'TIMEINDEX_UNVERIFIABLE',
        file: f.path,
        position: e.index * 12,
        message: `entry ${e.index}: ${maxTs}`,
      })
    } else if (maxTs !== e.timestamp) {
      push(state.timeMismatches, [e.timestamp, maxTs])
      add({
        severity: 'error',
        code: 'TIMEINDEX_MISMATCH',
        file: f.path,
        position: e.index * 12,
        message: `entry ${e.index}: index timestamp ${e.timestamp}, but the batch ending at offset ${e.offset} has max timestamp ${maxTs}`,
      })
    }
    if (prev >= e.timestamp) {
      push(state.timeOutOfOrder, [e.timestamp, prev])
      add({
        severity: 'error',
        code: 'TIMEINDEX_OUT_OF_ORDER',
        file: f.path,
        position: e.index * 12,
        message: `entry ${e.index}: timestamp ${e.timestamp} is not after the previous entry's ${prev}`,
      })
    }
  }
}

function sanityTimeIndex(
  file: KafkaFile,
  src: SegmentSource,
  base: bigint,
  printer: DumpPrinter,
  log: FindingLog,
): void {
  const n = Math.floor(src.size / TIME_INDEX_ENTRY_SIZE)
  let problem: string | undefined
  let at = (n - 1) * TIME_INDEX_ENTRY_SIZE // the last entry, which both value checks read
  if (n > 0) {
    const firstTs = timeIndexTimestamp(src.readAt(0, TIME_INDEX_ENTRY_SIZE), 0)
    const lastEntry = src.readAt((n - 1) * TIME_INDEX_ENTRY_SIZE, TIME_INDEX_ENTRY_SIZE)
    const lastTs = timeIndexTimestamp(lastEntry, 0)
    const lastOff = base + BigInt(timeIndexRelativeOffset(lastEntry, 0))
    if (lastTs < firstTs) problem = `last timestamp ${lastTs} is before the first ${firstTs}`
    else if (lastOff < base) problem = `last offset ${lastOff} is below the base offset ${base}`
  }
  if (src.size % TIME_INDEX_ENTRY_SIZE !== 0) {
    problem = `time index file size ${src.size} is not a multiple of ${TIME_INDEX_ENTRY_SIZE}`
    at = n * TIME_INDEX_ENTRY_SIZE
  }
  if (problem !== undefined)
    log.add({ severity: 'error', code: 'TIMEINDEX_CORRUPT', file: file.path, position: at, message: problem })
  else printer.sanityPassed(file, n)
}
