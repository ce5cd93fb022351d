// Legacy magic 0/1 messages: synthetic entries built in-test, compressed wrappers, and real legacy
// segments from the shared corpus.
import { describe, it, expect } from 'vitest'
import * as fc from 'fast-check'
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as zlib from 'node:zlib'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import { crc32 } from '../../src/bytes/crc32.js'
import { decodeLegacyEntry, decodeLegacyRecords } from '../../src/decode/legacy.js'
import type { LegacyEntry, LegacyRecord } from '../../src/decode/legacy.js'
import { DecodeError } from '../../src/decode/errors.js'
import { decodeBatchHeader, computeBatchCrc } from '../../src/decode/batch-header.js'
import { decodeRecords } from '../../src/decode/records.js'
import { xxhash32 } from '../../src/decode/codecs/xxhash32.js'

const require = createRequire(import.meta.url)
// CommonJS packages without type declarations: typed locally.
const snappyjs = require('snappyjs') as { compress(b: Uint8Array): Buffer }
// lz4: lz4js (pure JS) blocks and xxh32 in a standard LZ4 frame, 64 KiB independent blocks, as Kafka's writer
// (the native lz4 package needed a compiler in npm ci, #12 item 18)
const lz4js = require('lz4js') as {
  compressBlock(src: Uint8Array, dst: Uint8Array, sIndex: number, sLength: number, hashTable: Uint32Array): number
  compressBound(n: number): number
}
const lz4jsXxh32 = require('lz4js/xxh32.js') as {
  hash(seed: number, src: Uint8Array, index: number, len: number): number
}
function lz4Frame64k(data: Buffer): Buffer {
  const u32 = (v: number): Buffer => {
    const b = Buffer.alloc(4)
    b.writeUInt32LE(v >>> 0)
    return b
  }
  const desc = Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x60, 0x40]) // v01, independent blocks; 64 KiB max block
  const parts = [desc, Buffer.from([(lz4jsXxh32.hash(0, desc, 4, 2) >>> 8) & 0xff])]
  for (let p = 0; p < data.length; p += 64 << 10) {
    const src = data.subarray(p, p + (64 << 10))
    const dst = Buffer.alloc(lz4js.compressBound(src.length))
    const n = lz4js.compressBlock(src, dst, 0, src.length, new Uint32Array(1 << 16))
    const stored = n === 0 || n >= src.length
    parts.push(u32(stored ? src.length | 0x80000000 : n), stored ? src : dst.subarray(0, n))
  }
  parts.push(u32(0))
  return Buffer.concat(parts)
}

interface MessageSpec {
  offset: bigint
  magic: 0 | 1
  attributes?: number
  timestamp?: bigint
  key?: Buffer | null
  value?: Buffer | null
  badCrc?: boolean
}

function lengthPrefixed(b: Buffer | null | undefined): Buffer {
  const n = Buffer.alloc(4)
  n.writeInt32BE(b == null ? -1 : b.length)
  return b == null ? n : Buffer.concat([n, b])
}

/** offset int64 | messageSize int32 | crc | magic | attributes | [timestamp] | key | value */
function message(m: MessageSpec): Buffer {
  const head = Buffer.from([m.magic, m.attributes ?? 0])
  const ts = Buffer.alloc(m.magic === 1 ? 8 : 0)
  if (m.magic === 1) ts.writeBigInt64BE(m.timestamp ?? 1700000000000n)
  const body = Buffer.concat([head, ts, lengthPrefixed(m.key), lengthPrefixed(m.value)])
  const prefix = Buffer.alloc(16)
  prefix.writeBigInt64BE(m.offset, 0)
  prefix.writeInt32BE(body.length + 4, 8)
  prefix.writeUInt32BE((crc32(body) ^ (m.badCrc === true ? 1 : 0)) >>> 0, 12)
  return Buffer.concat([prefix, body])
}

const compressors: Record<number, (b: Buffer) => Buffer> = {
  1: (b) => zlib.gzipSync(b),
  2: (b) => snappyjs.compress(b),
  3: (b) => lz4Frame64k(b),
}

