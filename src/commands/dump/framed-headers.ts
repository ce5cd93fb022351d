// The entry at a position of a segment's .log, as the .index and .timeindex checks take it (batchAt; from what the
// dump of the .log kept when it has it, batchSeenAt), and the entries the checks framed from the .log themselves (the
// dump did not see them: --verify-index-only reads no .log, and a legacy entry is not kept by batch-positions.ts): each
// entry's offsets and size, and the bytes framed at its position (its header, or the whole entry when that small),
// so that the .timeindex check after the .index check frames no position twice, and reads an entry's records from
// the rest of its bytes alone. kafka-dump-log frames each index entry's batch and then reads the batch again for
// its records (DumpLogSegments.dumpTimeIndex); the answers are the same, read once. Bounded: past MAX_ENTRIES
// nothing more is kept, and a position not kept is framed from the file again. An index's entries ascend, so their
// positions are kept in an array searched by halves; the .timeindex walk's positions between them (and a damaged
// index's out of order) in a map.
import type { SegmentSource } from '../../decode/segment-source.js'
import * as L from '../../decode/layout.js'
import { toBigInt } from '../../bytes/int64.js'
import { frameProblem, scanFrames } from '../../decode/frame-scanner.js'
import type { BatchPositions } from './batch-positions.js'
import { partitionPoint } from '../../bytes/sorted-search.js'

/** an entry at a position of the log, as the index checks take it (dump-index.ts batchAt) */
export interface BatchAt {
  baseOffset: bigint
  lastOffset: bigint
  sizeInBytes: number
  magic: number
}

/**
 * 64 K entries (a 1 GiB segment of 16 KiB batches, or 256 MiB at log.index.interval.bytes' 4 KiB): 6 MiB at most.
 * 256 K took --verify-index-only of a hostile .index and .timeindex (200,000 entries, one per 69-byte batch) from
 * 111 to 135 MiB peak RSS.
 */
const MAX_ENTRIES = 1 << 16

/** positions where nothing frames: each is an index entry's finding, so few */
const MAX_FAILURES = 4096

export class FramedHeaders {
  /** the positions of the first `ascending` entries kept, ascending: entry i's fields are at index i of the arrays */
  private positions = new Float64Array(256)
  private ascending = 0
  /** the slots of the entries kept after one out of order */
  private readonly unordered = new Map<number, number>()
  private count = 0
  private readonly failures = new Map<number, { reason: string; maxBytes: number; anyLimit: boolean }>()
  private bases = new BigInt64Array(256)
  private lasts = new BigInt64Array(256)
  private sizes = new Float64Array(256)
  private magics = new Int8Array(256)
  private headLengths = new Uint8Array(256)
  private heads = Buffer.alloc(256 * L.RECORD_BATCH_OVERHEAD)

  /** `log`: the resolved path of the .log the entries are from */
  constructor(readonly log: string) {}

  /** the entry framed at `position`, with `head`, the bytes framed there (at most RECORD_BATCH_OVERHEAD are kept) */
  add(position: number, b: BatchAt, head: Buffer): void {
    const n = this.count
    if (n === MAX_ENTRIES || this.slot(position) !== undefined) return
    if (n === this.bases.length) this.grow()
    if (this.ascending === n && (n === 0 || position > this.positions[n - 1]!)) {
      this.positions[n] = position
      this.ascending = n + 1
    } else {
      this.unordered.set(position, n)
    }
    this.bases[n] = b.baseOffset
    this.lasts[n] = b.lastOffset
    this.sizes[n] = b.sizeInBytes
    this.magics[n] = b.magic
    const len = Math.min(head.length, L.RECORD_BATCH_OVERHEAD)
    head.copy(this.heads, n * L.RECORD_BATCH_OVERHEAD, 0, len) // copy: the framed bytes, read once for both checks
    this.headLengths[n] = len
    this.count = n + 1
  }

  /**
   * nothing frames at `position` under the limit `maxBytes`, for `reason`; `anyLimit`: nor under a larger one (a tail,
   * a bad magic: not the limit's doing)
   */
  failed(position: number, reason: string, maxBytes: number, anyLimit: boolean): void {
    if (this.failures.size < MAX_FAILURES) this.failures.set(position, { reason, maxBytes, anyLimit })
  }

  /** why nothing frames at `position` under the limit `maxBytes`, if known */
  failureAt(position: number, maxBytes: number): string | undefined {
    const f = this.failures.get(position)
    if (f === undefined) return undefined
    return f.maxBytes === maxBytes || (f.anyLimit && maxBytes >= f.maxBytes) ? f.reason : undefined
  }

  /** the entry framed at `position`, if kept */
  at(position: number): BatchAt | undefined {
    const i = this.slot(position)
    if (i === undefined) return undefined
    return {
      baseOffset: this.bases[i]!,
      lastOffset: this.lasts[i]!,
      sizeInBytes: this.sizes[i]!,
      magic: this.magics[i]!,
    }
  }

