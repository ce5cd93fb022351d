// The bytes of tsdump's temp files (io/spill.ts): a growable buffer that values are written into field by field,
// and a cursor that reads them back. Integers as varints (a 64-bit one zigzagged, with an escape for values past
// 2^50 and a tag for null), short ASCII strings as their bytes, read back through one table of recent strings
// (bytes/ascii-intern.ts: a transactional id repeats in every transaction of its producer). Nothing here is
// checked as an input is: only this process writes these files, and reads them back once.
import { AsciiIntern } from '../bytes/ascii-intern.js'
import { fromSafeNumber, toNumber } from '../bytes/int64.js'

/** |n| below this travels as a varint, anything else as the escape and its 8 bytes */
const VARINT_LIMIT = 2 ** 50
const NULL = 0
const ESCAPE = 1
/**
 * ByteIn's BigInts made from numbers, kept by the number's low bits (a power of 2). Few: a value a slot keeps
 * survives as long as the slot does, and 4,096 slots kept each unrepeated offset and timestamp past two
 * scavenges into the old space (scale-100000: 108 MB promoted against 94 without any; 64 slots: 75-80 MB)
 */
const BIGINT_SLOTS = 64

export class ByteOut {
  buf: Buffer
  pos = 0

  constructor(size = 64 * 1024) {
    this.buf = Buffer.allocUnsafe(size)
  }

  /** room for n more bytes */
  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return
    // a copy: the buffer doubled, what was written kept
    const b = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n))
    this.buf.copy(b, 0, 0, this.pos)
    this.buf = b
  }

  u8(v: number): void {
    this.ensure(1)
    this.buf[this.pos++] = v
  }

  bool(v: boolean): void {
    this.u8(v ? 1 : 0)
  }

  /** an unsigned integer up to 2^53 */
  uv(v: number): void {
    this.ensure(8)
    const b = this.buf
    let p = this.pos
    if (v < 0x80) {
      b[p] = v
      this.pos = p + 1
      return
    }
    // past 2^28 the low 28 bits as four 7-bit groups with integer operations, then the rest (a timestamp's
    // or an offset's division per byte in floating point cost most of the temp files' writing)
    if (v >= 0x10000000) {
      const lo = v % 0x10000000
      b[p++] = (lo & 0x7f) | 0x80
      b[p++] = ((lo >>> 7) & 0x7f) | 0x80
      b[p++] = ((lo >>> 14) & 0x7f) | 0x80
      b[p++] = ((lo >>> 21) & 0x7f) | 0x80
      v = (v - lo) / 0x10000000
    }
    while (v >= 0x80) {
      b[p++] = (v & 0x7f) | 0x80
      v >>>= 7
    }
    b[p++] = v
    this.pos = p
  }

  /** a safe integer of either sign */
  sv(v: number): void {
    this.uv(v >= 0 ? v * 2 : -v * 2 - 1)
  }

  /** a number or null (an int32 field that may be absent) */
  nsv(v: number | null): void {
    if (v === null) this.u8(0)
    else this.uv((v >= 0 ? v * 2 : -v * 2 - 1) + 1)
  }

  /** a 64-bit integer or null */
  i64(v: bigint | null): void {
    if (v === null) {
      this.u8(NULL)
      return
    }
    const n = toNumber(v)
    if (n < VARINT_LIMIT && n > -VARINT_LIMIT) {
      this.uv((n >= 0 ? n * 2 : -n * 2 - 1) + 2)
      return
    }
    this.u8(ESCAPE)
    this.ensure(8)
    this.buf.writeBigInt64LE(v, this.pos)
    this.pos += 8
  }

  /** a string: its UTF-8 bytes after their count */
  text(s: string): void {
    const n = s.length
    if (n < 0x80) {
      // ASCII (nearly every name and id) written as it is read, the count known beforehand
      this.ensure(1 + n)
      const b = this.buf
      let p = this.pos + 1
      let i = 0
      for (; i < n; i++) {
        const c = s.charCodeAt(i)
        if (c >= 0x80) break
        b[p++] = c
      }
      if (i === n) {
        b[this.pos] = n
        this.pos = p
        return
      }
    }
    const len = Buffer.byteLength(s, 'utf8')
    this.uv(len)
    this.ensure(len)
    this.buf.write(s, this.pos, len, 'utf8')
    this.pos += len
  }

  ntext(s: string | null): void {
    this.bool(s !== null)
    if (s !== null) this.text(s)
  }
}

export class ByteIn {
  buf: Buffer = Buffer.alloc(0)
  pos = 0
  private readonly intern = new AsciiIntern()
  /** the last value read into each slot (by its low bits) and its BigInt; NaN: none */
  private readonly bigKeys = new Float64Array(BIGINT_SLOTS).fill(Number.NaN)
  private readonly bigValues: bigint[] = new Array<bigint>(BIGINT_SLOTS).fill(0n)

  /** reads `buf` from `pos` on */
  at(buf: Buffer, pos: number): this {
    this.buf = buf
    this.pos = pos
    return this
  }

  u8(): number {
    return this.buf[this.pos++]!
  }

  bool(): boolean {
    return this.buf[this.pos++] === 1
  }

  uv(): number {
    const b = this.buf
    let p = this.pos
    let c = b[p++]!
    if (c < 0x80) {
      this.pos = p
      return c
    }
    // the first four 7-bit groups with integer operations, anything past them (2^28 and up) multiplied in
    let v = c & 0x7f
    let shift = 7
    for (;;) {
      c = b[p++]!
      if (shift === 28) break
      v |= (c & 0x7f) << shift
      if (c < 0x80) {
        this.pos = p
        return v
      }
      shift += 7
    }
    let mul = 0x10000000
    for (;;) {
      v += (c & 0x7f) * mul
      if (c < 0x80) break
      c = b[p++]!
      mul *= 0x80
    }
    this.pos = p
    return v
  }

  sv(): number {
    const z = this.uv()
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2
  }

  nsv(): number | null {
    const u = this.uv()
    if (u === 0) return null
    const z = u - 1
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2
  }

  /** a 64-bit integer or null, as a number below 2^50, else as a bigint: a value is always read in one form, and `<`, `>` compare either exactly */
  ni64n(): number | bigint | null {
    const u = this.uv()
    if (u === NULL) return null
    if (u === ESCAPE) {
      const v = this.buf.readBigInt64LE(this.pos)
      this.pos += 8
      return v
    }
    const z = u - 2
    return z % 2 === 0 ? z / 2 : -(z + 1) / 2
  }

  i64(): bigint {
    return this.ni64()!
  }

  ni64(): bigint | null {
    const v = this.ni64n()
    if (typeof v !== 'number') return v
    // the same values come back many times (a producer id in every run, commit and coordinator record of its
    // transactions, a timestamp in a marker and a record of its coordinator): each made once while it stays in
    // its slot, not a BigInt allocated per field
    const k = v & (BIGINT_SLOTS - 1)
    if (this.bigKeys[k] === v) return this.bigValues[k]!
    const b = fromSafeNumber(v)
    this.bigKeys[k] = v
    this.bigValues[k] = b
    return b
  }

  text(): string {
    const len = this.uv()
    const at = this.pos
    this.pos += len
    return this.intern.get(this.buf, at, len)
  }

  ntext(): string | null {
    return this.bool() ? this.text() : null
  }
}
