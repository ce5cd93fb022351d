// .index dumps with verification against the segment, as kafka-dump-log does, but read-only (Kafka
// creates a missing index file) and without crashing on a bad position; and what the .timeindex dump
// (dump-time-index.ts) shares with it: the run's mismatch lists, the batch at a position, the
// preallocated and partial-entry checks.
import * as path from 'node:path'
import type { DumpPrinter } from '../../format/dump-printer.js'
import { textVariant } from '../../format/kafka-versions.js'
import type { OffsetIndexEntry } from '../../decode/index-files.js'
import {
  decodeOffsetIndex,
  OFFSET_INDEX_ENTRY_SIZE,
  offsetIndexPosition,
  offsetIndexRelativeOffset,
} from '../../decode/index-files.js'
import { toBigInt } from '../../bytes/int64.js'
import * as L from '../../decode/layout.js'
import { frameProblem, scanFrames } from '../../decode/frame-scanner.js'
import { OffsetPairs, offsetPairsOf } from '../../analysis/offset-pairs.js'
import type { KafkaFile } from '../../io/discover.js'
import { describeFsError } from '../../io/discover.js'
import { FileSource } from '../../io/file-source.js'
import { BufferSource } from '../../io/buffer-source.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import { entryPrefix, entryWindows } from '../../decode/entry-windows.js'
import { PrefixSource } from '../../io/prefix-source.js'
import type { DumpOptions } from './dump-options.js'
import { finding } from '../../analysis/findings.js'
import type { FindingLog } from './finding-log.js'
import type { BatchPositions } from './batch-positions.js'
import type { TimeIndexStamps } from './time-stamps.js'
import { HELD_INDEX_PREFIX_BYTES } from './time-stamps.js'
import type { FramedHeaders } from './framed-headers.js'
import { batchSeenAt, framedHeaders } from './framed-headers.js'

export interface IndexRunState {
  /** offset index mismatches per absolute path: (index offset, log offset), newest first as Kafka lists them */
  indexMismatches: Map<string, OffsetPairs>
  timeMismatches: Map<string, Array<[bigint, bigint]>>
  timeOutOfOrder: Map<string, Array<[bigint, bigint]>>
  timeNotFound: Map<string, Array<[bigint, bigint]>>
  /** the batches the dump of the segment's .log saw (dumped before its indexes): verifying reads it no second time */
  seen?: BatchPositions | undefined
  /** the .index dumped last, when read whole: the .timeindex check of its segment after it looks its entries up there */
  offsetIndex?: { path: string; bytes: Buffer } | undefined
  /** the segment's .timeindex read before its .log, and the record timestamps the .log's dump took for its check */
  stamps?: TimeIndexStamps | undefined
  /** the entries the segment's index checks framed from its .log themselves (what its dump did not keep) */
  framed?: FramedHeaders | undefined
  /** the segments (resolved .log paths) whose .timeindex this run checks: only their .index checks keep what they frame */
  timeIndexed?: ReadonlySet<string> | undefined
}

export function newIndexRunState(): IndexRunState {
  return { indexMismatches: new Map(), timeMismatches: new Map(), timeOutOfOrder: new Map(), timeNotFound: new Map() }
}

export function companion(file: KafkaFile, suffix: string): string {
  return path.join(path.dirname(file.path), file.name.split('.')[0] + suffix)
}

/** whether the log's dump met damage at `position` where batchAt frames nothing either (its reason is not needed then) */
export function unframedSeenAt(seen: BatchPositions | undefined, logPath: string, position: number): boolean {
  return seen !== undefined && seen.log === logPath && seen.at(position) === undefined && seen.unframedAt(position)
}

export function openLog(file: KafkaFile, log: FindingLog): FileSource | undefined {
  const p = companion(file, '.log')
  try {
    return new FileSource(p)
  } catch (e) {
    log.add({
      severity: 'warning',
      code: 'NO_SEGMENT',
      file: file.path,
      position: 0,
      message: `cannot verify against ${p}: ${describeFsError(e)}`,
    })
    return undefined
  }
}

export function dumpOffsetIndex(
  file: KafkaFile,
  opts: DumpOptions,
  printer: DumpPrinter,
  log: FindingLog,
  state: IndexRunState,
): void {
  const src = openIndexFile(file.path, OFFSET_INDEX_ENTRY_SIZE, (w, first) => decodeOffsetIndex(w, 0n, first))
  // kept for the segment's .timeindex check after it, which looks its entries up (dump-time-index.ts)
  const held =
    src instanceof BufferSource ? src.buf : src instanceof PrefixSource && src.complete ? src.prefix : undefined
  state.offsetIndex = held !== undefined ? { path: path.resolve(file.path), bytes: held } : undefined
  try {
    dumpOffsetIndexFrom(src, file, opts, printer, log, state)
  } finally {
    src.close()
  }
}

/** an index file of up to this many bytes is read whole, once: its checks read its first and last entries, then all */
const HELD_INDEX_BYTES = 1024 * 1024

