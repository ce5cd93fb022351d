#!/usr/bin/env node
// Micro-benchmark for the lead: the shallow dump's text path (formatBatchLine + writer) on real batch headers,
// with tsdump's FdWriter vs a writer that encodes each string straight into a preallocated buffer.
// usage: node bench/writer-micro.mjs FILE.log [distDir=dist]   (writes to /dev/null)
import fs from 'node:fs'
import path from 'node:path'
const file = process.argv[2]
const dist = path.resolve(process.argv[3] ?? 'dist')
const { FdWriter } = await import(path.join(dist, 'cli/context.js'))
const { decodeBatchHeader } = await import(path.join(dist, 'decode/batch-header.js'))
const { formatBatchLine } = await import(path.join(dist, 'format/dump-text.js'))

class BufWriter {
  constructor (fd, size = 1 << 20) { this.fd = fd; this.buf = Buffer.allocUnsafe(size); this.pos = 0; this.closed = false }
  write (s) {
    if (this.buf.length - this.pos < s.length * 3) { this.flush(); if (s.length * 3 > this.buf.length) { fs.writeSync(this.fd, s); return } }
    this.pos += this.buf.utf8Write(s, this.pos)
  }
  flush () { let o = 0; while (o < this.pos) o += fs.writeSync(this.fd, this.buf, o, this.pos - o); this.pos = 0 }
}
const data = fs.readFileSync(file).subarray(0, 128 << 20)
const headers = []
for (let p = 0; p + 61 <= data.length;) { const n = data.readInt32BE(p + 8) + 12; if (p + n > data.length) break; headers.push(p); p += n }
const fd = fs.openSync('/dev/null', 'w')
function run (name, mk, decode) {
  const times = []
  for (let rep = 0; rep < 5; rep++) {
    const w = mk()
    const t0 = process.hrtime.bigint()
    for (const p of headers) w.write(formatBatchLine(decodeBatchHeader(data.subarray(p), p), true) + '\n')
    w.flush()
    times.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  times.sort((a, b) => a - b)
  console.log(`${name}: ${times[2].toFixed(0)} ms for ${headers.length} batch lines (median of 5)`)
}
run('FdWriter (chunks.join + Buffer.from, 256 KiB)', () => new FdWriter(fd))
run('BufWriter (utf8Write into 1 MiB buffer)', () => new BufWriter(fd))
run('FdWriter (chunks.join + Buffer.from, 256 KiB)', () => new FdWriter(fd))
run('BufWriter (utf8Write into 1 MiB buffer)', () => new BufWriter(fd))
{
  const sink = { write (s) { this.n += s.length }, flush () {}, n: 0 }
  run('decode + format only (no writer)', () => sink)
  const times = []
  for (let rep = 0; rep < 5; rep++) {
    let x = 0
    const t0 = process.hrtime.bigint()
    for (const p of headers) x += decodeBatchHeader(data.subarray(p), p).recordsCount
    times.push(Number(process.hrtime.bigint() - t0) / 1e6)
  }
  times.sort((a, b) => a - b)
  console.log(`decodeBatchHeader only: ${times[2].toFixed(0)} ms`)
}
