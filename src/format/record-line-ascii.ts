// The v2 record line of format/dump-text.ts formatRecordMetadata (+ key and payload), written as bytes.
// Keys and payloads that are valid UTF-8 are copied as they are, which is what Java's StringDecoder
// prints for them; anything else goes through decodeJavaUtf8, which substitutes U+FFFD where Java does
// (Buffer#toString does it differently: one U+FFFD per WHATWG maximal subpart).
import { isUtf8 } from 'node:buffer'
import { decodeJavaUtf8 } from '../bytes/java-utf8.js'
import type { KafkaRecord, ValuePieces } from '../decode/records.js'
import { valueSizeOf } from '../decode/records.js'
import type { Writer } from './writer.js'
import type { AsciiWords } from './ascii.js'
import { ascii, asciiWords, putAscii, putInt, putWords, viewOf } from './ascii.js'

// the metadata's constants, in line order, as words (ascii.ts putWords): this writer and the fast one
// (record-lines-fast.ts) write them
export const [K_OFFSET, K_CREATE, K_APPEND, K_KEYSIZE, K_VALUESIZE, K_SEQUENCE, K_HEADERKEYS] = [
  '| offset: ',
  ' CreateTime: ',
  ' LogAppendTime: ',
  ' keySize: ',
  ' valueSize: ',
  ' sequence: ',
  ' headerKeys: [',
].map(asciiWords) as [AsciiWords, AsciiWords, AsciiWords, AsciiWords, AsciiWords, AsciiWords, AsciiWords]
export const K_KEY = ascii('key: ')
export const K_PAYLOAD = ascii(' payload: ')

/** bytes a record's metadata part can take (the word writers' slack included) */
export function recordMetadataSize(r: KafkaRecord): number {
  let n = 160
  for (const h of r.headers) n += h.key.length * 3 + 1
  return n
}

function putBigint(out: Buffer, pos: number, v: bigint): number {
  return v <= 9007199254740991n && v >= -9007199254740991n
    ? putInt(out, pos, Number(v))
    : putAscii(out, pos, v.toString())
}

export function writeRecordMetadata(out: Buffer, pos: number, r: KafkaRecord, logAppendTime: boolean): number {
  const dv = viewOf(out)
  pos = putWords(dv, pos, K_OFFSET)
  pos = putBigint(out, pos, r.offset)
  pos = putWords(dv, pos, logAppendTime ? K_APPEND : K_CREATE)
  pos = putBigint(out, pos, r.timestamp)
  pos = putWords(dv, pos, K_KEYSIZE)
  pos = putInt(out, pos, r.key === null ? -1 : r.key.length)
  pos = putWords(dv, pos, K_VALUESIZE)
  pos = putInt(out, pos, valueSizeOf(r))
  pos = putWords(dv, pos, K_SEQUENCE)
  pos = putInt(out, pos, r.sequence)
  pos = putWords(dv, pos, K_HEADERKEYS)
  for (let i = 0; i < r.headers.length; i++) {
    if (i > 0) out[pos++] = 44
    pos = putUtf8(out, pos, r.headers[i]!.key)
  }
  out[pos++] = 93
  return pos
}

/** bytes `b` as Java's StringDecoder would print them; reserve b.length * 3 */
export function putUtf8(out: Buffer, pos: number, b: Buffer): number {
  if (isUtf8(b)) {
    out.set(b, pos)
    return pos + b.length
  }
  return pos + out.write(decodeJavaUtf8(b), pos, 'utf8')
}

/** a decoded string; reserve s.length * 3 */
export function putString(out: Buffer, pos: number, s: string): number {
  return pos + out.write(s, pos, 'utf8')
}

/** slices of a large value written at a time: the output reservation stays small */
const SLICE = 1024 * 1024

/**
 * A value too large to hold (a record larger than the read window), written from its pieces exactly as
 * putUtf8 writes it whole.
 */
export function writeUtf8Pieces(out: Writer, pieces: ValuePieces): void {
  forEachUtf8Slice(pieces, (s) => {
    out.commit(putUtf8(out.buffer, out.reserve(s.length * 3), s))
  })
}

/**
 * A value's pieces in slices of at most about `slice` bytes (1 MiB), each ending on a whole UTF-8 sequence: a sequence cut
 * by a slice's end is carried to the next slice (Java's decoder decides every replacement within one
 * sequence, so the cut points change nothing else). Each slice is valid until the next call.
 */
export function forEachUtf8Slice(pieces: ValuePieces, each: (s: Buffer) => void, slice = SLICE): void {
  let carry: Buffer | undefined
  for (let piece = pieces.next(); piece !== null; piece = pieces.next()) {
    for (let a = 0; a < piece.length; a += slice) {
      let s = piece.subarray(a, a + slice)
      if (carry !== undefined) {
        s = Buffer.concat([carry, s])
        carry = undefined
      }
      const cut = completeEnd(s)
      if (cut < s.length) {
        carry = Buffer.from(s.subarray(cut))
        s = s.subarray(0, cut)
      }
      each(s)
    }
  }
  if (carry !== undefined) each(carry)
}

/** where the last UTF-8 sequence of s starts when it is incomplete (needs bytes past the end), else s.length */
export function completeEnd(s: Buffer): number {
  for (let k = 1; k <= 3 && k <= s.length; k++) {
    const x = s[s.length - k]!
    if ((x & 0xc0) === 0x80) continue // a continuation byte: look further back
    if (x < 0xc0) return s.length
    const need = x >= 0xf0 ? 4 : x >= 0xe0 ? 3 : 2
    return need > k ? s.length - k : s.length
  }
  return s.length
}
