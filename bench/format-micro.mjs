#!/usr/bin/env node
// Micro-benchmark for the lead: cost of producing the shallow dump's batch lines for real headers, three ways:
//   A  tsdump today: decodeBatchHeader (BigInt fields) + formatBatchLine (template string) + FdWriter (join + Buffer.from)
//   B  same strings, written with buf.latin1Write into a preallocated 1 MiB buffer
//   C  no strings: the line is assembled as bytes straight into the output buffer (int64 fields read as two int32
//      and printed from a Number when |v| < 2^53, the usual case; BigInt only beyond) — a sketch, not a patch
// Each variant writes the same bytes (checked) to /dev/null. usage: node bench/format-micro.mjs FILE.log [distDir]
import fs from 'node:fs'
import path from 'node:path'
const file = process.argv[2]
const dist = path.resolve(process.argv[3] ?? 'dist')
const { FdWriter } = await import(path.join(dist, 'cli/context.js'))
const { decodeBatchHeader } = await import(path.join(dist, 'decode/batch-header.js'))
const { formatBatchLine } = await import(path.join(dist, 'format/dump-text.js'))

const data = fs.readFileSync(file).subarray(0, 96 << 20)
const starts = []
for (let p = 0; p + 61 <= data.length;) { const n = data.readInt32BE(p + 8) + 12; if (p + n > data.length) break; starts.push(p); p += n }
const fd = fs.openSync('/dev/null', 'w')

class BufWriter {
  constructor (fd, size = 1 << 20) { this.fd = fd; this.buf = Buffer.allocUnsafe(size); this.pos = 0 }
  write (s) { if (this.buf.length - this.pos < s.length) this.flush(); this.pos += this.buf.latin1Write(s, this.pos) }
  flush () { let o = 0; while (o < this.pos) o += fs.writeSync(this.fd, this.buf, o, this.pos - o); this.pos = 0 }
}

