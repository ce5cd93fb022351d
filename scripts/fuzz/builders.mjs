// Builders of the large hostile inputs: each writes one segment file in pieces (never one huge Buffer),
// sparse where the bytes are zeros, with valid CRCs unless asked otherwise.
import * as fs from 'node:fs'
import { gzipSync } from 'node:zlib'
import {
  FileWriter,
  batch,
  batchHeader,
  crc32c,
  crcOfZeros,
  legacyMessage,
  marker,
  record,
  uvarint,
  zz,
} from './encode.mjs'

const MiB = 1 << 20

/** A single batch of one record whose value is `valueBytes` zeros, written sparse (the zeros are a hole). */
export function hugeBatch(file, valueBytes) {
  // the record: length | attributes 0 | timestampDelta 0 | offsetDelta 0 | key null | value length | value | headers 0
  const body = Buffer.concat([Buffer.from([0]), zz(0), zz(0), zz(-1), zz(valueBytes)])
  const bodyLen = body.length + valueBytes + 1
  const prefix = Buffer.concat([zz(bodyLen), body])
  const sectionLen = prefix.length + valueBytes + 1
  const h = batchHeader({ count: 1 }, sectionLen, (seed) => crcOfZeros(crc32c(prefix, seed), valueBytes + 1))
  const w = new FileWriter(file)
  w.write(h)
  w.write(prefix)
  w.hole(valueBytes + 1)
  w.close()
}

/** One batch of `n` tiny records (null key, empty value), encoded straight into 8 MiB chunks. */
export function manyRecordsBatch(file, n) {
  // record i: length | attributes 0 | timestampDelta 0 | offsetDelta zz(i) | key -1 | value length 0 | headers 0
  const zzLen = (i) => uvarint(BigInt(i) << 1n).length
  let size = 0
  for (let i = 0; i < n; i++) size += 6 + zzLen(i)
  const fd = fs.openSync(file, 'w')
  const chunk = Buffer.alloc(8 * MiB)
  const h = batchHeader({ count: n }, size, (seed) => {
    let crc = seed
    let pos = 61
    let k = 0
    for (let i = 0; i < n; i++) {
      if (k + 16 > chunk.length) {
        crc = crc32c(chunk.subarray(0, k), crc)
        fs.writeSync(fd, chunk, 0, k, pos)
        pos += k
        k = 0
      }
      const d = uvarint(BigInt(i) << 1n)
      chunk[k++] = (5 + d.length) * 2 // zigzag body length: attributes, tsDelta, offsetDelta, key, value length, headers
      chunk[k++] = 0
      chunk[k++] = 0
      d.copy(chunk, k)
      k += d.length
      chunk[k++] = 1
      chunk[k++] = 0
      chunk[k++] = 0
    }
    crc = crc32c(chunk.subarray(0, k), crc)
    fs.writeSync(fd, chunk, 0, k, pos)
    return crc
  })
  fs.writeSync(fd, h, 0, h.length, 0)
  fs.closeSync(fd)
}

/** A gzip batch whose records (1 MiB values of pseudo-random text) decompress to about `bytes`; multi-member, built in pieces. */
export function gzipBatch(file, bytes, recordBytes) {
  const n = Math.max(1, Math.floor(bytes / recordBytes))
  const value = Buffer.alloc(recordBytes)
  for (let i = 0; i < value.length; i++) value[i] = 97 + ((i * 2654435761) >>> 27)
  const members = []
  for (let i = 0; i < n; ) {
    const part = []
    for (let k = 0; k < 16 && i < n; k++, i++) part.push(record({ value, offsetDelta: i }))
    members.push(gzipSync(Buffer.concat(part), { level: 1 }))
  }
  const len = members.reduce((a, m) => a + m.length, 0)
  const h = batchHeader({ count: n, codec: 1 }, len, (seed) => {
    let c = seed
    for (const m of members) c = crc32c(m, c)
    return c
  })
  const w = new FileWriter(file)
  w.write(h)
  for (const m of members) w.write(m)
  w.close()
}

/** A decompression bomb: a gzip batch whose stream inflates to `bytes` zeros. */
export function bombBatch(file, bytes) {
  const members = []
  const chunk = Buffer.alloc(Math.min(bytes, 64 * MiB))
  const one = gzipSync(chunk, { level: 9 })
  for (let left = bytes; left > 0; left -= chunk.length)
    members.push(left >= chunk.length ? one : gzipSync(chunk.subarray(0, left), { level: 9 }))
  const section = Buffer.concat(members)
  fs.writeFileSync(file, batch({ count: 1000, codec: 1 }, section))
}

/**
 * Transactions of one small data batch + COMMIT each, until `bytes`; distinct producer ids when
 * `distinctPids`. baseOffset is outside the CRC, so one template per producer is patched and reused.
 */
