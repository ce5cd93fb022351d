// Independent encoders for the fuzzer and the big-input tier (RecordBatch v2, legacy magic 0/1 messages,
// index files), written from Kafka's "Message Format" docs and deliberately not sharing src/decode, so a
// decoder bug is not mirrored here. Large inputs are written in pieces (never one huge Buffer) and sparse
// where the bytes are zeros.
import * as fs from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const crcJs = require('crc-32/crc32c')
const crc32Ieee = require('crc-32')
let fast
try {
  fast = require('@node-rs/crc32')
} catch {
  fast = undefined
}

/** CRC-32C, chainable: crc32c(b2, crc32c(b1)) === crc32c(b1 ++ b2) */
export const crc32c =
  fast !== undefined ? (b, seed = 0) => fast.crc32c(b, seed) >>> 0 : (b, seed = 0) => crcJs.buf(b, seed) >>> 0
/** CRC-32 (IEEE) of legacy messages */
export const crc32 = (b) => crc32Ieee.buf(b, 0) >>> 0

export function uvarint(v) {
  const out = []
  let n = BigInt.asUintN(64, BigInt(v))
  do {
    let b = Number(n & 0x7fn)
    n >>= 7n
    if (n !== 0n) b |= 0x80
    out.push(b)
  } while (n !== 0n)
  return Buffer.from(out)
}
export const zz = (n) => uvarint((BigInt(n) << 1n) ^ (BigInt(n) >> 63n))
export const lp = (b) => (b === null ? zz(-1) : Buffer.concat([zz(b.length), b]))

/** One v2 record (DefaultRecord): length varint, then attributes, timestampDelta, offsetDelta, key, value, headers. */
export function record({ key = null, value = null, headers = [], ts = 0, offsetDelta = 0 }) {
  const body = Buffer.concat([
    Buffer.from([0]),
    zz(ts),
    zz(offsetDelta),
    lp(key),
    lp(value),
    zz(headers.length),
    ...headers.flatMap(([k, v]) => [lp(k), lp(v)]),
  ])
  return Buffer.concat([zz(body.length), body])
}

/**
 * The 61-byte v2 batch header for a records section of `sectionLength` bytes whose CRC-32C chain so far
 * is `sectionCrc` (the header's own CRC-covered part is prepended to the chain here).
 */
export function batchHeader(o, sectionLength, sectionCrcOf) {
  const h = Buffer.alloc(61)
  h.writeBigInt64BE(BigInt(o.baseOffset ?? 0), 0)
  h.writeInt32BE(61 - 12 + sectionLength, 8)
  h.writeInt32BE(o.partitionLeaderEpoch ?? 0, 12)
  h.writeInt8(o.magic ?? 2, 16)
  h.writeInt16BE((o.codec ?? 0) | (o.transactional ? 0x10 : 0) | (o.control ? 0x20 : 0), 21)
  h.writeInt32BE(o.lastOffsetDelta ?? Math.max(0, (o.count ?? 1) - 1), 23)
  h.writeBigInt64BE(BigInt(o.baseTimestamp ?? 1700000000000), 27)
  h.writeBigInt64BE(BigInt(o.maxTimestamp ?? o.baseTimestamp ?? 1700000000000), 35)
  h.writeBigInt64BE(BigInt(o.producerId ?? -1), 43)
  h.writeInt16BE(o.producerEpoch ?? -1, 51)
  h.writeInt32BE(o.baseSequence ?? -1, 53)
  h.writeInt32BE(o.count ?? 1, 57)
  // CRC-32C covers attributes..end: the header part first, then the section (chained by the caller's function)
  const crc = sectionCrcOf(crc32c(h.subarray(21)))
  h.writeUInt32BE(o.badCrc === true ? (crc ^ 0x5a5a5a5a) >>> 0 : crc, 17)
  return h
}

/** A whole v2 batch in memory (small batches). */
export function batch(o, section) {
  return Buffer.concat([batchHeader(o, section.length, (seed) => crc32c(section, seed)), section])
}

/** A control batch: COMMIT (1) or ABORT (0) marker for a producer. */
export function marker(o, type) {
  const key = Buffer.alloc(4)
  key.writeInt16BE(0, 0)
  key.writeInt16BE(type, 2)
  const value = Buffer.alloc(6)
  value.writeInt16BE(0, 0)
  value.writeInt32BE(o.coordinatorEpoch ?? 0, 2)
  return batch({ ...o, transactional: true, control: true, count: 1, lastOffsetDelta: 0 }, record({ key, value }))
}

