// The one walk over v2 records (Kafka DefaultRecord):
//   length varint | attributes int8 | timestampDelta varlong | offsetDelta varint |
//   keyLength varint, key | valueLength varint, value | headersCount varint |
//   headers: headerKeyLength varint, headerKey | headerValueLength varint, value
// A flyweight: next() reads one record's fields into numbers (positions and lengths into `buf`), so
// walking a batch allocates nothing per record. decodeRecords builds KafkaRecord objects from it, the
// byte-level line writers (format/record-lines-fast.ts) print from it, and a streamed batch
// (decode/streamed-records.ts) feeds it chunk by chunk. Every field is read inside the record's own
// declared length, so a corrupt inner length cannot escape its record; problems are DecodeErrors with
// the absolute position `base + index` and the same words ByteReader uses.
import type { DecodeContext } from '../bytes/decode-error.js'
import { DecodeError } from './errors.js'

/** smallest possible encoded record: 7 one-byte fields */
export const MIN_RECORD_SIZE = 7

const EMPTY = Buffer.alloc(0)
const NO_CONTEXT: DecodeContext = {}

export class RecordCursor {
  buf: Buffer = EMPTY
  /** absolute position of buf[0]: error positions are base + index */
  base = 0
  /** where the next record starts */
  pos = 0
  /** end of the records' bytes in buf */
  end = 0
  ctx: DecodeContext = NO_CONTEXT

  // the current record (after next)
  /** index in buf of its length varint */
  start = 0
  /** the declared length (bytes after the length varint) */
  length = 0
  attributes = 0
  /** a number when |value| < 2^48 (7 varlong bytes), else NaN: read timestampDeltaBig() */
  timestampDelta = 0
  private longTimestampDelta = 0n
  offsetDelta = 0
  /** -1: null */
  keyLength = -1
  keyAt = 0
  /** -1: null */
  valueLength = -1
  valueAt = 0
  headersCount = 0
  headersAt = 0
  /** index in buf of the current record's end */
  recEndAt = 0

  // the current header (after nextHeader)
  headerKeyAt = 0
  headerKeyLength = 0
  headerValueAt = 0
  /** -1: null */
  headerValueLength = -1
  private hp = 0
  private limit = 0

  /** Records in buf[start, end); buf[0] is at absolute position `base`. */
  at(buf: Buffer, start: number, end: number, base: number, ctx: DecodeContext = NO_CONTEXT): this {
    this.buf = buf
    this.pos = start
    this.end = end
    this.base = base
    this.ctx = ctx
    return this
  }

  get remaining(): number {
    return this.end - this.pos
  }
  /** end of the current record in buf (after next) */
  get recordEnd(): number {
    return this.recEndAt
  }

  /**
   * Read record `index` at pos and move pos past it.
   * @throws DecodeError TRUNCATED, VARINT_TOO_LONG, BAD_LENGTH, BAD_RECORD
   */
  next(index: number): void {
    this.head(index)
    this.pos += Math.max(0, this.valueLength)
    this.tail(index)
  }

  /**
   * The record's fields up to its value (pos is then valueAt; the key and the value's length are checked
   * against the record's declared length and the end). A record too large for a window is read head,
   * value in pieces, tail (decode/streamed-records.ts).
   */
  head(index: number): void {
    const start = this.pos
    this.start = start
    this.limit = this.end
    const length = this.varint('record length')
    if (length < MIN_RECORD_SIZE - 1) {
      throw new DecodeError('BAD_RECORD', `record ${index} length ${length} is too small`, this.base + start, {
        ...this.ctx,
        recordIndex: index,
      })
    }
    // (the field name is built only for the message: a template string per record cost ~5% of a deep dump)
    if (this.pos + length > this.limit) this.need(length, `record ${index}`)
    this.length = length
    this.recEndAt = this.pos + length
    this.limit = this.recEndAt
    // length >= 6: the attributes byte is inside the record
    this.attributes = (this.buf[this.pos++]! << 24) >> 24
    this.timestampDelta = this.varlong('timestampDelta')
    this.offsetDelta = this.varint('offsetDelta')
    this.keyLength = this.varintLength('key')
    this.keyAt = this.pos
    this.pos += Math.max(0, this.keyLength)
    this.valueLength = this.varintLength('value')
    this.valueAt = this.pos
    this.headersCount = 0
  }

  /** The headers after the value (pos at its end) and the check that the fields fill the declared length. */
  tail(index: number): void {
    const recEnd = this.recEndAt
    this.readHeaders(recEnd)
    if (this.pos !== recEnd) {
      throw new DecodeError(
        'BAD_RECORD',
        `record ${index} declares ${this.length} bytes but its fields use ${this.length - (recEnd - this.pos)}`,
        this.base + this.start,
        { ...this.ctx, recordIndex: index },
      )
    }
  }

  /**
   * The bytes moved: what was at index `shift` of the old buffer is at 0 of `buf` (a window moved on).
   * Every index follows; absolute positions (base + index) stay the same.
   */
  rebase(buf: Buffer, shift: number): void {
    this.buf = buf
    this.base += shift
    this.pos -= shift
    this.end -= shift
    this.start -= shift
    this.recEndAt -= shift
    this.keyAt -= shift
    this.valueAt -= shift
    this.headersAt -= shift
  }