/**
 * An index file read whole when small (the preallocation and sanity checks, which read single entries, and the
 * entries' dump read it once), else its windows up to its first zero entry (the active segment's preallocated
 * segment.index.bytes, 10 MiB) held, at most HELD_INDEX_PREFIX_BYTES, and the rest read from the file: any size works
 * (a sparse multi-GiB index ends at its first zero entry).
 */
export function openIndexFile(
  p: string,
  entrySize: number,
  decode: (window: Buffer, firstIndex: number) => Iterable<unknown>,
): SegmentSource & { close(): void } {
  const src = new FileSource(p)
  try {
    if (src.size <= HELD_INDEX_BYTES) return new BufferSource(src.readAt(0, src.size), p)
    const { bytes, complete } = entryPrefix(src, entrySize, decode, HELD_INDEX_PREFIX_BYTES)
    return new PrefixSource(bytes, p, src.size, complete)
  } finally {
    src.close()
  }
}

function dumpOffsetIndexFrom(
  src: SegmentSource,
  file: KafkaFile,
  opts: DumpOptions,
  printer: DumpPrinter,
  log: FindingLog,
  state: IndexRunState,
): void {
  const base = file.baseOffset ?? 0n
  const entries = Math.floor(src.size / OFFSET_INDEX_ENTRY_SIZE)
  if (!opts.indexSanityCheck) partialEntry(file, src, OFFSET_INDEX_ENTRY_SIZE, 'INDEX_PARTIAL_ENTRY', opts, log)
  if (entries === 0) {
    printer.indexEmpty(file)
    return
  }
  if (opts.indexSanityCheck) {
    sanityOffsetIndex(file, src, base, printer, log)
    return
  }
  const prealloc = preallocated(file, src, OFFSET_INDEX_ENTRY_SIZE, opts, log)
  if (prealloc === 'done') return
  const opened = openLog(file, log)
  const logPath = path.resolve(companion(file, '.log'))
  const seg = opened !== undefined && state.seen?.log === logPath ? state.seen.source(opened) : opened
  // only kafka-dump-log's closing block (--compat) lists them; tsdump's text has a finding per entry
  const mismatches = new OffsetPairs(opts.compat ? undefined : 0)
  // what is framed here is kept for the segment's .timeindex check only: 200,000 entries held cost 30 MiB for none
  const framed = state.timeIndexed?.has(logPath) === true ? framedHeaders(state, logPath) : undefined
  try {
    let prev: OffsetIndexEntry | undefined
    // entries are decoded one at a time (never all held: 200 k mismatching entries were 300 MiB)
    for (const e of entryWindows(src, OFFSET_INDEX_ENTRY_SIZE, (w, first) => decodeOffsetIndex(w, base, first))) {
      if (seg !== undefined) {
        const damage = opts.compat || state.seen?.log !== logPath ? undefined : state.seen.damageAt(e.position)
        // damage the dump met at the entry's position: nothing to frame there, and its reason is the log's finding
        const b =
          damage !== undefined && unframedSeenAt(state.seen, logPath, e.position)
            ? 'damaged'
            : batchSeenAt(state.seen, logPath, seg, e.position, opts.maxMessageSize, framed)
        if (typeof b === 'string' && damage !== undefined) {
          // the entry points into bytes the log's dump could not read: the damage is the log's, already reported
          log.add({
            severity: 'info',
            code: 'INDEX_NOT_CHECKED',
            file: file.path,
            position: e.index * 8,
            message: `entry ${e.index} (offset ${e.offset}) points at log position ${e.position}, inside bytes ${damage.from}..${damage.to} of the log that could not be read: not checked (see the log's finding there)`,
          })
        } else if (typeof b === 'string') {
          if (!prealloc)
            log.add({
              severity: 'error',
              code: 'INDEX_BAD_POSITION',
              file: file.path,
              position: e.index * 8,
              message: `entry ${e.index} (offset ${e.offset}): ${b}`,
            })
        } else if (b.lastOffset !== e.offset) {
          mismatches.push(e.offset, b.lastOffset)
          if (!opts.compat) {
            log.add({
              severity: 'error',
              code: 'INDEX_MISMATCH',
              file: file.path,
              position: e.index * 8,
              message: `entry ${e.index}: index offset ${e.offset} but the batch at log position ${e.position} ends at offset ${b.lastOffset}`,
            })
          }
        }
      }
      if (prev !== undefined && (e.offset <= prev.offset || e.position <= prev.position) && !opts.compat) {
        log.add({
          severity: 'error',
          code: 'INDEX_NOT_MONOTONIC',
          file: file.path,
          position: e.index * 8,
          message: `entry ${e.index} (offset ${e.offset}, position ${e.position}) does not follow entry ${prev.index} (offset ${prev.offset}, position ${prev.position})`,
        })
      }
      prev = e
      if (opts.verifyIndexOnly) continue
      printer.indexEntry(file, e)
    }
  } finally {
    opened?.close()
  }
  if (mismatches.length > 0) {
    state.indexMismatches.set(
      path.resolve(file.path),
      opts.compat && textVariant(opts.kafkaVersion).indexMismatchRepeats === 'collapsed'
        ? collapsed(mismatches)
        : mismatches,
    )
    if (opts.compat && !prealloc) log.exitCode = Math.max(log.exitCode, 1)
  }
}

