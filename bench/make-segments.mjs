#!/usr/bin/env node
// Benchmark inputs for issue #6: large segments made only of batches that a real Kafka broker wrote.
//
// usage: node bench/make-segments.mjs [--out bench/data] [--size 1GiB] [--big 4GiB] [--only plain,zstd-lz4,txn,big]
//                                      [--force] [--list]
//
// Each input is `<out>/<topic>-0/00000000000000000000.log`. It is built by streaming: the template
// batches (read from fixtures/broker/*/logs, a few KiB) are appended again and again with their
// baseOffset (bytes 0-7) rewritten so that offsets run on without gaps. The CRC-32C of a v2 batch
// covers bytes 21.. (attributes onward), not baseOffset nor partitionLeaderEpoch, so every batch
// keeps a valid CRC. Nothing else is changed: producer ids, sequences, timestamps and record bytes
// are the broker's. Batches are appended in the order of their source segment (one "pass" of a
// source = all its batches), so transactional data batches stay followed by their markers.
// The file ends on a batch boundary at or below the requested size. Memory: one 8 MiB chunk.
//
// Inputs (topic dir names):
//   bench-plain-<size>     small uncompressed records (non-transactional, non-control batches of
//                          codecs/codec-none and interleaved)
//   bench-zstd-lz4-<size>  compressed batches: zstd and lz4 data batches of codecs (broker-* and
//                          codec-*), with the transaction markers of those segments
//   bench-txn-<size>       transactional: orders-* and interleaved/mixed-0 segments, all batches
//                          (data + COMMIT/ABORT markers), one pass each in turn
//   bench-orders-11-<size> the orders-11 partitions (all batches: 78-563 B, half of them markers), one pass each in turn
//   bench-mid-<size>       ~3.5 KiB uncompressed batches written by a private real broker (bench/make-large-batches.sh
//                          --kind mid; template kept in bench/data/templates)
//   bench-large-txn-<size> ~0.9 MB transactional batches + COMMIT markers, written by a private real broker from
//                          Kafka's ProducerPerformance (bench/make-large-batches.sh; template kept in bench/data/templates)
//   bench-plain-<big>      the same as bench-plain, 4 GiB (kafka-dump-log refuses > 2 GiB)
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { execFileSync } from 'node:child_process'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')
const fixtures = path.join(repo, 'fixtures', 'broker')

export function parseSize(s) {
  const m = /^(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|K|M|G)?$/i.exec(String(s).trim())
  if (!m) throw new Error(`bad size: ${s}`)
  const mult = { b: 1, k: 1024, kib: 1024, m: 1024 ** 2, mib: 1024 ** 2, g: 1024 ** 3, gib: 1024 ** 3 }[
    (m[2] ?? 'b').toLowerCase()
  ]
  return Math.floor(Number(m[1]) * mult)
}

export function sizeLabel(n) {
  if (n % 1024 ** 3 === 0) return `${n / 1024 ** 3}GiB`
  if (n % 1024 ** 2 === 0) return `${n / 1024 ** 2}MiB`
  if (n % 1024 === 0) return `${n / 1024}KiB`
  return `${n}B`
}

/** v2 batches of one segment file: [{ buf, lastOffsetDelta, codec, txn, control }] */
function readBatches(file) {
  const b = fs.readFileSync(file)
  const out = []
  let p = 0
  while (p + 61 <= b.length) {
    const len = b.readInt32BE(p + 8)
    const size = len + 12
    if (len < 49 || p + size > b.length) break
    const magic = b[p + 16]
    if (magic !== 2) throw new Error(`${file}@${p}: magic ${magic}, only v2 is used for benchmarks`)
    const attr = b.readInt16BE(p + 21)
    out.push({
      buf: Buffer.from(b.subarray(p, p + size)),
      lastOffsetDelta: b.readInt32BE(p + 23),
      codec: attr & 7,
      txn: (attr & 0x10) !== 0,
      control: (attr & 0x20) !== 0,
      src: path.relative(repo, file),
    })
    p += size
  }
  return out
}

function segmentsOf(partitionDir) {
  const dir = path.join(fixtures, partitionDir)
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.log'))
    .sort()
    .map((f) => path.join(dir, f))
}

function partitionDirs(scenario, re) {
  const logs = path.join(fixtures, scenario, 'logs')
  return fs
    .readdirSync(logs)
    .filter((d) => re.test(d))
    .sort()
    .map((d) => path.join(scenario, 'logs', d))
}

