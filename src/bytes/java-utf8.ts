// Bytes to text exactly as Java's `new String(bytes, StandardCharsets.UTF_8)` does it. That is how
// kafka-dump-log prints keys, payloads (org.apache.kafka.tools.api.StringDecoder) and header keys
// (Utils.utf8). Valid UTF-8 decodes the same everywhere, but malformed input does not: Node (WHATWG) writes
// one U+FFFD per "maximal subpart", while Java decides how many bytes one U+FFFD replaces with its own
// rules. For example `ED A6 00` is "\uFFFD\u0000" in Java and "\uFFFD\uFFFD\u0000" in Node. Java accepts
// ED A6 as the first two bytes of a 3-byte form, and only rejects the surrogate after decoding all three.
//
// The rules below are those of the JDK's UTF-8 decoder, as written in java.lang.String's UTF-8 decoding
// (and sun.nio.cs.UTF_8.Decoder) of JDK 17 to 25. test/bytes/java-utf8.test.ts checks them against the
// installed java over random and adversarial inputs.
import { isUtf8 } from 'node:buffer'

const REPL = 0xfffd

function cont(b: number): boolean {
  return (b & 0xc0) === 0x80
}

/** E0 followed by 80..9F is an overlong 3-byte form; Java rejects it at the second byte */
function bad3At2(b1: number, b2: number): boolean {
  return (b1 === 0xe0 && (b2 & 0xe0) === 0x80) || !cont(b2)
}

/** F0 80..8F is overlong, F4 90.. is above U+10FFFF; Java rejects both at the second byte */
function bad4At2(b1: number, b2: number): boolean {
  return (b1 === 0xf0 && (b2 < 0x90 || b2 > 0xbf)) || (b1 === 0xf4 && (b2 & 0xf0) !== 0x80) || !cont(b2)
}

/**
 * The UTF-16 code units Java decodes from malformed-or-not bytes b[start..end), into `out` (which must
 * hold end - start units: every byte yields at most one unit, a 4-byte form two). Returns the count.
 */
function decodeUnits(b: Uint8Array, start: number, end: number, out: Uint16Array): number {
  let n = 0
  let i = start
  while (i < end) {
    const b1 = b[i++]!
    if (b1 < 0x80) {
      out[n++] = b1
    } else if (b1 >= 0xc2 && b1 <= 0xdf) {
      if (i >= end) {
        out[n++] = REPL
        break
      }
      const b2 = b[i]!
      // a non-continuation second byte is not consumed: it starts the next character
      if (cont(b2)) {
        out[n++] = ((b1 & 0x1f) << 6) | (b2 & 0x3f)
        i++
      } else out[n++] = REPL
    } else if (b1 >= 0xe0 && b1 <= 0xef) {
      if (i + 1 < end) {
        const b2 = b[i]!
        const b3 = b[i + 1]!
        if (bad3At2(b1, b2)) {
          out[n++] = REPL
          continue
        } // only the lead byte is replaced
        if (!cont(b3)) {
          out[n++] = REPL
          i++
          continue
        } // lead and second byte, one U+FFFD
        i += 2
        const c = ((b1 & 0x0f) << 12) | ((b2 & 0x3f) << 6) | (b3 & 0x3f)
        // a UTF-8-encoded surrogate (ED A0..BF xx) is one U+FFFD for all three bytes
        out[n++] = c >= 0xd800 && c <= 0xdfff ? REPL : c
        continue
      }
      // one byte or none left: the truncated form is one U+FFFD, unless its second byte cannot belong to it
      if (i < end && bad3At2(b1, b[i]!)) {
        out[n++] = REPL
        continue
      }
      out[n++] = REPL
      break
    } else if (b1 >= 0xf0 && b1 <= 0xf7) {
      if (i + 2 < end) {
        const b2 = b[i]!
        const b3 = b[i + 1]!
        const b4 = b[i + 2]!
        const cp = ((b1 & 0x07) << 18) | ((b2 & 0x3f) << 12) | ((b3 & 0x3f) << 6) | (b4 & 0x3f)
        if (cont(b2) && cont(b3) && cont(b4) && cp >= 0x10000 && cp <= 0x10ffff) {
          i += 3
          out[n++] = 0xd800 + ((cp - 0x10000) >> 10)
          out[n++] = 0xdc00 + ((cp - 0x10000) & 0x3ff)
          continue
        }
        out[n++] = REPL
        // how many bytes this U+FFFD stands for: 1 when the second byte is wrong, 2 when the third, else 3
        if (b1 > 0xf4 || bad4At2(b1, b2)) continue
        i += cont(b3) ? 2 : 1
        continue
      }
      // fewer than three bytes left
      if (b1 > 0xf4 || (i < end && bad4At2(b1, b[i]!))) {
        out[n++] = REPL
        continue
      }
      out[n++] = REPL
      i++ // the second byte (or the end) belongs to this U+FFFD
      if (i < end && !cont(b[i]!)) continue
      break
    } else {
      // 80..BF without a lead, C0/C1 (always overlong), F8..FF: one U+FFFD per byte
      out[n++] = REPL
    }
  }
  return n
}

const CHUNK = 8192

/** Java's `new String(b, UTF_8)` for b[start..end) */
export function decodeJavaUtf8(b: Uint8Array, start = 0, end = b.length): string {
  const bytes = start === 0 && end === b.length ? b : b.subarray(start, end)
  // the common case: valid UTF-8 (pure ASCII included) has one decoding, so the native decoder gives Java's text
  if (isUtf8(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
  const units = new Uint16Array(bytes.length)
  const n = decodeUnits(bytes, 0, bytes.length, units)
  let s = ''
  for (let i = 0; i < n; i += CHUNK) s += String.fromCharCode(...units.subarray(i, Math.min(n, i + CHUNK)))
  return s
}
