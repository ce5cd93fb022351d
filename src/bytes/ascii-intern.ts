// The same string for the same short ASCII bytes, without making a string when it was seen before: a reader that
// turns millions of keys of a few thousand distinct values into strings (the transactional ids of the coordinator's
// records, scan/transaction-state-read.ts) made a string per record, each hashed again by every Map it was looked up
// in. A direct-mapped table of the strings seen, by a hash of the bytes; a slot holds the newest string of its hash.

/** keys longer than this are made as strings every time (ids are short) */
const MAX_LENGTH = 128
const SLOTS = 4096

export class AsciiIntern {
  private readonly table: Array<string | undefined> = new Array<string | undefined>(SLOTS).fill(undefined)

  /** buf[at, at + length) as a string (UTF-8, as Buffer.toString reads it): the table's when the bytes are its ASCII */
  get(buf: Buffer, at: number, length: number): string {
    if (length > MAX_LENGTH) return buf.toString('utf8', at, at + length)
    // a byte of 0x80 or more (not ASCII) is made as a string and not kept
    const h = asciiHash(buf, at, length)
    if (h < 0) return buf.toString('utf8', at, at + length)
    const slot = h & (SLOTS - 1)
    const s = this.table[slot]
    if (s !== undefined && s.length === length && same(s, buf, at)) return s
    const made = buf.toString('latin1', at, at + length)
    this.table[slot] = made
    return made
  }
}

// a DataView over the last buffer hashed (a read window: one per window, not per key)
let viewOf: Buffer | undefined
let view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0))

/** a DataView over all of `buf`, the one made for it last time when it is the same buffer */
export function dataViewOf(buf: Buffer): DataView<ArrayBufferLike> {
  if (buf !== viewOf) {
    viewOf = buf
    view = new DataView(buf.buffer, buf.byteOffset, buf.length)
  }
  return view
}

/**
 * FNV-1a over buf[at, at + length) taken as big-endian 32-bit words, then its last length % 4 bytes one by one,
 * finished by finish32, as an unsigned 32-bit number, or -1 when a byte is 0x80 or more (not ASCII). Four bytes a
 * step: byte by byte, hashing each coordinator record's transactional id was a tenth of lso's time on a busy
 * coordinator's partitions. KeySlots.ofString hashes a string the same way.
 */
export function asciiHash(buf: Buffer, at: number, length: number): number {
  const dv = dataViewOf(buf)
  let h = 0x811c9dc5
  let high = 0
  const words = at + (length & ~3)
  let i = at
  for (; i < words; i += 4) {
    const w = dv.getInt32(i)
    high |= w
    h = Math.imul(h ^ w, 0x01000193)
  }
  for (; i < at + length; i++) {
    const b = buf[i]!
    high |= b
    h = Math.imul(h ^ b, 0x01000193)
  }
  return (high & 0x80808080) !== 0 ? -1 : finish32(h) >>> 0
}

/**
 * MurmurHash3's fmix32: every bit of h moved into the low bits that the tables index by. A multiply carries bits only
 * upwards, so word-wise FNV leaves a word's high bytes out of the hash's low bits: the ids scale-app-000000 to
 * scale-app-000999 fell into 80 of 2,048 buckets, and each lookup walked a probe chain of dozens.
 */
export function finish32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b)
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35)
  return h ^ (h >>> 16)
}

function same(s: string, buf: Buffer, at: number): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== buf[at + i]) return false
  return true
}