function wrapper(m: MessageSpec & { codec: number }, inner: Buffer[]): Buffer {
  return message({
    ...m,
    attributes: (m.attributes ?? 0) | m.codec,
    key: null,
    value: compressors[m.codec]!(Buffer.concat(inner)),
  })
}

function decodeAll(entry: Buffer, position = 0, maxDecompressed?: number): { e: LegacyEntry; records: LegacyRecord[] } {
  const e = decodeLegacyEntry(entry, position)
  return { e, records: [...decodeLegacyRecords(e, maxDecompressed === undefined ? {} : { maxDecompressed })] }
}

function decodeError(f: () => unknown): DecodeError {
  try {
    f()
  } catch (e) {
    if (e instanceof DecodeError) return e
    throw e
  }
  throw new Error('expected a DecodeError')
}

describe('decodeLegacyEntry', () => {
  it('decodes a v0 message', () => {
    const b = message({ offset: 7n, magic: 0, key: Buffer.from('k'), value: Buffer.from('value') })
    const e = decodeLegacyEntry(b, 1000)
    expect(e).toMatchObject({
      position: 1000,
      offset: 7n,
      sizeInBytes: b.length,
      magic: 0,
      attributes: 0,
      compression: 0,
      timestampType: 'NoTimestampType',
      timestamp: -1n,
      crcValid: true,
      crc: b.readUInt32BE(12),
    })
    expect(e.key?.toString()).toBe('k')
    expect(e.value?.toString()).toBe('value')
    expect(e.sizeInBytes).toBe(12 + 14 + 1 + 5)
  })

  it('decodes a v1 message with LogAppendTime, null key and value', () => {
    const e = decodeLegacyEntry(
      message({ offset: 1n, magic: 1, attributes: 0x08, timestamp: 123n, key: null, value: null }),
      0,
    )
    expect(e).toMatchObject({
      magic: 1,
      timestampType: 'LogAppendTime',
      timestamp: 123n,
      key: null,
      value: null,
      crcValid: true,
    })
    expect(decodeLegacyEntry(message({ offset: 1n, magic: 1 }), 0).timestampType).toBe('CreateTime')
  })

  it('reports a CRC mismatch as crcValid false', () => {
    expect(
      decodeLegacyEntry(message({ offset: 0n, magic: 1, value: Buffer.from('x'), badCrc: true }), 0).crcValid,
    ).toBe(false)
  })

  it('any single bit flip in magic..end makes crcValid false or throws a DecodeError', () => {
    const b = message({ offset: 0n, magic: 1, key: Buffer.from('key'), value: Buffer.from('some value') })
    for (let i = 16; i < b.length; i++) {
      for (let bit = 0; bit < 8; bit++) {
        const c = Buffer.from(b) // copy: mutated per case
        c[i] = c[i]! ^ (1 << bit)
        try {
          expect(decodeLegacyEntry(c, 0).crcValid).toBe(false)
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError)
        }
      }
    }
  })

  it('throws TRUNCATED with the absolute position when the entry runs past the buffer', () => {
    const b = message({ offset: 0n, magic: 0, value: Buffer.from('hello') })
    const err = decodeError(() => decodeLegacyEntry(b.subarray(0, b.length - 1), 500))
    expect(err.code).toBe('TRUNCATED')
    expect(err.position).toBe(512)
    expect(decodeError(() => decodeLegacyEntry(b.subarray(0, 10), 500)).position).toBe(508)
  })

  it('throws BAD_LENGTH for messageSize < 14 and for negative key lengths, BAD_MAGIC for magic 2+', () => {
    const small = message({ offset: 0n, magic: 0 })
    small.writeInt32BE(13, 8)
    expect(decodeError(() => decodeLegacyEntry(small, 100))).toMatchObject({ code: 'BAD_LENGTH', position: 108 })
    const negKey = message({ offset: 0n, magic: 0, key: Buffer.from('abc') })
    negKey.writeInt32BE(-2, 18)
    expect(decodeError(() => decodeLegacyEntry(negKey, 100))).toMatchObject({ code: 'BAD_LENGTH', position: 118 })
    const longKey = message({ offset: 0n, magic: 0, key: Buffer.from('abc') })
    longKey.writeInt32BE(1000, 18)
    expect(decodeError(() => decodeLegacyEntry(longKey, 100)).code).toBe('TRUNCATED')
    const magic2 = message({ offset: 0n, magic: 1 })
    magic2[16] = 2
    expect(decodeError(() => decodeLegacyEntry(magic2, 100))).toMatchObject({ code: 'BAD_MAGIC', position: 116 })
  })

  it('only reads its own entry from a longer buffer', () => {
    const a = message({ offset: 0n, magic: 0, value: Buffer.from('a') })
    const both = Buffer.concat([a, message({ offset: 1n, magic: 0, value: Buffer.from('b') })])
    expect(decodeLegacyEntry(both, 0)).toMatchObject({ sizeInBytes: a.length, crcValid: true })
  })
})

