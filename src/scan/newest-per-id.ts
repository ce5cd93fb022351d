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
  /** each slot's room in the arena: its value is arena[starts, starts + lengths), in caps bytes of its own */
  private starts: Float64Array = new Float64Array(256)
  private caps: Int32Array = new Int32Array(256)
  /** -1: a tombstone, -2: no record yet */
  private lengths: Int32Array = new Int32Array(256).fill(-2)
  /** 1: the slot's value is still in `window`, at windowAt (putInPlace), not yet in the arena */
  private inWindow: Uint8Array = new Uint8Array(256)
  private windowAt: Int32Array = new Int32Array(256)
  private waiting: Int32Array = new Int32Array(256)
  private waitingCount = 0
  private window: Buffer = EMPTY
  private arena = Buffer.allocUnsafeSlow(64 * 1024)
  private arenaView: DataView<ArrayBufferLike> = new DataView(
    this.arena.buffer,
    this.arena.byteOffset,
    this.arena.length,
  )
  private spare = Buffer.allocUnsafeSlow(0)
  private used = 0
  /** the bytes of the arena that slots hold (their caps) */
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
    if (!this.newer(slot, offset, file, position, timestamp, length)) return
    if (length > 0) this.store(slot, buf, at, length)
  }

  /**
   * put, with the value left where it is until flush(): most records of a busy coordinator's ids are replaced by the
   * next record of their id within the same read window, so a value copied at each record was mostly copied for
   * nothing (a third of the records' time). The caller calls flush() before buf's bytes change (frame-scanner.ts
   * beforeRefill); a value in another buffer than the last one flushes the last one's first.
   */
  putInPlace(
    slot: number,
    offset: I64,
    file: string,
    position: number,
    timestamp: I64,
    buf: Buffer,
    at: number,
    length: number,
  ): void {
    if (buf !== this.window) {
      this.flush()
      this.window = buf
    }
    if (!this.newer(slot, offset, file, position, timestamp, length) || length <= 0) return
    this.windowAt[slot] = at
    this.inWindow[slot] = 1
    if (this.waitingCount === this.waiting.length) {
      const w = new Int32Array(2 * this.waiting.length)
      w.set(this.waiting)
      this.waiting = w
    }
    this.waiting[this.waitingCount++] = slot
  }

  /** the values left in place copied into the arena: the buffer they are in is about to change */
  readonly flush = (): void => {
    const n = this.waitingCount
    this.waitingCount = 0
    for (let i = 0; i < n; i++) {
      const s = this.waiting[i]!
      if (this.inWindow[s] === 0) continue
      this.inWindow[s] = 0
      this.store(s, this.window, this.windowAt[s]!, this.lengths[s]!)
    }
    this.window = EMPTY
  };

  /** every key's newest record, in the order the keys were first seen (the values are copies: safe to keep) */
  *entries(): Generator<NewestEntry> {
    this.flush()
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

  /** the record's place, when it is the key's newest (false: an older one, nothing kept); its value is the caller's */
  private newer(slot: number, offset: I64, file: string, position: number, timestamp: I64, length: number): boolean {
    if (slot >= this.positions.length) this.grow(slot)
    const had = this.lengths[slot]!
    if (had !== -2 && !(offset >= this.offsets[slot]!)) return false
    this.offsets[slot] = offset
    this.timestamps[slot] = timestamp
    this.positions[slot] = position
    if (this.files[this.files.length - 1] !== file) this.files.push(file)
    this.fileOf[slot] = this.files.length - 1
    this.lengths[slot] = length < 0 ? -1 : length
    this.inWindow[slot] = 0
    return true
  }

  /** the slot's value copied into its room, a new room when it does not fit (a key's values are mostly one size) */
  private store(slot: number, buf: Buffer, at: number, n: number): void {
    if (n > this.caps[slot]!) {
      // the old room is left behind: it goes at the next compaction
      const cap = n + (n >>> 2)
      if (this.used + cap > this.arena.length) this.makeRoom(slot, cap)
      this.live += cap - this.caps[slot]!
      this.caps[slot] = cap
      this.starts[slot] = this.used
      this.used += cap
    }
    this.copy(buf, at, n, this.starts[slot]!)
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

  /** room for `need` more bytes: the rooms other slots hold (`slot`'s is about to be given up) copied together */
  private makeRoom(slot: number, need: number): void {
    // into the spare arena (four times what they need, so that a compaction, which copies every room, comes after
    // three times their bytes were added; kept between compactions so that no buffer is allocated per compaction)
    this.live -= this.caps[slot]!
    this.caps[slot] = 0
    const size = Math.max(64 * 1024, 4 * (this.live + need))
    if (this.spare.length < size) this.spare = Buffer.allocUnsafeSlow(size)
    const next = this.spare
    let at = 0
    for (let s = 0; s < this.keys.size; s++) {
      const cap = this.caps[s]!
      if (cap === 0) continue
      const n = this.lengths[s]!
      if (n > 0 && this.inWindow[s] === 0) this.arena.copy(next, at, this.starts[s]!, this.starts[s]! + n)
      this.starts[s] = at
      at += cap
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
    this.caps = i32(this.caps, 0)
    this.fileOf = i32(this.fileOf, 0)
    this.lengths = i32(this.lengths, -2)
    this.windowAt = i32(this.windowAt, 0)
    const w = new Uint8Array(n)
    w.set(this.inWindow)
    this.inWindow = w
  }
}
