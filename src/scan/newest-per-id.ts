// The newest record of each key of a compacted internal topic, kept in one pass in bounded memory: per key its
// offset, file, position and timestamp in typed arrays and its value's bytes in one arena, so that no decoded
// record outlives the next one. Holding each id's newest decoded record instead promoted nearly every record
// to V8's old generation until the next of its id replaced it (bench/RESULTS.md, "Figures behind choices in
// the code"). The arena is compacted when replaced values fill more than half of it: memory follows the keys.
import { replacesNewest } from '../analysis/transactional-id-state.js'

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
  private readonly slots = new Map<string, number>()
  private readonly keys: string[] = []
  private readonly files: string[] = []
  private offsets: BigInt64Array = new BigInt64Array(256)
  private timestamps: BigInt64Array = new BigInt64Array(256)
  private positions: Float64Array = new Float64Array(256)
  private fileOf: Int32Array = new Int32Array(256)
  private starts: Float64Array = new Float64Array(256)
  /** -1: a tombstone */
  private lengths: Int32Array = new Int32Array(256)
  private arena = Buffer.allocUnsafeSlow(64 * 1024)
  private spare = Buffer.allocUnsafeSlow(0)
  private used = 0
  private live = 0

  get size(): number {
    return this.keys.length
  }

  add(key: string, offset: bigint, file: string, position: number, timestamp: bigint, value: Buffer | null): void {
    this.addRange(key, offset, file, position, timestamp, value ?? EMPTY, 0, value === null ? -1 : value.length)
  }

  /** add() with the value as buf[at, at + length) (length -1: a tombstone), copied only when it is the key's newest */
  addRange(
    key: string,
    offset: bigint,
    file: string,
    position: number,
    timestamp: bigint,
    buf: Buffer,
    at: number,
    length: number,
  ): void {
    let s = this.slots.get(key)
    if (s === undefined) {
      s = this.keys.length
      this.slots.set(key, s)
      this.keys.push(key)
      if (s === this.offsets.length) this.grow()
    } else if (!replacesNewest(offset, this.offsets[s]!)) {
      return
    } else if (this.lengths[s]! > 0) {
      this.live -= this.lengths[s]!
    }
    this.offsets[s] = offset
    this.timestamps[s] = timestamp
    this.positions[s] = position
    if (this.files[this.files.length - 1] !== file) this.files.push(file)
    this.fileOf[s] = this.files.length - 1
    if (length < 0) {
      this.lengths[s] = -1
      return
    }
    if (this.used + length > this.arena.length) this.makeRoom(length)
    buf.copy(this.arena, this.used, at, at + length)
    this.starts[s] = this.used
    this.lengths[s] = length
    this.used += length
    this.live += length
  }

  /** every key's newest record, in the order the keys were first seen (the values are copies: safe to keep) */
  *entries(): Generator<NewestEntry> {
    for (let s = 0; s < this.keys.length; s++) {
      const n = this.lengths[s]!
      yield {
        key: this.keys[s]!,
        offset: this.offsets[s]!,
        file: this.files[this.fileOf[s]!]!,
        position: this.positions[s]!,
        timestamp: this.timestamps[s]!,
        value: n < 0 ? null : Buffer.from(this.arena.subarray(this.starts[s]!, this.starts[s]! + n)),
      }
    }
  }

  private makeRoom(need: number): void {
    // replaced values fill the arena: the live ones are copied into the spare one (four times what they need, so
    // that a compaction, which copies every live value, comes after three times their bytes were added; kept
    // between compactions so that no buffer is allocated per compaction) and the two swap
    const size = Math.max(64 * 1024, 4 * (this.live + need))
    if (this.spare.length < size) this.spare = Buffer.allocUnsafeSlow(size)
    const next = this.spare
    let at = 0
    for (let s = 0; s < this.keys.length; s++) {
      const n = this.lengths[s]!
      if (n <= 0) continue
      this.arena.copy(next, at, this.starts[s]!, this.starts[s]! + n)
      this.starts[s] = at
      at += n
    }
    this.spare = this.arena
    this.arena = next
    this.used = at
  }

  private grow(): void {
    const n = this.offsets.length * 2
    const big = (a: BigInt64Array): BigInt64Array => {
      const b = new BigInt64Array(n)
      b.set(a)
      return b
    }
    const f64 = (a: Float64Array): Float64Array => {
      const b = new Float64Array(n)
      b.set(a)
      return b
    }
    const i32 = (a: Int32Array): Int32Array => {
      const b = new Int32Array(n)
      b.set(a)
      return b
    }
    this.offsets = big(this.offsets)
    this.timestamps = big(this.timestamps)
    this.positions = f64(this.positions)
    this.starts = f64(this.starts)
    this.fileOf = i32(this.fileOf)
    this.lengths = i32(this.lengths)
  }
}