/** Template passes per input kind: an array of passes, each an array of batches in order. */
export function templates(kind) {
  const passesOf = (dirs, keep) =>
    dirs.map((d) => segmentsOf(d).flatMap(readBatches).filter(keep)).filter((p) => p.length > 0)
  switch (kind) {
    case 'plain': {
      const keep = (b) => b.codec === 0 && !b.txn && !b.control
      return passesOf([...partitionDirs('codecs', /^codec-none-/), ...partitionDirs('interleaved', /^mixed-/)], keep) // (not compacted/: its batches have offset holes, which kafka-dump-log collects and reports)
    }
    case 'zstd-lz4': {
      // data batches of zstd (4) and lz4 (3), plus the markers that close their transactions
      const keep = (b) => b.control || b.codec === 3 || b.codec === 4
      return passesOf(partitionDirs('codecs', /^(broker|codec)-(zstd|lz4)-/), keep)
    }
    case 'txn': {
      const keep = () => true
      return passesOf(
        [...partitionDirs('orders', /^orders-/), ...partitionDirs('interleaved', /^mixed-/)],
        keep,
      ).filter((p) => p.some((b) => b.txn))
    }
    case 'orders-11': // the issue #15 small-transactional shape: 78-563 B batches, half of them markers
      return passesOf(partitionDirs('orders', /^orders-11-/), () => true)
    case 'large-txn': // ~0.9 MB transactional batches + COMMIT markers from a real broker (bench/make-large-batches.sh)
    case 'mid': // ~3.5 KiB batches from a real broker (bench/make-large-batches.sh --kind mid)
      return [brokerTemplate(kind)]
    default:
      throw new Error(`unknown kind ${kind}`)
  }
}

/** where bench/make-large-batches.sh leaves the broker-written template of `kind` */
export function templatePath(kind) {
  return path.join(here, 'data', 'templates', `${kind}-0`, '00000000000000000000.log')
}

