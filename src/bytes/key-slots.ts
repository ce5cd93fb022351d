// A small integer for each distinct key read as bytes (0, 1, 2 ... in the order first seen), found by a hash of the
// bytes without making a string: a reader of millions of records of a few thousand keys (the transactional ids of
// the coordinator's records, scan/transaction-state-read.ts) made a string per record and looked each up in Maps.
// The key is what Buffer.toString('utf8') reads of the bytes, made once, when first seen. Only ASCII keys are found
// by their bytes (ASCII bytes and strings are one to one); a key with another byte is found by its string, since
// different bytes can read as the same string (an invalid sequence reads as U+FFFD).

import { asciiHash, dataViewOf, finish32 } from './ascii-intern.js'

export class KeySlots {
  /** open addressing, linear probing: slot + 1 (0 empty), at most half full */
  private table = new Int32Array(1024)
  private hashes = new Int32Array(256)
  /** where each slot's bytes are in `bytes` (-1: a key found by its string), and their length */
  private at = new Int32Array(256)
  private lengths = new Int32Array(256)
  private bytes = Buffer.allocUnsafeSlow(16 * 1024)
  private bytesView: DataView<ArrayBufferLike> = new DataView(
    this.bytes.buffer,
    this.bytes.byteOffset,
    this.bytes.length,
  )
  private used = 0
  private readonly strings: string[] = []
  private readonly others = new Map<string, number>()

  get size(): number {
    return this.strings.length
  }

  keyOf(slot: number): string {
    return this.strings[slot]!
  }

  /** the slot of the key buf[at, at + length) */
  of(buf: Buffer, at: number, length: number): number {
    // a byte of 0x80 or more (not ASCII) sends the key to `others`
    const u = asciiHash(buf, at, length)
    if (u < 0) return this.ofOther(buf.toString('utf8', at, at + length))
    const h = u | 0
    const table = this.table
    const mask = table.length - 1
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = table[i]! - 1
      if (s < 0) return this.insert(i, h, buf.toString('latin1', at, at + length), buf, at)
      if (this.hashes[s] === h && this.lengths[s] === length && this.sameBytes(this.at[s]!, buf, at, length)) return s
    }
  }

  /** the slot of `key`: for an ASCII key the one its bytes give (asciiHash's words, from the characters) */
  ofString(key: string): number {
    let h = 0x811c9dc5
    let high = 0
    const n = key.length
    const words = n & ~3
    let i = 0
    for (; i < words; i += 4) {
      const a = key.charCodeAt(i)
      const b = key.charCodeAt(i + 1)
      const c = key.charCodeAt(i + 2)
      const d = key.charCodeAt(i + 3)
      high |= a | b | c | d
      h = Math.imul(h ^ ((a << 24) | (b << 16) | (c << 8) | d), 0x01000193)
    }
    for (; i < n; i++) {
      const c = key.charCodeAt(i)
      high |= c
      h = Math.imul(h ^ c, 0x01000193)
    }
    h = finish32(h) | 0
    if (high >= 0x80) return this.ofOther(key)
    const mask = this.table.length - 1
    for (let i = h & mask; ; i = (i + 1) & mask) {
      const s = this.table[i]! - 1
      if (s < 0) return this.insert(i, h, key, Buffer.from(key, 'latin1'), 0)
      if (this.hashes[s] === h && this.strings[s] === key) return s
    }
  }

  private ofOther(key: string): number {
    let s = this.others.get(key)
    if (s === undefined) {
      s = this.newSlot(key, 0)
      this.at[s] = -1
      this.others.set(key, s)
    }
    return s
  }

  /** the bytes kept at k equal buf[at, at + length) (the caller compared the lengths) */
  private sameBytes(k: number, buf: Buffer, at: number, length: number): boolean {
    // four bytes a step, through the DataView asciiHash made for buf
    const a = dataViewOf(buf)
    const b = this.bytesView
    let i = 0
    for (; i + 4 <= length; i += 4) if (a.getInt32(at + i) !== b.getInt32(k + i)) return false
    for (; i < length; i++) if (a.getUint8(at + i) !== b.getUint8(k + i)) return false
    return true
  }

  /** a new slot for `key` (its ASCII bytes buf[at, at + key.length)) at table index i */
  private insert(i: number, h: number, key: string, buf: Buffer, at: number): number {
    const s = this.newSlot(key, h)
    const n = key.length
    if (this.used + n > this.bytes.length) {
      const b = Buffer.allocUnsafeSlow(Math.max(2 * this.bytes.length, this.used + n))
      this.bytes.copy(b, 0, 0, this.used)
      this.bytes = b
      this.bytesView = new DataView(b.buffer, b.byteOffset, b.length)
    }
    buf.copy(this.bytes, this.used, at, at + n)
    this.at[s] = this.used
    this.lengths[s] = n
    this.used += n
    this.table[i] = s + 1
    if (2 * (this.size - this.others.size) > this.table.length) this.rehash()
    return s
  }

  private newSlot(key: string, h: number): number {
    const s = this.strings.length
    this.strings.push(key)
    if (s === this.hashes.length) {
      const hs = new Int32Array(2 * s)
      hs.set(this.hashes)
      this.hashes = hs
      const at = new Int32Array(2 * s)
      at.set(this.at)
      this.at = at
      const lengths = new Int32Array(2 * s)
      lengths.set(this.lengths)
      this.lengths = lengths
    }
    this.hashes[s] = h
    return s
  }

  private rehash(): void {
    const t = new Int32Array(2 * this.table.length)
    const mask = t.length - 1
    for (let s = 0; s < this.strings.length; s++) {
      if (this.at[s]! < 0) continue
      let i = this.hashes[s]! & mask
      while (t[i] !== 0) i = (i + 1) & mask
      t[i] = s + 1
    }
    this.table = t
  }
}