function sanityOffsetIndex(
  file: KafkaFile,
  src: SegmentSource,
  base: bigint,
  printer: DumpPrinter,
  log: FindingLog,
): void {
  // OffsetIndex.sanityCheck: entries != 0 && lastOffset < baseOffset, or a length not a multiple of 8
  const n = Math.floor(src.size / OFFSET_INDEX_ENTRY_SIZE)
  const lastRel =
    n > 0 ? offsetIndexRelativeOffset(src.readAt((n - 1) * OFFSET_INDEX_ENTRY_SIZE, OFFSET_INDEX_ENTRY_SIZE), 0) : 0
  const last = base + BigInt(lastRel)
  if (src.size % OFFSET_INDEX_ENTRY_SIZE !== 0) {
    log.add({
      severity: 'error',
      code: 'INDEX_CORRUPT',
      file: file.path,
      position: n * OFFSET_INDEX_ENTRY_SIZE,
      message: `index file size ${src.size} is not a multiple of ${OFFSET_INDEX_ENTRY_SIZE}`,
    })
  } else if (last < base) {
    log.add({
      severity: 'error',
      code: 'INDEX_CORRUPT',
      file: file.path,
      position: (n - 1) * OFFSET_INDEX_ENTRY_SIZE,
      message: `last offset ${last} is below the base offset ${base}`,
    })
  } else {
    let entries = 0
    for (const _ of entryWindows(src, OFFSET_INDEX_ENTRY_SIZE, (w, first) => decodeOffsetIndex(w, base, first)))
      entries++
    printer.sanityPassed(file, entries)
  }
}

/** OffsetIndex.lookup: position of the largest entry ≤ target, else 0 (a binary search on the entries' bytes) */
export function lookup(idx: Buffer, entries: number, base: bigint, target: bigint): number {
  let lo = 0
  let hi = entries - 1
  let found = 0
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    if (base + BigInt(offsetIndexRelativeOffset(idx, mid)) <= target) {
      found = offsetIndexPosition(idx, mid)
      lo = mid + 1
    } else hi = mid - 1
  }
  return found
}

/** 4.3+ keep mismatches in a TreeMap(reverseOrder): one pair per index offset, the last log offset seen, descending */
function collapsed(pairs: OffsetPairs): OffsetPairs {
  const newestFirst = [...pairs]
  const m = new Map<bigint, bigint>()
  for (let i = newestFirst.length - 1; i >= 0; i--) m.set(newestFirst[i]![0], newestFirst[i]![1])
  return offsetPairsOf([...m].sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0)))
}

/**
 * An index file of zero bytes only: the active segment's preallocated space (segment.index.bytes) before its
 * first entry (one per log.index.interval.bytes of log). Normal on a live broker, and Kafka exits 0 on it.
 * Default mode: one info note and no entries. --compat: true, so the caller prints Kafka's text (its zero
 * entry and the mismatch it lists) without a finding or an exit code. Otherwise false.
 */
export function preallocated(
  file: KafkaFile,
  src: SegmentSource,
  entrySize: number,
  opts: DumpOptions,
  log: FindingLog,
): boolean | 'done' {
  if (src.size === 0 || !allZero(src, entrySize)) return false
  if (opts.compat) return true
  log.add(
    finding(
      'INDEX_PREALLOCATED',
      `${src.size} bytes of zero-filled, preallocated index space and no entry yet (an active segment)`,
      { file: file.path, position: 0 },
    ),
  )
  return 'done'
}

/** bytes after the last whole entry (a torn write): ignored, as the broker's index does, but said (as for .txnindex) */
export function partialEntry(
  file: KafkaFile,
  src: SegmentSource,
  size: number,
  code: 'INDEX_PARTIAL_ENTRY' | 'TIMEINDEX_PARTIAL_ENTRY',
  opts: DumpOptions,
  log: FindingLog,
): void {
  const rest = src.size % size
  if (rest === 0 || opts.compat) return
  log.add(
    finding(code, `${rest} bytes at the end do not make a whole ${size}-byte entry (ignored, as the broker does)`, {
      file: file.path,
      position: src.size - rest,
    }),
  )
}

/**
 * Where the preallocated space starts the index ends (Kafka's own index ends at its first zero entry, and
 * the windowed decode stops there): a zero first entry is an index of zero bytes only as far as it is
 * read. Never reading on: a sparse multi-GiB index would be read whole (the fuzz harness's 4 GiB ones).
 */
function allZero(src: SegmentSource, entrySize: number): boolean {
  return src.readAt(0, Math.min(entrySize, src.size)).every((b) => b === 0)
}
