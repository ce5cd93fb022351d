// Builders of zstd batches for the hostile-input classes (issue #14): libzstd (WebAssembly, the tests' reference
// compressor) writes the blocks; the frame header is rewritten to the shape Kafka's Java producers write
// (zstd-jni's streaming writer: no content size, a window descriptor).
import * as zstdWasm from '@bokuweb/zstd-wasm'
import { FileWriter, batchHeader, crc32c, record } from './encode.mjs'

await zstdWasm.init()
const MiB = 1 << 20
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd]

/**
 * A libzstd frame of `data` without its content size, as zstd-jni's streaming writer leaves it: a single-segment
 * frame (small input) gets the window descriptor of the smallest power of two covering it; `windowDescriptor`
 * replaces whatever it would declare.
 */
export function kafkaFrame(data, level = 3, windowDescriptor = undefined) {
  const f = Buffer.from(zstdWasm.compress(data, level))
  const fhd = f[4]
  const single = (fhd >> 5) & 1
  const fcsBytes = [single, 2, 4, 8][fhd >> 6]
  const wdAt = single === 1 ? -1 : 5
  const wd =
    windowDescriptor ?? (wdAt > 0 ? f[wdAt] : (Math.max(10, Math.ceil(Math.log2(Math.max(1, data.length)))) - 10) << 3)
  const dictBytes = [0, 1, 2, 4][fhd & 3]
  const rest = 5 + (wdAt > 0 ? 1 : 0) + dictBytes + fcsBytes
  return Buffer.concat([
    Buffer.from(MAGIC),
    Buffer.from([fhd & 0x1f & ~0x20, wd]),
    f.subarray(5 + (wdAt > 0 ? 1 : 0), 5 + (wdAt > 0 ? 1 : 0) + dictBytes),
    f.subarray(rest),
  ])
}

function zstdBatchFile(file, section, count) {
  const h = batchHeader({ count, codec: 4 }, section.length, (seed) => crc32c(section, seed))
  const w = new FileWriter(file)
  w.write(h)
  w.write(section)
  w.close()
}

/** pseudo-random record text (words and base-36 numbers): libzstd gets about 2.3:1 */
function recordText(bytes, seed) {
  const words = ['kafka', 'topic', 'partition', 'offset', '{"id":', '"ts":', 'producer', 'zstd', '\n', ' ']
  const b = Buffer.allocUnsafe(bytes)
  let x = seed >>> 0
  for (let n = 0; n < bytes; ) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    n += b.write(`${words[x % words.length]}${(x >>> 8).toString(36)} `, n)
  }
  return b
}

/** bytes libzstd cannot compress: with values of 128 KiB and more, it stores raw blocks */
function noise(bytes, seed) {
  const b = Buffer.allocUnsafe(bytes)
  let x = seed >>> 0
  for (let i = 0; i < bytes; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0
    b[i] = x >>> 24
  }
  return b
}

/**
 * One zstd batch of records with `recordBytes`-byte values decompressing to about `bytes` (every fourth value
 * incompressible), one frame as Kafka writes it; returns the record count.
 */
export function zstdBatch(file, bytes, recordBytes, seed = 1) {
  const n = Math.max(1, Math.floor(bytes / recordBytes))
  const parts = []
  for (let i = 0; i < n; i++)
    parts.push(record({ value: (i % 4 === 3 ? noise : recordText)(recordBytes, seed + i), offsetDelta: i }))
  zstdBatchFile(file, kafkaFrame(Buffer.concat(parts), 3), n) // level 3: Kafka's default (windowLog 21)
  return n
}

let repetitive
/** 8 MiB that libzstd compresses to a few KiB: compressed blocks of 128 KiB output from a few bytes each */
function repetitiveFrame() {
  repetitive ??= kafkaFrame(Buffer.alloc(8 * MiB, 'kafka zstd bomb '), 3)
  return repetitive
}

/**
 * A zstd decompression bomb inflating to about `bytes`: 'rle' (one frame of 128 KiB RLE blocks of 4 bytes each),
 * 'compressed' (libzstd frames of repetitive text), or 'wide-window' (one compressed frame of `bytes` declaring a
 * 1 GiB window: past tsdump's window cap when `bytes` is over 4 MiB).
 */
export function zstdBombBatch(file, bytes, kind) {
  let section
  if (kind === 'rle') {
    const blocks = Math.max(1, Math.ceil(bytes / (128 * 1024)))
    section = Buffer.alloc(6 + 4 * blocks)
    Buffer.from([...MAGIC, 0, (21 - 10) << 3]).copy(section) // windowLog 21: as Kafka's level-3 frames
    for (let i = 0; i < blocks; i++)
      section.writeUIntLE(((128 * 1024) << 3) | (1 << 1) | (i === blocks - 1 ? 1 : 0), 6 + 4 * i, 3)
  } else if (kind === 'compressed') {
    const frame = repetitiveFrame()
    section = Buffer.concat(Array.from({ length: Math.max(1, Math.ceil(bytes / (8 * MiB))) }, () => frame))
  } else {
    section = kafkaFrame(Buffer.alloc(bytes, 'kafka zstd bomb '), 3, 20 << 3) // 2^30
  }
  zstdBatchFile(file, section, 1000)
}

/**
 * One zstd batch of `n` small records in a frame declaring a window Kafka's consumers refuse (windowLog 28-31:
 * zstd-jni keeps libzstd's limit of 27) but with one raw block, so that tsdump decodes it
 */
export function zstdKafkaRefusedWindow(file, n, windowLog) {
  const parts = []
  for (let i = 0; i < n; i++) parts.push(record({ value: Buffer.from(`v${i}`), offsetDelta: i }))
  const data = Buffer.concat(parts)
  const block = Buffer.alloc(3)
  block.writeUIntLE((data.length << 3) | 1, 0, 3)
  zstdBatchFile(file, Buffer.concat([Buffer.from(MAGIC), Buffer.from([0, (windowLog - 10) << 3]), block, data]), n)
}
