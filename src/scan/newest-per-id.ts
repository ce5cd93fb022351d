// The newest record of each key of a compacted internal topic, kept in one pass in bounded memory: per key its
// offset, file, position and timestamp in arrays indexed by the key's slot and its value's bytes in one arena, so
// that no decoded record outlives the next one. Holding each id's newest decoded record instead promoted nearly
// every record to V8's old generation until the next of its id replaced it (bench/RESULTS.md, "Figures behind
// choices in the code"). The arena is compacted when replaced values fill more than half of it: memory follows
// the keys. A key is found by its bytes (keyed by a hash of them, compared with the key's bytes kept once), so
// that a reader of millions of records of a few thousand keys makes no string per record and looks up no Map.
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import { KeySlots } from '../bytes/key-slots.js'

const EMPTY = Buffer.alloc(0)

export interface NewestEntry {
  key: string
  offset: bigint
  file: string
  position: number
  timestamp: bigint
  /** null: a tombstone */
  value: Buffer | null
}

export class NewestPerKey {
  /** each key's slot: the index of the arrays below */
  readonly keys = new KeySlots()
  private readonly files: string[] = []
  // I64s: plain arrays of numbers are unboxed doubles (a bigint, beyond 2^53, makes its array generic, still exact)
  private offsets: I64[] = []
  private timestamps: I64[] = []
  private positions: Float64Array = new Float64Array(256)
  private fileOf: Int32Array = new Int32Array(256)
  private starts: Float64Array = new Float64Array(256)
  /** -1: a tombstone, -2: no record yet */
  private lengths: Int32Array = new Int32Array(256).fill(-2)
  private arena = Buffer.allocUnsafeSlow(64 * 1024)
  private arenaView: DataView<ArrayBufferLike> = new DataView(
    this.arena.buffer,
    this.arena.byteOffset,
    this.arena.length,
  )
  private spare = Buffer.allocUnsafeSlow(0)
  private used = 0
  private live = 0
  // a DataView over the buffer values are copied from (the read window: one per window, not per value)
  private from: Buffer = EMPTY
  private fromView: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0))

  get size(): number {
    return this.keys.size
  }

  add(key: string, offset: bigint, file: string, position: number, timestamp: bigint, value: Buffer | null): void {
    this.put(
      this.keys.ofString(key),
      offset,
      file,
      position,
      timestamp,
      value ?? EMPTY,
      0,
      value === null ? -1 : value.length,
    )
  }

  /**
   * A record of the key in `slot` (KeySlots.of / ofString), its value buf[at, at + length) (length -1: a
   * tombstone), copied only when it is the key's newest: the later offset wins, ties too
   * (analysis/transactional-id-state.ts replacesNewest, what a compacted __transaction_state partition keeps)
   */
  put(
    slot: number,
    offset: I64,
    file: string,
    position: number,
    timestamp: I64,
    buf: Buffer,
    at: number,
    length: number,
  ): void {
    if (slot >= this.positions.length) this.grow(slot)
    const had = this.lengths[slot]!
    if (had !== -2 && !(offset >= this.offsets[slot]!)) return
    if (had > 0) this.live -= had
    this.offsets[slot] = offset
    this.timestamps[slot] = timestamp
    this.positions[slot] = position
    if (this.files[this.files.length - 1] !== file) this.files.push(file)
    this.fileOf[slot] = this.files.length - 1
    if (length < 0) {
      this.lengths[slot] = -1
      return
    }
    if (this.used + length > this.arena.length) this.makeRoom(length)
    this.copy(buf, at, length, this.used)
    this.starts[slot] = this.used
    this.lengths[slot] = length
    this.used += length
    this.live += length
  }

  /** every key's newest record, in the order the keys were first seen (the values are copies: safe to keep) */
  *entries(): Generator<NewestEntry> {
    for (let s = 0; s < this.keys.size; s++) {
      const n = this.lengths[s]!
      if (n === -2) continue
      yield {
        key: this.keys.keyOf(s),
        offset: toBigInt(this.offsets[s]!),
        file: this.files[this.fileOf[s]!]!,
        position: this.positions[s]!,
        timestamp: toBigInt(this.timestamps[s]!),
        value: n < 0 ? null : Buffer.from(this.arena.subarray(this.starts[s]!, this.starts[s]! + n)),
      }
    }
  }

  /**
   * buf[at, at + n) to arena[to]: four bytes a load through DataViews. Buffer.copy makes a Uint8Array per call
   * (node's _copyActual), which was a third of this table's time over 3 M small values.
   */
  private copy(buf: Buffer, at: number, n: number, to: number): void {
    if (buf !== this.from) {
      this.from = buf
      this.fromView = new DataView(buf.buffer, buf.byteOffset, buf.length)
    }
    const src = this.fromView
    const dst = this.arenaView
    let i = 0
    for (; i + 4 <= n; i += 4) dst.setInt32(to + i, src.getInt32(at + i))
    for (; i < n; i++) dst.setUint8(to + i, src.getUint8(at + i))
  }

  private makeRoom(need: number): void {
    // replaced values fill the arena: the live ones are copied into the spare one (four times what they need, so
    // that a compaction, which copies every live value, comes after three times their bytes were added; kept
    // between compactions so that no buffer is allocated per compaction) and the two swap
    const size = Math.max(64 * 1024, 4 * (this.live + need))
    if (this.spare.length < size) this.spare = Buffer.allocUnsafeSlow(size)
    const next = this.spare
    let at = 0
    for (let s = 0; s < this.keys.size; s++) {
      const n = this.lengths[s]!
      if (n <= 0) continue
      this.arena.copy(next, at, this.starts[s]!, this.starts[s]! + n)
      this.starts[s] = at
      at += n
    }
    this.spare = this.arena
    this.arena = next
    this.arenaView = new DataView(next.buffer, next.byteOffset, next.length)
    this.used = at
  }

  private grow(slot: number): void {
    let n = this.positions.length * 2
    while (n <= slot) n *= 2
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n)
      b.set(a)
      return b
    }
    const i32 = (a: Int32Array, fill: number): Int32Array => {
      const b = new Int32Array(n).fill(fill)
      b.set(a)
      return b
    }
    this.positions = f64(this.positions)
    this.starts = f64(this.starts)
    this.fileOf = i32(this.fileOf, 0)
    this.lengths = i32(this.lengths, -2)
  }
}
