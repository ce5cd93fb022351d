#!/usr/bin/env node
// A segment where every transaction has its own producer id: the shape of issue #14's "1 M producer
// ids" row and of the `txns` memory test (test/commands/txns-memory.test.ts). Synthetic on purpose (no
// broker writes 1 M producer ids into one partition in reasonable time); the batch layout is the v2
// one of test/support/txn-segment-builder.ts: per producer one transactional data batch of `--records`
// records, then its COMMIT marker (every `--abort-every`th an ABORT), offsets without gaps, CRC-32C valid.
//
// usage: node bench/make-producers.mjs --out DIR [--producers 1000000] [--records 1] [--abort-every 0] [--hang]
//   --hang: producer 999 opens a transaction first and never ends it (a hanging transaction: every
//           later run waits behind it, so txns lists it early)
//   writes DIR/bench-producers-0/00000000000000000000.log (DIR is created; bench/data is gitignored)
// Needs the build (dist/) for CRC-32C. Memory: one output chunk.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const { crc32c } = await import(path.join(here, '..', 'dist', 'bytes', 'crc32c.js'))

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : dflt
}

function uvarint(n) {
  const out = []
  let v = n >>> 0
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80)
    v >>>= 7
  }
  out.push(v)
  return out
}
const varint = (n) => uvarint(((n << 1) ^ (n >> 31)) >>> 0)

function record(offsetDelta, key, value) {
  const body = Buffer.concat([
    Buffer.from([0, ...varint(0), ...varint(offsetDelta), ...varint(key.length)]),
    key,
    Buffer.from(varint(value.length)),
    value,
    Buffer.from(varint(0)),
  ])
  return Buffer.concat([Buffer.from(varint(body.length)), body])
}

/** one v2 batch; producerId and baseOffset are patched per copy (the CRC is recomputed then) */
function batch(control, type, count) {
  const records = control
    ? [record(0, Buffer.from([0, 0, 0, type]), Buffer.from([0, 0, 0, 0, 0, 7]))]
    : Array.from({ length: count }, (_, i) => record(i, Buffer.from(`k${i}`), Buffer.from(`value ${i}`)))
  const body = Buffer.concat(records)
  const h = Buffer.alloc(61)
  h.writeInt32BE(61 - 12 + body.length, 8)
  h.writeInt8(2, 16)
  h.writeInt16BE(0x10 | (control ? 0x20 : 0), 21)
  h.writeInt32BE(control ? 0 : count - 1, 23)
  h.writeBigInt64BE(1_700_000_000_000n, 27)
  h.writeBigInt64BE(1_700_000_000_000n, 35)
  h.writeInt16BE(0, 51)
  h.writeInt32BE(control ? -1 : 0, 53)
  h.writeInt32BE(control ? 1 : count, 57)
  return Buffer.concat([h, body])
}

export function writeProducerSegment(out, producers, records, abortEvery, hang = false) {
  const dir = path.join(out, 'bench-producers-0')
  fs.mkdirSync(dir, { recursive: true })
  const file = path.join(dir, '00000000000000000000.log')
  const data = batch(false, 0, records)
  const commit = batch(true, 1, 1)
  const abort = batch(true, 0, 1)
  const fd = fs.openSync(file, 'w')
  const chunk = Buffer.alloc(8 * 1024 * 1024)
  let used = 0
  let offset = 0
  const put = (tpl, pid) => {
    if (used + tpl.length > chunk.length) {
      fs.writeSync(fd, chunk, 0, used)
      used = 0
    }
    const b = chunk.subarray(used, used + tpl.length)
    tpl.copy(b)
    b.writeBigInt64BE(BigInt(offset), 0)
    b.writeBigInt64BE(BigInt(pid), 43)
    b.writeUInt32BE(crc32c(b.subarray(21)), 17)
    used += tpl.length
    offset += tpl === data ? records : 1
  }
  if (hang) put(data, 999)
  for (let p = 0; p < producers; p++) {
    const pid = 1000 + p
    put(data, pid)
    put(abortEvery > 0 && p % abortEvery === abortEvery - 1 ? abort : commit, pid)
  }
  fs.writeSync(fd, chunk, 0, used)
  fs.closeSync(fd)
  return file
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = arg('out', path.join(here, 'data'))
  const file = writeProducerSegment(
    out,
    Number(arg('producers', '1000000')),
    Number(arg('records', '1')),
    Number(arg('abort-every', '0')),
    process.argv.includes('--hang'),
  )
  console.log(`${file}: ${fs.statSync(file).size} bytes`)
}
