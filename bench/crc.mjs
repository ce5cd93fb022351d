#!/usr/bin/env node
// CRC-32C throughput on real batches: crc-32/crc32c (tsdump's dependency, pure JS) vs @node-rs/crc32 (native, SIMD).
// @node-rs/crc32 is installed into a scratch dir outside the repo (default /tmp/crcbench, $CRCBENCH_DIR), never into the project.
// usage: node bench/crc.mjs FILE.log      (prints a markdown table on stdout)
// Two workloads: per batch (one call per v2 batch over bytes 21..end, as a dump verifies them; every result is checked
// against the stored CRC) and bulk (one call per 16 MiB window: the libraries' raw speed without per-call overhead).
import { createRequire } from 'node:module'
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const require = createRequire(import.meta.url)
const file = process.argv[2]
if (!file) { console.error('usage: node bench/crc.mjs FILE.log'); process.exit(2) }

const scratch = process.env.CRCBENCH_DIR ?? '/tmp/crcbench'
const NODE_RS = '@node-rs/crc32@1.10.8'
function loadNodeRs () {
  const req = createRequire(path.join(scratch, 'package.json'))
  try { return req('@node-rs/crc32') } catch { /* install below */ }
  fs.mkdirSync(scratch, { recursive: true })
  if (!fs.existsSync(path.join(scratch, 'package.json'))) fs.writeFileSync(path.join(scratch, 'package.json'), '{"name":"crcbench","private":true}\n')
  console.error(`installing ${NODE_RS} into ${scratch}`)
  const r = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--prefix', scratch, NODE_RS], { stdio: ['ignore', 'ignore', 'inherit'] })
  if (r.status !== 0) return undefined
  try { return req('@node-rs/crc32') } catch { return undefined }
}

const crc32 = require('crc-32/crc32c')
const libs = [
  { name: `crc-32/crc32c ${require('crc-32/package.json').version} (pure JS)`, fn: (b) => crc32.buf(b, 0) >>> 0 }
]
const nodeRs = loadNodeRs()
if (nodeRs) libs.push({ name: `${NODE_RS} crc32c (native)`, fn: (b) => nodeRs.crc32c(b) })
libs.push({ name: '(loop only: window walk + subarray, no CRC)', fn: () => 0, baseline: true })
if (process.env.CRC_BENCH_ONLY) libs.splice(0, libs.length, ...libs.filter(l => l.name.includes(process.env.CRC_BENCH_ONLY)))

const WINDOW = 16 * 1024 * 1024
const size = fs.statSync(file).size

/** Walk the batches window by window; calls fn(batchBytesFrom21, storedCrc) for each. Returns bytes checksummed. */
function perBatch (fn) {
  const fd = fs.openSync(file, 'r')
  const buf = Buffer.allocUnsafe(WINDOW + 1024 * 1024)
  let pos = 0; let have = 0; let start = 0; let bytes = 0; let batches = 0; let bad = 0; let ns = 0n
  for (;;) {
    // compact and refill
    if (start > 0) { buf.copy(buf, 0, start, have); have -= start; start = 0 }
    const n = fs.readSync(fd, buf, have, buf.length - have, pos)
    pos += n; have += n
    let p = 0
    const t0 = process.hrtime.bigint()
    while (p + 61 <= have) {
      const size = buf.readInt32BE(p + 8) + 12
      if (p + size > have) break
      const stored = buf.readUInt32BE(p + 17)
      const c = fn(buf.subarray(p + 21, p + size))
      if (c !== stored && c !== 0) bad++
      bytes += size - 21; batches++
      p += size
    }
    ns += process.hrtime.bigint() - t0
    start = p
    if (n === 0) break
  }
  fs.closeSync(fd)
  return { bytes, batches, bad, secs: Number(ns) / 1e9 }
}

function bulk (fn) {
  const fd = fs.openSync(file, 'r')
  const buf = Buffer.allocUnsafe(WINDOW)
  let n; let bytes = 0; let ns = 0n; let acc = 0
  while ((n = fs.readSync(fd, buf, 0, WINDOW, null)) > 0) {
    const t0 = process.hrtime.bigint()
    acc ^= fn(buf.subarray(0, n))
    ns += process.hrtime.bigint() - t0
    bytes += n
  }
  fs.closeSync(fd)
  return { bytes, secs: Number(ns) / 1e9, acc }
}

const mibs = (b, s) => (b / 1048576 / s).toFixed(0)
const rows = []
for (const lib of libs) {
  perBatch(lib.fn) // warm-up pass (JIT, page cache)
  const pb = [perBatch(lib.fn), perBatch(lib.fn), perBatch(lib.fn)].sort((a, b) => a.secs - b.secs)[1]
  const bk = [bulk(lib.fn), bulk(lib.fn), bulk(lib.fn)].sort((a, b) => a.secs - b.secs)[1]
  rows.push({ lib: lib.name, pb, bk })
  console.error(`${lib.name}: per batch ${pb.secs.toFixed(2)} s (${mibs(pb.bytes, pb.secs)} MiB/s, ${pb.bad} mismatches), bulk ${bk.secs.toFixed(2)} s (${mibs(bk.bytes, bk.secs)} MiB/s)`)
}
const first = rows[0]
const out = []
out.push(`Input: ${path.basename(path.dirname(file))}/${path.basename(file)} (${size} bytes, ${first.pb.batches} batches, mean ${(first.pb.bytes / first.pb.batches).toFixed(0)} CRC'd bytes per batch). Median of 3 passes after a warm-up; CRC time only (file reads excluded), node ${process.version}.`, '')
out.push('| library | per batch: s | per batch: MiB/s | CRC mismatches | bulk 16 MiB calls: s | bulk: MiB/s |', '|---|---:|---:|---:|---:|---:|')
for (const r of rows) out.push(`| ${r.lib} | ${r.pb.secs.toFixed(2)} | ${mibs(r.pb.bytes, r.pb.secs)} | ${r.pb.bad} | ${r.bk.secs.toFixed(2)} | ${mibs(r.bk.bytes, r.bk.secs)} |`)
const base = rows.find(r => r.lib.startsWith('(loop'))
if (base) {
  out.push('', 'Per-call cost after subtracting the loop: ' + rows.filter(r => r !== base).map(r => `${r.lib.split(' ')[0]} ${((r.pb.secs - base.pb.secs) / r.pb.batches * 1e9).toFixed(0)} ns/batch`).join(', ') + '.')
  rows.splice(rows.indexOf(base), 1)
}
if (rows.length > 1) out.push('', `Speed-up of the native library: ${(rows[0].pb.secs / rows[1].pb.secs).toFixed(1)}× per batch, ${(rows[0].bk.secs / rows[1].bk.secs).toFixed(1)}× bulk.`)
console.log(out.join('\n'))
