// Decompression throughput of tsdump's codecs against the candidate packages.
// Usage: npx tsc -p . && node bench/codecs.mjs [MiB=64]
// Data: JSON-ish record values (ids, timestamps, words, numbers) cut into batches of 16 KiB to 1 MiB,
// compressed the way producers do: snappy raw + xerial (32 KiB chunks, snappy-java's writer),
// lz4 frames with 64 KiB blocks (Kafka's writer), zstd level 3 with and without content size.
import { createRequire } from 'node:module'
import * as zlib from 'node:zlib'
import { decompress as fzstdDecompress } from 'fzstd'
import { getCodec } from '../dist/decode/codecs/index.js'

const require = createRequire(import.meta.url)
const snappyjs = require('snappyjs')
const lz4js = require('lz4js')
// the native reference codecs are not root devDependencies (they need a compiler, #12 item 18): they come with
// the fixture generator's own install, `npm --prefix scripts/fixtures install`
const fixturesRequire = createRequire(new URL('../scripts/fixtures/package.json', import.meta.url))
let lz4native, zstdNapi
try {
  lz4native = fixturesRequire('lz4')
  zstdNapi = fixturesRequire('zstd-napi')
} catch {
  console.error('bench/codecs.mjs needs the native reference codecs: npm --prefix scripts/fixtures install')
  process.exit(2)
}

const totalMiB = Number(process.argv[2] ?? 64)
const words = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
]
let seed = 42
const rand = (n) => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0
  return seed % n
}

function record(i) {
  const w = Array.from({ length: 3 + rand(6) }, () => words[rand(words.length)]).join(' ')
  return JSON.stringify({
    id: i,
    user: `user-${rand(100000)}`,
    ts: 1700000000000 + i * 17,
    event: words[rand(12)],
    amount: rand(1000000) / 100,
    note: w,
    tags: [words[rand(12)], words[rand(12)]],
  })
}

const batches = []
let total = 0
let i = 0
while (total < totalMiB * 1024 * 1024) {
  const size = 16384 * 2 ** rand(7) // 16 KiB .. 1 MiB
  const parts = []
  let n = 0
  while (n < size) {
    const r = record(i++)
    parts.push(r)
    n += r.length + 1
  }
  const b = Buffer.from(parts.join('\n'))
  batches.push(b)
  total += b.length
}

const XERIAL = Buffer.from([0x82, 0x53, 0x4e, 0x41, 0x50, 0x50, 0x59, 0x00, 0, 0, 0, 1, 0, 0, 0, 1])
function xerial(b) {
  const parts = [XERIAL]
  for (let p = 0; p < b.length; p += 32768) {
    const c = snappyjs.compress(b.subarray(p, p + 32768))
    const len = Buffer.alloc(4)
    len.writeInt32BE(c.length)
    parts.push(len, c)
  }
  return Buffer.concat(parts)
}
const zstdStreamLike = new zstdNapi.Compressor()
zstdStreamLike.setParameters({ compressionLevel: 3, contentSizeFlag: false, windowLog: 21 })

const sets = {
  gzip: batches.map((b) => zlib.gzipSync(b)),
  'snappy-raw': batches.map((b) => snappyjs.compress(b)),
  'snappy-xerial': batches.map(xerial),
  lz4: batches.map((b) => lz4native.encode(b, { blockMaxSize: 64 << 10, streamChecksum: false })),
  'zstd-fcs': batches.map((b) => zstdNapi.compress(b, { compressionLevel: 3 })),
  'zstd-nofcs': batches.map((b) => zstdStreamLike.compress(b)),
}

const MAX = 256 * 1024 * 1024
const codecs = { gzip: getCodec(1), snappy: getCodec(2), lz4: getCodec(3), zstd: getCodec(4) }
const snappyjsXerial = (c) => {
  const out = []
  for (let p = 16; p < c.length; ) {
    const n = c.readInt32BE(p)
    out.push(snappyjs.uncompress(c.subarray(p + 4, p + 4 + n)))
    p += 4 + n
  }
  return Buffer.concat(out)
}
const candidates = [
  ['gzip', 'tsdump gzip (node:zlib)', (c) => codecs.gzip.decompress(c, MAX, { magic: 2 })],
  ['snappy-raw', 'tsdump snappy', (c) => codecs.snappy.decompress(c, MAX, { magic: 2 })],
  ['snappy-raw', 'snappyjs', (c) => snappyjs.uncompress(c)],
  ['snappy-xerial', 'tsdump snappy', (c) => codecs.snappy.decompress(c, MAX, { magic: 2 })],
  ['snappy-xerial', 'snappyjs + unframe', snappyjsXerial],
  ['lz4', 'tsdump lz4', (c) => codecs.lz4.decompress(c, MAX, { magic: 2 })],
  ['lz4', 'lz4js', (c) => lz4js.decompress(c)],
  ['lz4', 'lz4 (native, reference)', (c) => lz4native.decode(c)],
  ['zstd-fcs', 'tsdump zstd', (c) => codecs.zstd.decompress(c, MAX, { magic: 2 })],
  ['zstd-fcs', 'fzstd one-shot', (c) => fzstdDecompress(c)],
  ['zstd-fcs', 'zstd-napi (native, reference)', (c) => zstdNapi.decompress(c)],
  ['zstd-nofcs', 'tsdump zstd', (c) => codecs.zstd.decompress(c, MAX, { magic: 2 })],
  ['zstd-nofcs', 'fzstd one-shot', (c) => fzstdDecompress(c)],
  ['zstd-nofcs', 'zstd-napi (native, reference)', (c) => zstdNapi.decompress(c)],
]

console.log(`${batches.length} batches, ${(total / 1048576).toFixed(1)} MiB uncompressed`)
for (const [set, name, fn] of candidates.filter(([s]) => process.env.ONLY === undefined || s === process.env.ONLY)) {
  const input = sets[set]
  const csize = input.reduce((a, b) => a + b.length, 0)
  // warm-up and correctness check on the first batches
  for (let k = 0; k < Math.min(5, input.length); k++) {
    const out = Buffer.from(fn(input[k]))
    if (!out.equals(batches[k])) throw new Error(`${name} on ${set}: wrong output for batch ${k}`)
  }
  let best = Infinity
  for (let run = 0; run < 5; run++) {
    const t0 = process.hrtime.bigint()
    for (const c of input) fn(c)
    best = Math.min(best, Number(process.hrtime.bigint() - t0) / 1e9)
  }
  console.log(
    `${set.padEnd(14)} ${name.padEnd(30)} ratio ${(total / csize).toFixed(2).padStart(5)}  ${(total / 1048576 / best).toFixed(0).padStart(5)} MB/s (output)`,
  )
}