function brokerTemplate(kind) {
  const file = templatePath(kind)
  if (!fs.existsSync(file)) {
    console.error(
      `${kind} template missing: running bench/make-large-batches.sh --kind ${kind} (starts a private broker, ~30 s)`,
    )
    execFileSync('bash', [path.join(here, 'make-large-batches.sh'), '--kind', kind], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
  return readBatches(file)
}

/** Stream `passes` repeated into `file` until `size` bytes (batch boundary, <= size). Returns stats. */
export function writeSegment(file, passes, size) {
  fs.mkdirSync(path.dirname(file), { recursive: true })
  const tmp = file + '.partial'
  const fd = fs.openSync(tmp, 'w')
  const CHUNK = 8 * 1024 * 1024
  const chunk = Buffer.allocUnsafe(CHUNK)
  let used = 0
  let written = 0
  let offset = 0n
  const st = { batches: 0, records: 0, control: 0, txnData: 0, compressed: 0, bytes: 0, nextOffset: 0n }
  const flat = passes.flat()
  const maxBatch = flat.reduce((m, b) => Math.max(m, b.buf.length), 0)
  if (maxBatch > CHUNK) throw new Error('batch larger than chunk')
  outer: for (;;) {
    for (const pass of passes) {
      for (const b of pass) {
        if (written + used + b.buf.length > size) break outer
        if (used + b.buf.length > CHUNK) {
          fs.writeSync(fd, chunk, 0, used)
          written += used
          used = 0
        }
        b.buf.copy(chunk, used)
        chunk.writeBigInt64BE(offset, used)
        used += b.buf.length
        offset += BigInt(b.lastOffsetDelta + 1)
        st.batches++
        st.records += b.buf.readInt32BE(57)
        if (b.control) st.control++
        else if (b.txn) st.txnData++
        if (b.codec !== 0) st.compressed++
      }
    }
  }
  if (used > 0) {
    fs.writeSync(fd, chunk, 0, used)
    written += used
  }
  fs.closeSync(fd)
  fs.renameSync(tmp, file)
  st.bytes = written
  st.nextOffset = offset
  return st
}

export function inputsFor(size, big) {
  const s = sizeLabel(size)
  const list = [
    { name: `plain-${s}`, kind: 'plain', size, topic: `bench-plain-${s}`, desc: 'small uncompressed records' },
    {
      name: `zstd-lz4-${s}`,
      kind: 'zstd-lz4',
      size,
      topic: `bench-zstd-lz4-${s}`,
      desc: 'zstd + lz4 batches (+ markers)',
    },
    { name: `txn-${s}`, kind: 'txn', size, topic: `bench-txn-${s}`, desc: 'transactional data + COMMIT/ABORT markers' },
    {
      name: `orders-11-${s}`,
      kind: 'orders-11',
      size,
      topic: `bench-orders-11-${s}`,
      desc: 'the orders-11 partitions repeated: small transactional batches, half of them COMMIT/ABORT markers',
    },
    {
      name: `mid-${s}`,
      kind: 'mid',
      size,
      topic: `bench-mid-${s}`,
      desc: '~3.5 KiB uncompressed batches from a real broker (bench/make-large-batches.sh --kind mid)',
    },
    {
      name: `large-txn-${s}`,
      kind: 'large-txn',
      size,
      topic: `bench-large-txn-${s}`,
      desc: '~0.9 MB transactional batches + COMMIT markers (bench/make-large-batches.sh)',
      modes: ['cat', 'read', 'shallow', 'reconcile'],
    },
  ]
  if (big) {
    const b = sizeLabel(big)
    list.push({
      name: `plain-${b}`,
      kind: 'plain',
      size: big,
      topic: `bench-plain-${b}`,
      desc: 'small uncompressed records',
      big: true,
    })
  }
  return list
}

export function segmentPath(out, input) {
  return path.join(out, input.topic + '-0', '00000000000000000000.log')
}

/** Make the inputs that are missing (or all with force). Returns [{ input, file, stats? }]. */
export function ensureSegments({ out, size, big, only, force = false, log = console.error }) {
  const res = []
  for (const input of inputsFor(size, big)) {
    if (only && !only.includes(input.kind) && !(input.big && only.includes('big'))) continue
    const file = segmentPath(out, input)
    const metaFile = path.join(out, input.topic + '-0.meta.json') // outside the partition dir: reconcile reads the dir
    if (!force && fs.existsSync(file) && fs.existsSync(metaFile)) {
      res.push({ input, file, stats: JSON.parse(fs.readFileSync(metaFile, 'utf8')) })
      continue
    }
    checkRoom(out, input.size)
    const t0 = process.hrtime.bigint()
    const passes = templates(input.kind)
    const st = writeSegment(file, passes, input.size)
    const secs = Number(process.hrtime.bigint() - t0) / 1e9
    const stats = {
      ...st,
      nextOffset: String(st.nextOffset),
      sources: [...new Set(passes.flat().map((b) => b.src))],
      templateBatches: passes.flat().length,
      seconds: Math.round(secs * 10) / 10,
    }
    fs.writeFileSync(metaFile, JSON.stringify(stats, null, 2) + '\n')
    log(
      `made ${path.relative(process.cwd(), file)}: ${st.bytes} bytes, ${st.batches} batches, ${st.records} records, ${st.control} markers, ${secs.toFixed(1)} s`,
    )
    res.push({ input, file, stats })
  }
  return res
}

function checkRoom(out, bytes) {
  fs.mkdirSync(out, { recursive: true })
  const s = fs.statfsSync(out)
  const free = s.bavail * s.bsize
  if (free < bytes + 2 * 1024 ** 3)
    throw new Error(
      `not enough disk in ${out}: ${(free / 1024 ** 3).toFixed(1)} GiB free, need ${(bytes / 1024 ** 3).toFixed(1)} GiB + 2 GiB headroom`,
    )
}

function main(argv) {
  const opt = { out: path.join(here, 'data'), size: '1GiB', big: '4GiB', only: undefined, force: false, list: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--out') opt.out = argv[++i]
    else if (a === '--size') opt.size = argv[++i]
    else if (a === '--big') opt.big = argv[++i]
    else if (a === '--no-big') opt.big = '0'
    else if (a === '--only') opt.only = argv[++i].split(',')
    else if (a === '--force') opt.force = true
    else if (a === '--list') opt.list = true
    else {
      console.error(`unknown argument ${a}`)
      process.exit(2)
    }
  }
  const size = parseSize(opt.size)
  const big = parseSize(opt.big) || undefined
  if (opt.list) {
    for (const kind of ['plain', 'zstd-lz4', 'txn', 'orders-11', 'mid', 'large-txn']) {
      const t = templates(kind)
      const flat = t.flat()
      console.log(
        `${kind}: ${t.length} passes, ${flat.length} batches, ${flat.reduce((a, b) => a + b.buf.length, 0)} bytes per round; sources ${[...new Set(flat.map((b) => b.src))].join(' ')}`,
      )
    }
    return
  }
  for (const r of ensureSegments({ out: opt.out, size, big, only: opt.only, force: opt.force })) {
    console.log(`${r.file}\t${r.stats.bytes}\t${r.stats.batches} batches`)
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main(process.argv.slice(2))