// --- C: byte assembly
const enc = (s) => Buffer.from(s, 'latin1')
const K = Object.fromEntries(Object.entries({
  baseOffset: 'baseOffset: ', lastOffset: ' lastOffset: ', count: ' count: ', baseSequence: ' baseSequence: ', lastSequence: ' lastSequence: ',
  producerId: ' producerId: ', producerEpoch: ' producerEpoch: ', ple: ' partitionLeaderEpoch: ', isTxn: ' isTransactional: ', isControl: ' isControl: ',
  dh: ' deleteHorizonMs: ', position: ' position: ', create: ' CreateTime: ', logAppend: ' LogAppendTime: ', size: ' size: ', magic: ' magic: ',
  codec: ' compresscodec: ', crc: ' crc: ', isvalid: ' isvalid: ', t: 'true', f: 'false', empty: 'OptionalLong.empty', nl: '\n'
}).map(([k, v]) => [k, enc(v)]))
const CODECS = ['none', 'gzip', 'snappy', 'lz4', 'zstd'].map(enc)
class ByteLine {
  constructor (fd) { this.fd = fd; this.buf = Buffer.allocUnsafe(1 << 20); this.pos = 0 }
  flush () { let o = 0; while (o < this.pos) o += fs.writeSync(this.fd, this.buf, o, this.pos - o); this.pos = 0 }
  lit (b) { b.copy(this.buf, this.pos); this.pos += b.length }
  num (n) { // integer Number, |n| < 2^53
    const buf = this.buf
    if (n < 0) { buf[this.pos++] = 45; n = -n }
    if (n < 10) { buf[this.pos++] = 48 + n; return }
    let len = 1; for (let x = n; x >= 10; x = Math.floor(x / 10)) len++
    let p = this.pos + len
    while (n >= 10) { const q = Math.floor(n / 10); buf[--p] = 48 + (n - q * 10); n = q }
    buf[--p] = 48 + n
    this.pos += len
  }
  i64 (src, off) {
    const hi = src.readInt32BE(off); const lo = src.readUInt32BE(off + 4)
    if (hi >= -0x200000 && hi < 0x200000) this.num(hi * 4294967296 + lo)
    else this.pos += this.buf.latin1Write(src.readBigInt64BE(off).toString(), this.pos)
  }
  batch (b, p, crcOk) {
    if (this.buf.length - this.pos < 512) this.flush()
    const attr = b.readInt16BE(p + 21); const lod = b.readInt32BE(p + 23); const bseq = b.readInt32BE(p + 53)
    this.lit(K.baseOffset); this.i64(b, p)
    this.lit(K.lastOffset); { const hi = b.readInt32BE(p); const lo = b.readUInt32BE(p + 4); this.num(hi * 4294967296 + lo + lod) }
    this.lit(K.count); this.num(b.readInt32BE(p + 57))
    this.lit(K.baseSequence); this.num(bseq)
    this.lit(K.lastSequence); this.num(bseq === -1 ? -1 : (bseq > 0x7FFFFFFF - lod ? lod - (0x7FFFFFFF - bseq) - 1 : bseq + lod))
    this.lit(K.producerId); this.i64(b, p + 43)
    this.lit(K.producerEpoch); this.num(b.readInt16BE(p + 51))
    this.lit(K.ple); this.num(b.readInt32BE(p + 12))
    this.lit(K.isTxn); this.lit((attr & 0x10) ? K.t : K.f)
    this.lit(K.isControl); this.lit((attr & 0x20) ? K.t : K.f)
    this.lit(K.dh); if (attr & 0x40) { this.pos += this.buf.latin1Write(`OptionalLong[${b.readBigInt64BE(p + 27)}]`, this.pos) } else this.lit(K.empty)
    this.lit(K.position); this.num(p)
    this.lit((attr & 0x08) ? K.logAppend : K.create); this.i64(b, p + 35)
    this.lit(K.size); this.num(b.readInt32BE(p + 8) + 12)
    this.lit(K.magic); this.num(b[p + 16])
    this.lit(K.codec); this.lit(CODECS[attr & 7])
    this.lit(K.crc); this.num(b.readUInt32BE(p + 17))
    this.lit(K.isvalid); this.lit(crcOk ? K.t : K.f)
    this.lit(K.nl)
  }
}

function time (name, fn) {
  const ts = []
  for (let r = 0; r < 5; r++) { const t0 = process.hrtime.bigint(); fn(); ts.push(Number(process.hrtime.bigint() - t0) / 1e6) }
  ts.sort((a, b) => a - b)
  console.log(`${name.padEnd(62)} ${ts[2].toFixed(0).padStart(6)} ms  (${(ts[2] * 1e6 / starts.length).toFixed(0)} ns/line, ${starts.length} lines)`)
}
// equality check on the first 2000 lines
{
  const a = starts.slice(0, 2000).map(p => formatBatchLine(decodeBatchHeader(data.subarray(p), p), true) + '\n').join('')
  const w = new ByteLine(fd); for (const p of starts.slice(0, 2000)) w.batch(data, p, true)
  const b = w.buf.subarray(0, w.pos).toString('latin1'); w.pos = 0
  if (a !== b) { console.error('C output differs from tsdump!'); process.exit(1) }
}
for (let k = 0; k < 2; k++) {
  time('A today: decodeBatchHeader + formatBatchLine + FdWriter', () => { const w = new FdWriter(fd); for (const p of starts) w.write(formatBatchLine(decodeBatchHeader(data.subarray(p), p), true) + '\n'); w.flush() })
  time('B same strings, latin1Write into a 1 MiB buffer', () => { const w = new BufWriter(fd); for (const p of starts) w.write(formatBatchLine(decodeBatchHeader(data.subarray(p), p), true) + '\n'); w.flush() })
  time('C bytes assembled directly (no header object, no strings)', () => { const w = new ByteLine(fd); for (const p of starts) w.batch(data, p, true); w.flush() })
}