  /**
   * The `size` bytes of the entry at `position` of `log`: what was framed there taken from here, the rest read after
   * it (a new buffer: the caller decodes the entry's records from it)
   */
  entryBytes(log: SegmentSource, position: number, size: number): Buffer {
    const i = this.slot(position)
    const kept = i === undefined ? 0 : Math.min(this.headLengths[i]!, size)
    if (kept === 0) return log.readAt(position, size)
    const buf = Buffer.allocUnsafe(size)
    this.heads.copy(buf, 0, i! * L.RECORD_BATCH_OVERHEAD, i! * L.RECORD_BATCH_OVERHEAD + kept) // copy: the framed head
    const n = size > kept ? log.readInto(buf.subarray(kept), position + kept, size - kept) : 0
    return buf.subarray(0, kept + n)
  }

  /** the index of the entry kept at `position`, if any */
  private slot(position: number): number | undefined {
    const n = this.ascending
    const i = partitionPoint(n, (j) => this.positions[j]! < position)
    return i < n && this.positions[i] === position ? i : this.unordered.get(position)
  }

  private grow(): void {
    const m = this.bases.length * 2
    this.positions = grown(this.positions, new Float64Array(m))
    this.bases = grown(this.bases, new BigInt64Array(m))
    this.lasts = grown(this.lasts, new BigInt64Array(m))
    this.sizes = grown(this.sizes, new Float64Array(m))
    this.magics = grown(this.magics, new Int8Array(m))
    this.headLengths = grown(this.headLengths, new Uint8Array(m))
    this.heads = grown(this.heads, Buffer.alloc(m * L.RECORD_BATCH_OVERHEAD))
  }
}

/**
 * Header of the entry at `position` of a log, or an explanation of why there is none. Framed by
 * scanFrames (the one framer) from that position, reading just the header of a large batch.
 */
export function batchAt(
  log: SegmentSource,
  position: number,
  maxBytes: number,
  framed?: FramedHeaders,
): BatchAt | string {
  if (position < 0 || position >= log.size) return `position ${position} is outside the log (${log.size} bytes)`
  const known = framed?.failureAt(position, maxBytes)
  if (known !== undefined) return known
  const failed = (reason: string, anyLimit: boolean): string => {
    framed?.failed(position, reason, maxBytes, anyLimit)
    return reason
  }
  for (const ev of scanFrames(log, {
    from: position,
    window: L.RECORD_BATCH_OVERHEAD,
    headersOnly: true,
    // a marker or a legacy entry by its header too: its records are read (once) only for a .timeindex entry's check
    everyEntryHeaderOnly: true,
    maxBatchBytes: maxBytes,
  })) {
    if (ev.kind === 'corrupt') return failed(`position ${position}: ${ev.message}`, ev.overLimit !== true)
    if (ev.kind === 'tail') {
      return failed(
        ev.reason === 'truncated'
          ? `position ${position}: the batch (${ev.declaredSize ?? '?'} bytes) does not fit`
          : ev.reason === 'zeros'
            ? `position ${position}: only zero bytes from here`
            : `position ${position}: too few bytes for a batch header`,
        true,
      )
    }
    let b: BatchAt
    if (ev.magic < 2) {
      const offset = toBigInt(ev.int64(L.OFFSET_OFFSET))
      b = { baseOffset: offset, lastOffset: offset, sizeInBytes: ev.sizeInBytes, magic: ev.magic }
    } else {
      const h = ev.header
      b = { baseOffset: h.baseOffset, lastOffset: h.lastOffset, sizeInBytes: ev.sizeInBytes, magic: ev.magic }
    }
    framed?.add(position, b, ev.bytes)
    return b
  }
  return `position ${position}: no batch`
}

/**
 * batchAt, from what the log's dump kept or the index checks framed already when either has the position: an entry
 * over maxBytes is what the framing rule says of it there (frameProblem, as batchAt's framer), not read again
 */
export function batchSeenAt(
  seen: BatchPositions | undefined,
  logPath: string,
  log: SegmentSource,
  position: number,
  maxBytes: number,
  framed?: FramedHeaders,
): BatchAt | string {
  const b =
    (seen !== undefined && seen.log === logPath ? seen.at(position) : undefined) ??
    (framed?.log === logPath ? framed.at(position) : undefined)
  if (b === undefined) return batchAt(log, position, maxBytes, framed?.log === logPath ? framed : undefined)
  if (b.sizeInBytes <= maxBytes) return b
  const bad = frameProblem(b.sizeInBytes - L.LOG_OVERHEAD, b.magic, b.sizeInBytes, maxBytes)
  return bad !== undefined ? `position ${position}: ${bad.message}` : b
}

/** the framed entries of the segment `logPath` kept in `state`, made anew for each segment */
export function framedHeaders(state: { framed?: FramedHeaders | undefined }, logPath: string): FramedHeaders {
  if (state.framed?.log !== logPath) state.framed = new FramedHeaders(logPath)
  return state.framed
}

/** `to` holding `from`'s elements first (copy: an array grown) */
function grown<T extends { set(a: T): void }>(from: T, to: T): T {
  to.set(from)
  return to
}