  /** headersCount and every header of the record ending at recEnd, from pos (checked, not kept: nextHeader walks them) */
  readHeaders(recEnd: number): void {
    this.limit = recEnd
    const at = this.pos
    const count = this.varint('headersCount')
    if (count < 0 || count > (recEnd - this.pos) / 2) {
      throw new DecodeError(
        'BAD_RECORD',
        `headersCount ${count} with ${recEnd - this.pos} bytes left`,
        this.base + at,
        { field: 'headersCount' },
      )
    }
    this.headersCount = count
    this.headersAt = this.pos
    for (let i = 0; i < count; i++) {
      const k = this.varintLength('header key')
      if (k === -1)
        throw new DecodeError('BAD_RECORD', 'header key is null', this.base + this.pos, { field: 'header key' })
      this.pos += k
      const v = this.varintLength('header value') // read first: `pos += f()` would add to the pos before f moved it
      this.pos += Math.max(0, v)
    }
  }

  /** Start walking the current record's headers (already checked by next). */
  firstHeader(): void {
    this.hp = this.headersAt
  }

  /** The next header of the current record into headerKeyAt/Length, headerValueAt/Length. */
  nextHeader(): void {
    const b = this.buf
    let p = this.hp
    let k = 0
    for (let s = 0, x = 0x80; (x & 0x80) !== 0; s += 7) {
      x = b[p++]!
      k |= (x & 0x7f) << s
    }
    this.headerKeyLength = (k >>> 1) ^ -(k & 1)
    this.headerKeyAt = p
    p += this.headerKeyLength
    let v = 0
    for (let s = 0, x = 0x80; (x & 0x80) !== 0; s += 7) {
      x = b[p++]!
      v |= (x & 0x7f) << s
    }
    this.headerValueLength = (v >>> 1) ^ -(v & 1)
    this.headerValueAt = p
    this.hp = p + Math.max(0, this.headerValueLength)
  }

  /** timestampDelta of the current record as a BigInt, exact for every varlong */
  timestampDeltaBig(): bigint {
    return Number.isNaN(this.timestampDelta) ? this.longTimestampDelta : BigInt(this.timestampDelta)
  }

  private need(n: number, field: string): void {
    if (n < 0 || this.pos + n > this.limit) {
      const at = this.base + this.pos
      throw new DecodeError(
        'TRUNCATED',
        `${field}: needs ${n} bytes at position ${at}, only ${this.limit - this.pos} left`,
        at,
        { field },
      )
    }
  }

  /** zigzag varint, at most 5 bytes (Kafka ByteUtils.readVarint) */
  varint(field: string): number {
    const p = this.pos
    if (p < this.limit) {
      const x = this.buf[p]!
      if (x < 0x80) {
        this.pos = p + 1
        return (x >>> 1) ^ -(x & 1)
      } // one byte: the common case
    }
    return this.longVarint(field)
  }

  private longVarint(field: string): number {
    const b = this.buf
    let value = 0
    for (let i = 0; i < 5; i++) {
      if (this.pos >= this.limit) this.need(1, field)
      const x = b[this.pos++]!
      value |= (x & 0x7f) << (7 * i)
      if ((x & 0x80) === 0) return (value >>> 1) ^ -(value & 1)
    }
    const at = this.base + this.pos - 5
    throw new DecodeError('VARINT_TOO_LONG', `${field}: varint longer than 5 bytes at position ${at}`, at, { field })
  }

  // zigzag varlong, at most 10 bytes; a number up to 7 bytes (|value| < 2^48), NaN beyond (still checked)
  private varlong(field: string): number {
    const b = this.buf
    const start = this.pos
    if (start < this.limit && b[start]! < 0x80) {
      const x = b[start]!
      this.pos = start + 1
      return (x >>> 1) ^ -(x & 1)
    }
    let v = 0
    let mul = 1
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.limit) this.need(1, field)
      const x = b[this.pos++]!
      if (i < 7) v += (x & 0x7f) * mul
      if ((x & 0x80) === 0) {
        if (i < 7) return v % 2 === 0 ? v / 2 : -(v + 1) / 2
        this.longTimestampDelta = longVarlong(b, start) // rare: only past 2^48
        return NaN
      }
      mul *= 128
    }
    const at = this.base + start
    throw new DecodeError('VARINT_TOO_LONG', `${field}: varlong longer than 10 bytes at position ${at}`, at, { field })
  }

  // the length of a varint-prefixed byte field (-1 null), its bytes checked to be inside the record
  private varintLength(field: string): number {
    const at = this.base + this.pos
    const n = this.varint(field)
    if (n === -1) return -1
    if (n < 0) throw new DecodeError('BAD_LENGTH', `${field}: length ${n} at position ${at}`, at, { field })
    if (this.pos + n > this.limit) this.need(n, field)
    return n
  }
}

/** the zigzag varlong at b[p] (already checked to end within 10 bytes) as a BigInt */
function longVarlong(b: Buffer, p: number): bigint {
  let value = 0n
  let shift = 0n
  for (; ; p++) {
    const x = b[p]!
    value |= BigInt(x & 0x7f) << shift
    if ((x & 0x80) === 0) return (value >> 1n) ^ -(value & 1n)
    shift += 7n
  }
}
