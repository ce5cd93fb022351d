// What follows a gzip member, read as Kafka reads it: java.util.zip.GZIPInputStream (the consumer's gzip
// reader) goes on into another member only when more than 26 bytes are left from the trailer's start and they
// begin with a header its readHeader accepts; anything else after a member is ignored. The expected outcomes
// below are JDK 17's, run on these same byte strings (a GZIPInputStream over a ByteArrayInputStream, readAllBytes;
// java.util.zip messages differ from zlib's, so errors are compared by code). Node's gunzip fails on such a
// tail instead; tsdump's whole and streamed paths must both give Java's answer.
import * as zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { gzip } from '../../src/decode/codecs/gzip.js'
import { CodecError } from '../../src/decode/codecs/index.js'
import { InflatedBytes, MemoryBytes, decompressedLength } from '../../src/decode/payload-stream.js'

const ctx = { magic: 2 }
const a = zlib.gzipSync(Buffer.from('first member '))
const b = zlib.gzipSync(Buffer.from('second member second member second member'))
const flipped = (x: Buffer, at: number, v: number): Buffer => {
  const c = Buffer.from(x)
  c[at] = c[at]! ^ v
  return c
}

const cases: Array<[string, Buffer, string]> = [
  ['two members', Buffer.concat([a, b]), 'first member second member second member second member'],
  ['text after the member', Buffer.concat([a, Buffer.from('garbage after the member')]), 'first member '],
  ['the second member with its first byte flipped', flipped(Buffer.concat([a, b]), a.length, 1), 'first member '],
  ['a header start of 5 bytes', Buffer.concat([a, Buffer.from([0x1f, 0x8b, 0x08, 0, 0])]), 'first member '],
  [
    'a header with compression method 7',
    Buffer.concat([a, Buffer.from([0x1f, 0x8b, 0x07, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3])]),
    'first member ',
  ],
  [
    'a header and 4 bad bytes (26 bytes from the trailer: too few)',
    Buffer.concat([a, Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff, 0xff])]),
    'first member ',
  ],
  ['zeros after the member', Buffer.concat([a, Buffer.alloc(7)]), 'first member '],
  [
    'a bad deflate block in the second member',
    flipped(Buffer.concat([a, b]), a.length + 10, 0x55),
    'DECOMPRESS_FAILED',
  ],
  ['a bad trailer of the second member', flipped(Buffer.concat([a, b]), a.length + 31, 0x55), 'DECOMPRESS_FAILED'],
  ['the second member cut short', Buffer.concat([a, b]).subarray(0, a.length + 30), 'DECOMPRESS_FAILED'],
]

function outcome(f: () => Buffer): string {
  try {
    return f().toString()
  } catch (e) {
    if (e instanceof CodecError) return e.code
    throw e
  }
}

function streamed(input: Buffer): Buffer {
  const len = decompressedLength(gzip, new MemoryBytes(input), 1 << 20, ctx)
  const out = Buffer.alloc(len)
  const s = new InflatedBytes(gzip, new MemoryBytes(input), 1 << 20, ctx)
  for (let n = 0; n < len; ) n += s.readInto(out, n, Math.min(7, len - n))
  return out
}

describe('gzip: what follows a member, as java.util.zip.GZIPInputStream reads it', () => {
  it.each(cases)('%s', (_name, input, java) => {
    expect(outcome(() => gzip.decompress(input, 1 << 20, ctx))).toBe(java)
    expect(outcome(() => streamed(input))).toBe(java)
  })
})
