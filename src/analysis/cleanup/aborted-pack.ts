// The aborted transactions cleanup holds from the partition scan until it runs (HeaderFacts, txn-metadata.ts), as
// bytes: a partition of small transactions aborts hundreds of thousands, and doctor holds every partition's
// through its transactions join.
import type { I64 } from '../../bytes/int64.js'
import { toBigInt } from '../../bytes/int64.js'

/** an aborted transaction as the cleaner's CleanedTransactionMetadata takes it */
export interface AbortedTxn {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
}

/** a delta this small is a varint; past it (or from a bigint) the value itself follows in 8 bytes */
const DELTA_LIMIT = 2 ** 50
/** the varint that says an 8-byte value follows */
const WHOLE = 0

/**
 * Aborted transactions (producer id, first offset, last offset) as bytes, in the order added: each value a varint
 * of its zigzag delta + 1 from the one before it (the producer id from the previous producer id, the first offset
 * from the previous first offset, the last offset from its own first), or WHOLE and the value's 8 bytes. A
 * partition's aborts are a few producers at rising offsets: 4-7 bytes each.
 */
export class AbortedPack {
  private buf = Buffer.alloc(0)
  private len = 0
  private count = 0
  private prevPid: I64 = 0
  private prevFirst: I64 = 0

  get bytes(): number {
    return this.buf.length
  }

  add(producerId: I64, first: I64, last: I64): void {
    // three values of at most 9 bytes each
    if (this.len + 27 > this.buf.length) {
      // a copy: the bytes grown by half (not doubled: what is held past a partition's scan is trimmed)
      const grown = Buffer.alloc(Math.max(64, this.buf.length + (this.buf.length >> 1), this.len + 27))
      this.buf.copy(grown, 0, 0, this.len)
      this.buf = grown
    }
    this.put(producerId, this.prevPid)
    this.put(first, this.prevFirst)
    this.put(last, first)
    this.prevPid = producerId
    this.prevFirst = first
    this.count++
  }

  private put(v: I64, from: I64): void {
    if (typeof v === 'number' && typeof from === 'number') {
      const d = v - from
      if (d < DELTA_LIMIT && d > -DELTA_LIMIT) {
        this.uv((d >= 0 ? d * 2 : -d * 2 - 1) + 1)
        return
      }
    }
    this.uv(WHOLE)
    this.buf.writeBigInt64LE(toBigInt(v), this.len)
    this.len += 8
  }

  /** an unsigned varint below 2^53, 7 bits a byte (numbers, not int32 shifts: deltas pass 2^31) */
  private uv(n: number): void {
    while (n >= 0x80) {
      this.buf[this.len++] = (n % 0x80) | 0x80
      n = Math.floor(n / 0x80)
    }
    this.buf[this.len++] = n
  }

  /** no room to grow kept */
  trim(): void {
    if (this.buf.length > this.len) this.buf = Buffer.from(this.buf.subarray(0, this.len)) // copy: the used bytes only
  }

  /** the transactions in the order added */
  list(): AbortedTxn[] {
    const out: AbortedTxn[] = []
    const b = this.buf
    let at = 0
    let pid = 0n
    let first = 0n
    const value = (from: bigint): bigint => {
      let n = 0
      let scale = 1
      for (;;) {
        const x = b[at++]!
        n += (x & 0x7f) * scale
        if (x < 0x80) break
        scale *= 0x80
      }
      if (n === WHOLE) {
        const v = b.readBigInt64LE(at)
        at += 8
        return v
      }
      const z = n - 1
      return from + BigInt(z % 2 === 0 ? z / 2 : -(z + 1) / 2)
    }
    for (let i = 0; i < this.count; i++) {
      pid = value(pid)
      first = value(first)
      out.push({ producerId: pid, firstOffset: first, lastOffset: value(first) })
    }
    return out
  }
}
