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

/** FNV-1a over buf[at, at + length) as an unsigned 32-bit number, or -1 when a byte is 0x80 or more (not ASCII) */
export function asciiHash(buf: Buffer, at: number, length: number): number {
  let h = 0x811c9dc5
  let high = 0
  for (let i = at; i < at + length; i++) {
    const b = buf[i]!
    high |= b
    h = Math.imul(h ^ b, 0x01000193)
  }
  return high >= 0x80 ? -1 : h >>> 0
}

function same(s: string, buf: Buffer, at: number): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) !== buf[at + i]) return false
  return true
}