export function transactions(file, bytes, distinctPids) {
  const w = new FileWriter(file)
  const templates = new Map()
  const pair = (pid) => {
    let t = templates.get(pid)
    if (t === undefined) {
      const o = { producerId: pid, producerEpoch: 0, baseSequence: 0, transactional: true, count: 1 }
      const data = batch(o, record({ value: Buffer.from('v'), offsetDelta: 0 }))
      t = { bytes: Buffer.concat([data, marker({ producerId: pid, producerEpoch: 0 }, 1)]), markerAt: data.length }
      if (!distinctPids) templates.set(pid, t)
    }
    return t
  }
  let off = 0
  for (let i = 0; w.pos + w.n < bytes; i++) {
    const t = pair(distinctPids ? 1000 + i : 1000 + (i % 8))
    t.bytes.writeBigInt64BE(BigInt(off), 0)
    t.bytes.writeBigInt64BE(BigInt(off + 1), t.markerAt)
    w.write(t.bytes)
    off += 2
  }
  w.close()
  return off
}

/** `n` one-record batches; `gap` offsets skipped after each; `badCrc` on every batch. */
export function smallBatches(file, n, { gap = 0, badCrc = false } = {}) {
  const w = new FileWriter(file)
  const positions = []
  for (let i = 0, off = 0; i < n; i++, off += 1 + gap) {
    positions.push(w.pos + w.n)
    w.write(
      batch(
        { baseOffset: off, count: 1, badCrc, baseTimestamp: 1700000000000 + i },
        record({ value: Buffer.from('x'), offsetDelta: 0 }),
      ),
    )
  }
  w.close()
  return positions
}

/**
 * A legacy magic-1 gzip wrapper of `n` inner messages (relative inner offsets, wrapper offset = the
 * last). The offset is outside a legacy message's CRC, so one encoded message is copied and patched.
 */
export function legacyWrapper(file, n, { badInnerCrcAt = -1, descending = false } = {}) {
  // null key and value: 34 bytes a message, so 7.7 M of them (262 MB) stay within the 256 MiB decompression cap
  const good = legacyMessage({ offset: 0 })
  const bad = legacyMessage({ offset: 0, badCrc: true })
  const members = []
  const per = 100_000
  const part = Buffer.alloc(per * good.length)
  for (let i = 0; i < n; ) {
    let k = 0
    for (let j = 0; j < per && i < n; j++, i++) {
      ;(i === badInnerCrcAt ? bad : good).copy(part, k)
      part.writeBigInt64BE(BigInt(descending ? n - 1 - i : i), k)
      k += good.length
    }
    members.push(gzipSync(part.subarray(0, k), { level: 9 }))
  }
  fs.writeFileSync(file, legacyMessage({ offset: n - 1, codec: 1, value: Buffer.concat(members) }))
}

/**
 * A __transaction_state segment of `n` one-record batches (as the coordinator writes them): key v0
 * {transactionalId}, value v0 {producerId, producerEpoch, transactionTimeoutMs, transactionStatus,
 * transactionPartitions, lastUpdate, start}, cycling Ongoing / PrepareCommit / CompleteCommit over `ids`
 * transactional ids (Kafka's TransactionLogKey/Value JSON definitions; int16-prefixed strings, int32 arrays).
 */
export function transactionStateLog(file, n, ids) {
  const w = new FileWriter(file)
  const str = (s) => {
    const b = Buffer.from(s)
    const l = Buffer.alloc(2)
    l.writeInt16BE(b.length)
    return Buffer.concat([l, b])
  }
  const STATUS = [1, 2, 4] // Ongoing, PrepareCommit, CompleteCommit
  for (let i = 0; i < n; i++) {
    const id = i % ids
    const key = Buffer.concat([Buffer.from([0, 0]), str(`txn-app-${id}`)])
    const status = STATUS[Math.floor(i / ids) % 3]
    const fixed = Buffer.alloc(2 + 8 + 2 + 4 + 1)
    fixed.writeInt16BE(0, 0)
    fixed.writeBigInt64BE(BigInt(1000 + id), 2)
    fixed.writeInt16BE(0, 10)
    fixed.writeInt32BE(60000, 12)
    fixed[16] = status
    const parts = Buffer.alloc(4)
    parts.writeInt32BE(status === 4 ? 0 : 1)
    const topicPart =
      status === 4 ? Buffer.alloc(0) : Buffer.concat([str('orders'), Buffer.from([0, 0, 0, 1, 0, 0, 0, id % 12])])
    const times = Buffer.alloc(16)
    times.writeBigInt64BE(BigInt(1700000000000 + i), 0)
    times.writeBigInt64BE(BigInt(1700000000000 + i - (i % 3)), 8)
    const value = Buffer.concat([fixed, parts, topicPart, times])
    w.write(batch({ baseOffset: i, count: 1, baseTimestamp: 1700000000000 + i }, record({ key, value })))
  }
  w.close()
}