/** A legacy message (magic 0 or 1): offset int64 | size int32 | crc uint32 | magic | attributes | [timestamp] | key | value */
export function legacyMessage({
  offset,
  magic = 1,
  codec = 0,
  timestamp = 1700000000000,
  key = null,
  value = null,
  badCrc = false,
}) {
  const kv = (b) => {
    const l = Buffer.alloc(4)
    l.writeInt32BE(b === null ? -1 : b.length)
    return b === null ? l : Buffer.concat([l, b])
  }
  const ts = Buffer.alloc(magic === 1 ? 8 : 0)
  if (magic === 1) ts.writeBigInt64BE(BigInt(timestamp))
  const body = Buffer.concat([Buffer.from([magic, codec]), ts, kv(key), kv(value)])
  const head = Buffer.alloc(16)
  head.writeBigInt64BE(BigInt(offset), 0)
  head.writeInt32BE(4 + body.length, 8)
  const crc = crc32(body)
  head.writeUInt32BE(badCrc ? (crc ^ 1) >>> 0 : crc, 12)
  return Buffer.concat([head, body])
}

export function offsetIndexEntry(relOffset, position) {
  const b = Buffer.alloc(8)
  b.writeInt32BE(relOffset, 0)
  b.writeInt32BE(position, 4)
  return b
}
export function timeIndexEntry(timestamp, relOffset) {
  const b = Buffer.alloc(12)
  b.writeBigInt64BE(BigInt(timestamp), 0)
  b.writeInt32BE(relOffset, 8)
  return b
}
export function txnIndexEntry(producerId, first, last, lso) {
  const b = Buffer.alloc(34)
  b.writeInt16BE(0, 0)
  b.writeBigInt64BE(BigInt(producerId), 2)
  b.writeBigInt64BE(BigInt(first), 10)
  b.writeBigInt64BE(BigInt(last), 18)
  b.writeBigInt64BE(BigInt(lso), 26)
  return b
}

/** Appends buffers to a file through an 8 MiB staging buffer (big inputs without big parent memory). */
export class FileWriter {
  constructor(path) {
    this.fd = fs.openSync(path, 'w')
    this.buf = Buffer.allocUnsafe(8 << 20)
    this.n = 0
    this.pos = 0
  }
  write(b) {
    if (b.length > this.buf.length - this.n) this.flush()
    if (b.length > this.buf.length) {
      fs.writeSync(this.fd, b, 0, b.length, this.pos)
      this.pos += b.length
      return
    }
    b.copy(this.buf, this.n)
    this.n += b.length
  }
  flush() {
    if (this.n > 0) {
      fs.writeSync(this.fd, this.buf, 0, this.n, this.pos)
      this.pos += this.n
      this.n = 0
    }
  }
  /** leave a hole of n zero bytes (sparse on any filesystem that supports it) */
  hole(n) {
    this.flush()
    this.pos += n
  }
  close() {
    this.flush()
    fs.ftruncateSync(this.fd, this.pos)
    fs.closeSync(this.fd)
  }
}

/** CRC-32C chain over `n` zero bytes. */
export function crcOfZeros(seed, n) {
  const z = Buffer.alloc(Math.min(n, 8 << 20))
  let crc = seed
  for (let left = n; left > 0; left -= z.length) crc = crc32c(left >= z.length ? z : z.subarray(0, left), crc)
  return crc
}

/**
 * A producer snapshot (ProducerSnapshot.json v1) of `n` producers, written in pieces (a million producers: 46 MB
 * plus the header, never one buffer); every `openEvery`-th producer has a transaction open at `lastOffset`.
 */
export function producerSnapshot(file, n, { openEvery = 0, badCrc = false, cut = 0 } = {}) {
  const head = Buffer.alloc(10)
  head.writeInt16BE(1, 0)
  head.writeInt32BE(n, 6)
  const fd = fs.openSync(file, 'w')
  let crc = crc32c(head.subarray(6))
  const per = 65536
  let pos = 10
  for (let first = 0; first < n; first += per) {
    const m = Math.min(per, n - first)
    const b = Buffer.alloc(m * 46)
    for (let i = 0; i < m; i++) {
      const pid = first + i
      const o = i * 46
      b.writeBigInt64BE(BigInt(pid), o)
      b.writeInt16BE(pid % 7, o + 8)
      b.writeInt32BE(pid % 1000, o + 10)
      b.writeBigInt64BE(BigInt(pid), o + 14)
      b.writeInt32BE(0, o + 22)
      b.writeBigInt64BE(1700000000000n + BigInt(pid), o + 26)
      b.writeInt32BE(-1, o + 34)
      b.writeBigInt64BE(openEvery > 0 && pid % openEvery === 0 ? BigInt(pid) : -1n, o + 38)
    }
    crc = crc32c(b, crc)
    fs.writeSync(fd, b, 0, b.length, pos)
    pos += b.length
  }
  head.writeUInt32BE(badCrc ? (crc ^ 1) >>> 0 : crc, 2)
  fs.writeSync(fd, head, 0, 10, 0)
  fs.closeSync(fd)
  if (cut > 0) fs.truncateSync(file, pos - cut)
}