describe('decodeLegacyRecords', () => {
  const inner = (magic: 0 | 1, offsets: bigint[]): Buffer[] =>
    offsets.map((o, i) =>
      message({
        offset: o,
        magic,
        timestamp: 1000n + BigInt(i),
        key: Buffer.from(`k${i}`),
        value: Buffer.from(`value-${i}`),
      }),
    )

  it('yields an uncompressed message as one record', () => {
    const b = message({ offset: 42n, magic: 1, timestamp: 5n, key: null, value: Buffer.from('xyz') })
    const { records } = decodeAll(b)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({
      offset: 42n,
      timestamp: 5n,
      keySize: -1,
      valueSize: 3,
      crcValid: true,
      magic: 1,
      sizeInBytes: b.length,
    })
  })

  it.each([1, 2, 3])('v1 wrapper (codec %i): relative inner offsets become absolute', (codec) => {
    const { e, records } = decodeAll(wrapper({ offset: 10n, magic: 1, codec }, inner(1, [0n, 1n, 2n])))
    expect(e.compression).toBe(codec)
    expect(records.map((r) => r.offset)).toEqual([8n, 9n, 10n])
    expect(records.map((r) => r.timestamp)).toEqual([1000n, 1001n, 1002n])
    expect(records.every((r) => r.crcValid)).toBe(true)
    expect(records[1]).toMatchObject({ keySize: 2, valueSize: 7, magic: 1 })
    expect(records[1]!.value?.toString()).toBe('value-1')
  })

  it('v1 wrapper with offset 0 keeps the relative offsets (old librdkafka)', () => {
    const { records } = decodeAll(wrapper({ offset: 0n, magic: 1, codec: 1 }, inner(1, [0n, 1n, 2n])))
    expect(records.map((r) => r.offset)).toEqual([0n, 1n, 2n])
  })

  it('v1 wrapper with an offset below the last inner offset is an error at the wrapper position', () => {
    const err = decodeError(() => decodeAll(wrapper({ offset: 1n, magic: 1, codec: 1 }, inner(1, [0n, 1n, 2n])), 300))
    expect(err).toMatchObject({ code: 'BAD_RECORD', position: 300 })
  })

  it('v1 LogAppendTime wrapper gives every inner record its timestamp', () => {
    const { records } = decodeAll(
      wrapper({ offset: 5n, magic: 1, codec: 2, attributes: 0x08, timestamp: 777n }, inner(1, [0n, 1n])),
    )
    expect(records.map((r) => r.timestamp)).toEqual([777n, 777n])
  })

  it('v0 wrapper: inner offsets are absolute as stored, timestamps -1', () => {
    const { e, records } = decodeAll(wrapper({ offset: 12n, magic: 0, codec: 1 }, inner(0, [10n, 11n, 12n])))
    expect(e.timestampType).toBe('NoTimestampType')
    expect(records.map((r) => r.offset)).toEqual([10n, 11n, 12n])
    expect(records.map((r) => r.timestamp)).toEqual([-1n, -1n, -1n])
  })

  it('v0 lz4 wrapper from the old Kafka writer (wrong header checksum) is accepted, v1 is not', () => {
    const payload = Buffer.concat(inner(0, [0n, 1n]))
    const frame = lz4Frame64k(payload)
    frame[6] = (xxhash32(frame, 0, 0, 6) >>> 8) & 0xff // KAFKA-3160: hashed magic+FLG+BD
    if (frame[6] === ((xxhash32(frame, 0, 4, 6) >>> 8) & 0xff)) frame[6] ^= 1
    const v0 = message({ offset: 1n, magic: 0, attributes: 3, key: null, value: frame })
    expect(decodeAll(v0).records).toHaveLength(2)
    const v1 = message({ offset: 1n, magic: 1, attributes: 3, key: null, value: frame })
    expect(decodeError(() => decodeAll(v1, 64))).toMatchObject({ code: 'DECOMPRESS_FAILED', position: 64 })
  })

  it('zstd (id 4) and unknown codecs are unsupported for legacy messages', () => {
    for (const attributes of [4, 5, 7]) {
      const b = message({ offset: 0n, magic: 1, attributes, value: Buffer.from('x') })
      expect(decodeError(() => decodeAll(b, 9))).toMatchObject({ code: 'UNSUPPORTED_CODEC', position: 9 })
    }
  })

  it('nested compression, empty wrappers, null values and corrupt payloads are errors at the wrapper position', () => {
    const nested = wrapper({ offset: 1n, magic: 1, codec: 1 }, [
      wrapper({ offset: 0n, magic: 1, codec: 1 }, inner(1, [0n])),
    ])
    expect(decodeError(() => decodeAll(nested, 20))).toMatchObject({ code: 'BAD_RECORD', position: 20 })
    expect(decodeError(() => decodeAll(wrapper({ offset: 0n, magic: 1, codec: 1 }, []), 20))).toMatchObject({
      code: 'BAD_RECORD',
      position: 20,
    })
    const nullValue = message({ offset: 0n, magic: 1, attributes: 1, value: null })
    expect(decodeError(() => decodeAll(nullValue, 20))).toMatchObject({ code: 'BAD_RECORD', position: 20 })
    const garbage = message({ offset: 0n, magic: 1, attributes: 1, value: Buffer.from('not gzip at all') })
    expect(decodeError(() => decodeAll(garbage, 20))).toMatchObject({ code: 'DECOMPRESS_FAILED', position: 20 })
    const cut = Buffer.concat(inner(1, [0n, 1n]))
    const truncatedInner = message({
      offset: 1n,
      magic: 1,
      attributes: 1,
      value: zlib.gzipSync(cut.subarray(0, cut.length - 3)),
    })
    expect(decodeError(() => decodeAll(truncatedInner, 20))).toMatchObject({ code: 'TRUNCATED', position: 20 })
  })

  it('a wrapper that expands past maxDecompressed is DECOMPRESSED_TOO_LARGE', () => {
    const big = wrapper({ offset: 0n, magic: 1, codec: 3 }, [
      message({ offset: 0n, magic: 1, value: Buffer.alloc(4 << 20) }),
    ])
    expect(decodeError(() => decodeAll(big, 7, 1 << 20))).toMatchObject({ code: 'DECOMPRESSED_TOO_LARGE', position: 7 })
  })

  it('any byte corruption of a compressed wrapper yields records or a DecodeError, never another exception', () => {
    const samples = [1, 2, 3].map((codec) => wrapper({ offset: 3n, magic: 1, codec }, inner(1, [0n, 1n, 2n, 3n])))
    fc.assert(
      fc.property(fc.constantFrom(...samples), fc.nat(), fc.integer({ min: 1, max: 255 }), (b, at, x) => {
        const c = Buffer.from(b) // copy: mutated per run
        c[at % c.length] = c[at % c.length]! ^ x
        try {
          decodeAll(c, 0)
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError)
        }
      }),
      { numRuns: 500 },
    )
  })
})

