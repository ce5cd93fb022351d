// What the dump of a .log saw of its batches, for the .index and .timeindex of the same segment dumped after it
// (kafka-dump-log verifies each entry against the batch at the position it names): each v2 batch's position,
// size and offsets in typed arrays, in position order, so that verifying reads the log no second time. Bounded:
// past MAX_BATCHES nothing more is kept, and a position not kept is framed from the file as before (dump-index.ts batchSeenAt).
import type { I64 } from '../../bytes/int64.js'
import type { CorruptEvent } from '../../decode/frame.js'
import { frameProblem } from '../../decode/frame-rule.js'
import type { FrameScanner } from '../../decode/frame-scanner.js'
import * as L from '../../decode/layout.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import { HeldRangeSource } from '../../io/held-range-source.js'

/** 1 M batches: 25 MiB of arrays at most */
const MAX_BATCHES = 1 << 20
/** damaged ranges kept for the index checks (each one a finding of the log's dump already) */
const MAX_DAMAGED = 4096

export class BatchPositions {
  private positions = new Float64Array(1024)
  private sizes = new Uint32Array(1024)
  private bases = new Float64Array(1024)
  private lasts = new Float64Array(1024)
  private n = 0
  // the byte ranges of the log that could not be read (framing damage, a torn tail), at most MAX_DAMAGED
  private readonly damagedFrom: number[] = []
  private readonly damagedTo: number[] = []
  // the damaged ranges whose first byte frames no entry by any size limit (batchAt there gives only its reason)
  private readonly unframed: boolean[] = []

  /** the bytes the dump's read window held past where it stopped at damage: read, and framed no more */
  private rest: { from: number; bytes: Buffer } | undefined

  /** `log`: the resolved path of the .log the batches are from */
  constructor(readonly log: string) {}

  /** `log` (the .log the batches are from, open) read through what the dump's window held past where it stopped */
  source(log: SegmentSource): SegmentSource {
    return this.rest === undefined ? log : new HeldRangeSource(log, this.rest.from, this.rest.bytes)
  }

  /** a v2 batch the dump framed, in file order */
  add(position: number, sizeInBytes: number, baseOffset: I64, lastOffsetDelta: number): void {
    if (typeof baseOffset !== 'number' || this.n === MAX_BATCHES) return
    const last = baseOffset + lastOffsetDelta
    if (!Number.isSafeInteger(last) || (this.n > 0 && position <= this.positions[this.n - 1]!)) return
    if (this.n === this.positions.length) this.grow()
    this.positions[this.n] = position
    this.sizes[this.n] = sizeInBytes
    this.bases[this.n] = baseOffset
    this.lasts[this.n] = last
    this.n++
  }

  /** the batch framed at `position`, or undefined when none was kept there */
  at(position: number): { baseOffset: bigint; lastOffset: bigint; sizeInBytes: number; magic: number } | undefined {
    let lo = 0
    let hi = this.n - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const p = this.positions[mid]!
      if (p === position)
        return {
          baseOffset: BigInt(this.bases[mid]!),
          lastOffset: BigInt(this.lasts[mid]!),
          sizeInBytes: this.sizes[mid]!,
          magic: 2,
        }
      if (p < position) lo = mid + 1
      else hi = mid - 1
    }
    return undefined
  }

  /**
   * bytes [from, to) of the log (`ev`) could not be read: an index entry pointing there cannot be checked; `unframed`:
   * the framing rule, at any size limit, frames no entry at `from` (a tail, or a header that cannot be right)
   */
  damaged(
    ev: { position: number; length: number; resyncPosition?: number },
    unframed: boolean,
    framer: FrameScanner,
  ): void {
    const [from, to] = [ev.position, ev.position + ev.length]
    if (this.damagedFrom.length < MAX_DAMAGED) {
      this.damagedFrom.push(from)
      this.damagedTo.push(to)
      this.unframed.push(unframed)
    }
    // the dump stops here (a tail, no resync): what the framer's window holds from here is kept (it is the next file's)
    const held = ev.resyncPosition === undefined && this.rest === undefined ? framer.windowed(from, to) : undefined
    if (held !== undefined && held.length > 0) this.rest = { from, bytes: Buffer.from(held) } // copy: see above
  }

  /**
   * A batch whose grown length fails its CRC and runs into a valid batch (`ev.kafkaEntry.damageAfter`, resync.ts
   * overlappedBatch): the dump resumed inside it, but Kafka's reader frames it whole and meets damage at its declared
   * end, as the .timeindex walk does. Kept as the batch Kafka's reader frames (from its header in the framer's window,
   * if still there) and, when nothing frames at its declared end by any size limit within `size` bytes, that end as
   * such damage: the walk answers both from what the dump read, with no second read.
   */
  grown(ev: CorruptEvent, framer: FrameScanner, size: number): void {
    const entry = ev.kafkaEntry
    if (entry === undefined || !entry.damageAfter || entry.magic !== 2) return
    const h = framer.windowed(ev.position, ev.position + L.RECORD_BATCH_OVERHEAD)
    if (h.length < L.RECORD_BATCH_OVERHEAD) return
    this.add(ev.position, entry.sizeInBytes, entry.baseOffset, h.readInt32BE(L.LAST_OFFSET_DELTA_OFFSET))
    const e = ev.position + entry.sizeInBytes
    const next = framer.windowed(e, e + L.HEADER_SIZE_UP_TO_MAGIC)
    if (next.length < L.HEADER_SIZE_UP_TO_MAGIC || this.damagedFrom.length >= MAX_DAMAGED) return
    const n = next.readInt32BE(L.SIZE_OFFSET)
    const total = L.LOG_OVERHEAD + n
    if (
      frameProblem(n, next.readInt8(L.MAGIC_OFFSET), total, Number.MAX_SAFE_INTEGER) === undefined &&
      total <= size - e
    )
      return
    this.damagedFrom.push(e)
    this.damagedTo.push(e)
    this.unframed.push(true)
  }

  /** whether damage the dump saw begins at `position` with no entry framed there (dump-index.ts batchAt would frame none) */
  unframedAt(position: number): boolean {
    for (let i = 0; i < this.damagedFrom.length; i++) if (this.damagedFrom[i] === position) return this.unframed[i]!
    return false
  }

  /** the damaged range holding `position`, if the dump saw one there */
  damageAt(position: number): { from: number; to: number } | undefined {
    for (let i = 0; i < this.damagedFrom.length; i++) {
      if (position >= this.damagedFrom[i]! && position < this.damagedTo[i]!)
        return { from: this.damagedFrom[i]!, to: this.damagedTo[i]! }
    }
    return undefined
  }

  private grow(): void {
    const m = Math.min(MAX_BATCHES, this.positions.length * 2)
    const f = (a: Float64Array): Float64Array<ArrayBuffer> => {
      const b = new Float64Array(m)
      b.set(a)
      return b
    }
    this.positions = f(this.positions)
    this.bases = f(this.bases)
    this.lasts = f(this.lasts)
    const s = new Uint32Array(m)
    s.set(this.sizes)
    this.sizes = s
  }
}
