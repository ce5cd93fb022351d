// The record timestamps a segment's .timeindex check needs, taken while the dump of its .log passes the batches
// (kafka-dump-log's DumpLogSegments.dumpTimeIndex compares each entry with the records of the batch holding its
// offset): the .timeindex is read before its .log, once, and its bytes kept for its own dump after it, so that
// neither file is read a second time. A batch not seen here (legacy, larger than the read window, past
// --max-bytes) is read from the log by the check, as before.
import { decodeBatchHeader } from '../../decode/batch-header.js'
import { DecodeError } from '../../decode/errors.js'
import { decodeTimeIndex, TIME_INDEX_ENTRY_SIZE } from '../../decode/index-files.js'
import { entryPrefix } from '../../decode/entry-windows.js'
import { decodeLegacyEntry, decodeLegacyRecords } from '../../decode/legacy.js'
import type { V2Batch } from '../../decode/log-reader.js'
import { decodeRecords } from '../../decode/records.js'
import { OFFSET_OFFSET } from '../../decode/layout.js'
import { BatchView } from '../../decode/batch-view.js'
import { FileSource } from '../../io/file-source.js'
import type { DumpOptions } from './dump-options.js'
import { lowerBound } from '../../bytes/sorted-search.js'

/**
 * of a .timeindex, at most this much is held: the file whole, or its windows up to its first zero entry (the active
 * segment's is preallocated to segment.index.bytes, 10 MiB); its entries are about 3 per 4 KiB of log (a 1 GiB
 * segment's 3 MiB). The entries past it are checked by reading their batches from the log again.
 */
const MAX_HELD_BYTES = 4 * 1024 * 1024

/** of an index file larger than dump-index.ts holds whole, at most this much is held (a 1 GiB segment's .index is 2 MiB) */
export const HELD_INDEX_PREFIX_BYTES = MAX_HELD_BYTES

/** what the check reads of the batch at a position: its records' largest timestamp, each indexed offset's timestamp */
export interface BatchStamps {
  maxTimestamp: bigint | string
  at: Map<number, bigint | undefined>
}

const view = new BatchView()

export class TimeIndexStamps {
  private readonly byPosition = new Map<number, BatchStamps>()

  private constructor(
    /** resolved paths of the .timeindex and its .log */
    readonly timeIndex: string,
    readonly log: string,
    /** the .timeindex's bytes (all its entries, or its first MAX_HELD_BYTES), dumped from here after the .log */
    readonly bytes: Buffer,
    /** the .timeindex's size */
    readonly size: number,
    /** the entries' offsets, ascending, without repeats */
    private readonly offsets: Float64Array,
  ) {}

  /** the .timeindex at `timeIndex` read whole, or undefined when it cannot be or is too large to hold */
  static read(timeIndex: string, log: string, baseOffset: bigint): TimeIndexStamps | undefined {
    let bytes: Buffer
    let size: number
    try {
      const src = new FileSource(timeIndex)
      try {
        size = src.size
        bytes =
          size <= MAX_HELD_BYTES
            ? src.readAt(0, size)
            : entryPrefix(src, TIME_INDEX_ENTRY_SIZE, (w, first) => decodeTimeIndex(w, 0n, first), MAX_HELD_BYTES).bytes
      } finally {
        src.close()
      }
    } catch {
      return undefined // its own dump says why, in its turn
    }
    const list: number[] = []
    for (const e of decodeTimeIndex(bytes, baseOffset)) {
      const n = Number(e.offset)
      if (Number.isSafeInteger(n)) list.push(n)
    }
    list.sort((a, b) => a - b)
    const offsets = Float64Array.from(list.filter((v, i) => i === 0 || v !== list[i - 1]))
    return new TimeIndexStamps(timeIndex, log, bytes, size, offsets)
  }

  /** a v2 batch the dump framed: its timestamps kept when an entry's offset lies in it */
  batch(b: V2Batch, opts: DumpOptions): void {
    if (!b.complete || this.offsets.length === 0) return
    const v = view.of(b.bytes, b.position)
    const base = v.int64(OFFSET_OFFSET)
    if (typeof base !== 'number') return
    const last = base + v.lastOffsetDelta
    let i = lowerBound(this.offsets, base)
    if (i === this.offsets.length || this.offsets[i]! > last) return
    const at = new Map<number, bigint | undefined>()
    for (; i < this.offsets.length && this.offsets[i]! <= last; i++) at.set(this.offsets[i]!, undefined)
    this.byPosition.set(b.position, { maxTimestamp: readStamps(b.bytes, b.position, opts, at), at })
  }

  /** what the dump kept of the batch at `position` of `log` */
  stampsAt(log: string, position: number): BatchStamps | undefined {
    return log === this.log ? this.byPosition.get(position) : undefined
  }
}

/** the largest timestamp of the records of the entry in `bytes` (at file position `pos`), or why it cannot be read */
export function maxRecordTimestamp(bytes: Buffer, pos: number, magic: number, opts: DumpOptions): bigint | string {
  let max = -1n
  try {
    if (magic < 2) {
      for (const r of decodeLegacyRecords(decodeLegacyEntry(bytes, pos), opts)) if (r.timestamp > max) max = r.timestamp
    } else {
      const h = decodeBatchHeader(bytes, pos)
      for (const r of decodeRecords(h, bytes, opts)) if (r.timestamp > max) max = r.timestamp
    }
  } catch (e) {
    if (e instanceof DecodeError) return e.message
    throw e
  }
  return max
}

/**
 * One pass over the records of the v2 batch in `bytes`: the largest timestamp (or why the records cannot be read, as
 * maxRecordTimestamp says it) and the timestamp of each record whose offset is a key of `at` (read before any damage)
 */
function readStamps(
  bytes: Buffer,
  pos: number,
  opts: DumpOptions,
  at: Map<number, bigint | undefined>,
): bigint | string {
  let max = -1n
  try {
    const h = decodeBatchHeader(bytes, pos)
    for (const r of decodeRecords(h, bytes, opts)) {
      if (r.timestamp > max) max = r.timestamp
      const o = Number(r.offset)
      if (at.has(o) && at.get(o) === undefined) at.set(o, r.timestamp)
    }
  } catch (e) {
    if (e instanceof DecodeError) return e.message
    throw e
  }
  return max
}

/** the timestamp of the record at `offset` in the v2 batch in `bytes`, if it can be read */
export function recordTimestampAt(bytes: Buffer, pos: number, offset: bigint, opts: DumpOptions): bigint | undefined {
  try {
    const h = decodeBatchHeader(bytes, pos)
    for (const r of decodeRecords(h, bytes, opts)) if (r.offset === offset) return r.timestamp
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e
  }
  return undefined
}