// ---- real legacy segments from the shared corpus ----

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const corpus = path.resolve(repoRoot, '../shared/corpus')
const haveCorpus = fs.existsSync(path.join(corpus, 'facts.json'))
if (!haveCorpus) console.warn(`corpus tests skipped: ${corpus} is absent`)

interface Facts {
  file: string
  records: number
  batches: number
  magic: Record<string, number>
  firstOffset: number
  lastOffset: number
}

/** A tiny frame walk: offset int64, size int32, magic int8 at 16; an entry is 12 + size bytes. */
function walk(file: string): {
  entries: LegacyEntry[]
  records: LegacyRecord[]
  v2Records: number
  v2Batches: number
  end: number
  size: number
} {
  const b = fs.readFileSync(path.join(corpus, file))
  const entries: LegacyEntry[] = []
  const records: LegacyRecord[] = []
  let v2Records = 0
  let v2Batches = 0
  let pos = 0
  while (pos + 17 <= b.length) {
    const entry = b.subarray(pos, pos + 12 + b.readInt32BE(pos + 8))
    if (entry[16] === 2) {
      const h = decodeBatchHeader(entry, pos)
      expect(computeBatchCrc(entry)).toBe(h.crc)
      for (const r of decodeRecords(h, entry)) {
        expect(r.offset).toBeGreaterThanOrEqual(h.baseOffset)
        v2Records++
      }
      v2Batches++
    } else {
      const e = decodeLegacyEntry(entry, pos)
      entries.push(e)
      records.push(...decodeLegacyRecords(e))
    }
    pos += entry.length
  }
  return { entries, records, v2Records, v2Batches, end: pos, size: b.length }
}

