// Writing ASCII straight into an output buffer: the shallow dump of a 1 GiB segment prints millions of
// batch lines, and building each as a JS string (then encoding it) dominated its profile.

import type { I64 } from '../bytes/int64.js'

/** Field names and other constants, encoded once. */
export function ascii(s: string): Uint8Array {
  return Uint8Array.from(s, (ch) => ch.charCodeAt(0))
}

/** Copy constant bytes at pos; returns the new position. */
export function putBytes(out: Buffer, pos: number, b: Uint8Array): number {
  const n = b.length
  // TypedArray#set (a memcpy) beats the byte loop from about 8 bytes on (measured: 23 bytes 20 ns vs 44 ns)
  if (n > 8) {
    out.set(b, pos)
    return pos + n
  }
  for (let i = 0; i < n; i++) out[pos++] = b[i]!
  return pos
}

/** Write `s` (ASCII only) at pos; returns the new position. */
export function putAscii(out: Buffer, pos: number, s: string): number {
  for (let i = 0; i < s.length; i++) out[pos++] = s.charCodeAt(i)
  return pos
}

/** Write a safe integer in decimal (putIntWords through the buffer's DataView: the one digit writer). */
export function putInt(out: Buffer, pos: number, n: number): number {
  return putIntWords(viewOf(out), pos, n)
}

/** Write a 64-bit integer (bytes/int64.ts: a number within ±2^53, else a bigint) in decimal. */
export function putI64(out: Buffer, pos: number, v: I64): number {
  return putI64Words(viewOf(out), pos, v)
}

// The word writers: a DataView over the output stores 2 or 4 bytes at once, at any alignment, where
// Buffer's indexed stores take one byte each (this machine: a 16-byte constant as four 32-bit stores 18 ns,
// as a byte loop or TypedArray#set about 50 ns). They may store up to 3 bytes past what they return as the
// new position; the next write covers them, and callers reserve that much more than they commit.

/** slack past the returned position that the word writers may overwrite */
export const WORD_SLACK = 3

/** A constant as big-endian 32-bit words (the last one padded with spaces) and its length in bytes. */
export interface AsciiWords {
  readonly words: Uint32Array
  readonly length: number
}

/** `s` (ASCII) as words, encoded once */
export function asciiWords(s: string): AsciiWords {
  const b = Buffer.alloc(Math.ceil(s.length / 4) * 4, 32)
  b.write(s, 0, 'latin1')
  const words = new Uint32Array(b.length / 4)
  for (let i = 0; i < words.length; i++) words[i] = b.readUInt32BE(4 * i)
  return { words, length: s.length }
}

let lastOut: Buffer | undefined
let lastView: DataView = new DataView(new ArrayBuffer(0))

/** the DataView over `out` (one per output buffer, kept while it stays the same buffer) */
export function viewOf(out: Buffer): DataView {
  if (out !== lastOut) {
    lastOut = out
    lastView = new DataView(out.buffer, out.byteOffset, out.byteLength)
  }
  return lastView
}

/** Write constant `c` at pos (may store WORD_SLACK bytes past it); returns the new position. */
export function putWords(dv: DataView, pos: number, c: AsciiWords): number {
  const w = c.words
  for (let i = 0; i < w.length; i++) dv.setUint32(pos + 4 * i, w[i]!)
  return pos + c.length
}

// "00".."99" as big-endian 16-bit words: two digits per store
const PAIR_WORDS = new Uint16Array(100)
for (let i = 0; i < 100; i++) PAIR_WORDS[i] = ((48 + Math.floor(i / 10)) << 8) | (48 + (i % 10))

/** how many bytes putIntWords writes for the safe integer `n` (its sign and digits) */
export function intLength(n: number): number {
  return n < 0 ? 1 + digitCount(-n) : digitCount(n)
}

/** decimal digits of a safe integer n >= 0 */
function digitCount(n: number): number {
  if (n < 100000000) {
    if (n < 10000) return n < 100 ? (n < 10 ? 1 : 2) : n < 1000 ? 3 : 4
    return n < 1000000 ? (n < 100000 ? 5 : 6) : n < 10000000 ? 7 : 8
  }
  let d = 9
  for (let p = 1000000000; n >= p && d < 16; p *= 10) d++
  return d
}

/** Write a safe integer in decimal through `dv`, the digits straight to their places (two at a time). */
export function putIntWords(dv: DataView, pos: number, n: number): number {
  if (n < 0) {
    dv.setUint8(pos++, 45)
    n = -n
  }
  if (n < 10) {
    dv.setUint8(pos, 48 + n)
    return pos + 1
  }
  const end = pos + digitCount(n)
  let i = end
  // 13-digit timestamps: 8 digits at a time, so that the digit loop runs on 31-bit integers
  while (n > 0x7fffffff) {
    let q = Math.floor(n / 100000000)
    let r = n - q * 100000000
    if (r < 0) {
      q--
      r += 100000000
    } // n / 1e8 rounded up to the next integer
    for (let k = 0; k < 4; k++) {
      const t = (r / 100) | 0
      i -= 2
      dv.setUint16(i, PAIR_WORDS[r - t * 100]!)
      r = t
    }
    n = q
  }
  let m = n | 0
  while (m >= 100) {
    const t = (m / 100) | 0
    i -= 2
    dv.setUint16(i, PAIR_WORDS[m - t * 100]!)
    m = t
  }
  if (m >= 10) dv.setUint16(i - 2, PAIR_WORDS[m]!)
  else dv.setUint8(i - 1, 48 + m)
  return end
}

/** putIntWords for a 64-bit integer (bytes/int64.ts I64) */
export function putI64Words(dv: DataView, pos: number, v: I64): number {
  if (typeof v === 'number') return putIntWords(dv, pos, v)
  const s = v.toString()
  for (let i = 0; i < s.length; i++) dv.setUint8(pos + i, s.charCodeAt(i))
  return pos + s.length
}
