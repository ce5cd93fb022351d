// A bounds-checked big-endian cursor over a Buffer view. Every read checks first and reports the
// absolute file position (`base + pos`), so a corrupt length can never read outside its frame.
import { DecodeError } from './decode-error.js'

export class ByteReader {
  pos: number
  readonly end: number

  /** @param base absolute file position of `buf[0]`, used only in error messages */
  constructor(
    readonly buf: Buffer,
    readonly base = 0,
    start = 0,
    end = buf.length,
  ) {
    this.pos = start
    this.end = end
  }

  get remaining(): number {
    return this.end - this.pos
  }
  get absolute(): number {
    return this.base + this.pos
  }

  need(n: number, field = 'field'): void {
    if (n < 0 || this.pos + n > this.end) {
      throw new DecodeError(
        'TRUNCATED',
        `${field}: needs ${n} bytes at position ${this.absolute}, only ${this.remaining} left`,
        this.absolute,
        { field },
      )
    }
  }

  readInt8(field?: string): number {
    this.need(1, field)
    return this.buf.readInt8(this.pos++)
  }
  readUint8(field?: string): number {
    this.need(1, field)
    return this.buf[this.pos++]!
  }
  readInt16(field?: string): number {
    this.need(2, field)
    const v = this.buf.readInt16BE(this.pos)
    this.pos += 2
    return v
  }
  readUint16(field?: string): number {
    this.need(2, field)
    const v = this.buf.readUInt16BE(this.pos)
    this.pos += 2
    return v
  }
  readInt32(field?: string): number {
    this.need(4, field)
    const v = this.buf.readInt32BE(this.pos)
    this.pos += 4
    return v
  }
  readUint32(field?: string): number {
    this.need(4, field)
    const v = this.buf.readUInt32BE(this.pos)
    this.pos += 4
    return v
  }
  readInt64(field?: string): bigint {
    this.need(8, field)
    const v = this.buf.readBigInt64BE(this.pos)
    this.pos += 8
    return v
  }

  /** zigzag varint, at most 5 bytes (Kafka ByteUtils.readVarint) */
  readVarint(field = 'varint'): number {
    let value = 0
    let shift = 0
    for (let i = 0; i < 5; i++) {
      this.need(1, field)
      const b = this.buf[this.pos++]!
      value |= (b & 0x7f) << shift
      if ((b & 0x80) === 0) return (value >>> 1) ^ -(value & 1)
      shift += 7
    }
    throw new DecodeError(
      'VARINT_TOO_LONG',
      `${field}: varint longer than 5 bytes at position ${this.absolute - 5}`,
      this.absolute - 5,
      { field },
    )
  }

  /** unsigned varint, at most 5 bytes (used by flexible protocol messages) */
  readUnsignedVarint(field = 'uvarint'): number {
    let value = 0
    let shift = 0
    for (let i = 0; i < 5; i++) {
      this.need(1, field)
      const b = this.buf[this.pos++]!
      value += (b & 0x7f) * 2 ** shift
      if ((b & 0x80) === 0) return value
      shift += 7
    }
    throw new DecodeError(
      'VARINT_TOO_LONG',
      `${field}: varint longer than 5 bytes at position ${this.absolute - 5}`,
      this.absolute - 5,
      { field },
    )
  }

  /** zigzag varlong, at most 10 bytes. The record timestampDelta is a varlong (a trap other decoders fell into). */
  readVarlong(field = 'varlong'): bigint {
    // fast path: values that fit in 28 bits, the common case for deltas
    const start = this.pos
    let small = 0
    for (let i = 0; i < 4; i++) {
      if (this.pos >= this.end) break
      const b = this.buf[this.pos++]!
      small |= (b & 0x7f) << (7 * i)
      if ((b & 0x80) === 0) return BigInt((small >>> 1) ^ -(small & 1))
    }
    this.pos = start
    let value = 0n
    let shift = 0n
    for (let i = 0; i < 10; i++) {
      this.need(1, field)
      const b = this.buf[this.pos++]!
      value |= BigInt(b & 0x7f) << shift
      if ((b & 0x80) === 0) return (value >> 1n) ^ -(value & 1n)
      shift += 7n
    }
    throw new DecodeError(
      'VARINT_TOO_LONG',
      `${field}: varlong longer than 10 bytes at position ${this.base + start}`,
      this.base + start,
      { field },
    )
  }

  /** A view of the next n bytes (no copy). */
  readBytes(n: number, field = 'bytes'): Buffer {
    this.need(n, field)
    const v = this.buf.subarray(this.pos, this.pos + n)
    this.pos += n
    return v
  }

  /** varint length-prefixed bytes; -1 means null, other negatives are corrupt. */
  readVarintBytes(field = 'bytes'): Buffer | null {
    const at = this.absolute
    const n = this.readVarint(field)
    if (n === -1) return null
    if (n < 0) throw new DecodeError('BAD_LENGTH', `${field}: length ${n} at position ${at}`, at, { field })
    return this.readBytes(n, field)
  }

  /** A reader bounded to the next n bytes; this reader advances past them. */
  child(n: number, field = 'region'): ByteReader {
    this.need(n, field)
    const r = new ByteReader(this.buf, this.base, this.pos, this.pos + n)
    this.pos += n
    return r
  }
}