describe('corpus: legacy messages written by real brokers', () => {
  const facts: Facts[] = haveCorpus
    ? (JSON.parse(fs.readFileSync(path.join(corpus, 'facts.json'), 'utf8')) as Facts[])
    : []
  const fact = (file: string): Facts => facts.find((f) => f.file === file)!

  it.skipIf(!haveCorpus).each([
    ['record-sets/magic0-gzip/00000000000000000000.log', 0],
    ['record-sets/magic1-gzip/00000000000000000000.log', 1],
  ])('%s', (file, magic) => {
    const f = fact(file)
    const w = walk(file)
    expect(w.end).toBe(w.size)
    expect(w.entries).toHaveLength(f.batches)
    expect(w.records).toHaveLength(f.records)
    expect(w.entries.every((e) => e.magic === magic && e.compression === 1 && e.crcValid)).toBe(true)
    expect(w.records.every((r) => r.crcValid)).toBe(true)
    // facts count offsets per entry: a wrapper's offset is its last inner offset
    expect(w.entries[0]!.offset).toBe(BigInt(f.firstOffset))
    expect(w.entries[w.entries.length - 1]!.offset).toBe(BigInt(f.lastOffset))
    expect(w.records[w.records.length - 1]!.offset).toBe(BigInt(f.lastOffset))
    expect(w.records.map((r) => r.offset)).toEqual([0n, 1n, 2n])
  })

  it.skipIf(!haveCorpus)('record-sets/mixed-v1-v2: 1611 magic-1 messages then v2 batches', () => {
    const file = 'record-sets/mixed-v1-v2/00000000000000000000.log'
    const f = fact(file)
    const w = walk(file)
    expect(w.end).toBe(w.size)
    expect(w.entries).toHaveLength(f.magic['1']!)
    expect(w.v2Batches).toBe(f.magic['2']!)
    expect(w.records.length + w.v2Records).toBe(f.records)
    expect(w.entries.every((e) => e.magic === 1 && e.compression === 0 && e.crcValid)).toBe(true)
    expect(w.records[0]!.offset).toBe(BigInt(f.firstOffset))
  })
})
