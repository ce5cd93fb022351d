// Compressed batches whose stream is corrupt, cut short, or decompresses to far more than the batch
// claims (a decompression bomb): one finding on that batch, at its position; the rest is still read.
import * as path from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterAll, describe, expect, it } from 'vitest'
import type { BatchSpec } from '../support/segment-builder.js'
import { encodeBatch, segment } from '../support/segment-builder.js'
import { batchLines, expectNoCrash, findings, rmrf, run, tmp, writeLog } from './support.js'

const dir = tmp()
afterAll(() => rmrf(dir))

const OK: BatchSpec = { records: [{ key: 'k', value: 'v' }] }
const P = encodeBatch(OK).length

function corruptGzip(b: Buffer): Buffer {
  const g = gzipSync(b)
  g[g.length - 12] = g[g.length - 12]! ^ 0xff // inside the deflate data / CRC-32 trailer
  return g
}

const CASES: Array<{ name: string; spec: BatchSpec; code: string; flags?: string[] }> = [
  {
    name: 'gzip stream with a damaged byte',
    spec: { codec: 1, records: [{ value: 'x'.repeat(200) }], compress: corruptGzip },
    code: 'DECOMPRESS_FAILED',
  },
  {
    name: 'gzip stream cut short',
    spec: { codec: 1, records: [{ value: 'y'.repeat(500) }], compress: (b) => gzipSync(b).subarray(0, 20) },
    code: 'DECOMPRESS_FAILED',
  },
  {
    name: 'not gzip at all',
    spec: { codec: 1, compress: () => Buffer.from('definitely not a gzip member') },
    code: 'DECOMPRESS_FAILED',
  },
  { name: 'empty compressed section', spec: { codec: 1, compress: () => Buffer.alloc(0) }, code: 'DECOMPRESS_FAILED' },
  {
    name: 'snappy attribute, random bytes',
    spec: { codec: 2, compress: () => Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 1, 2, 3, 4, 5]) },
    code: 'DECOMPRESS_FAILED',
  },
  {
    name: 'lz4 attribute, random bytes',
    spec: { codec: 3, compress: () => Buffer.from('lz4? no.') },
    code: 'DECOMPRESS_FAILED',
  },
  {
    name: 'zstd attribute, random bytes',
    spec: { codec: 4, compress: () => Buffer.from('zstd? no, not this either') },
    code: 'DECOMPRESS_FAILED',
  },
  {
    name: 'a gzip bomb: 64 MiB of zeros in one batch, --max-decompressed-bytes 1MiB',
    spec: { codec: 1, compress: () => gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 }) },
    code: 'DECOMPRESSED_TOO_LARGE',
    flags: ['--max-decompressed-bytes', '1MiB'],
  },
  {
    name: 'decompresses to more than the declared records',
    spec: { codec: 1, recordsCount: 1, records: [{ value: 'a' }, { value: 'b' }, { value: 'c' }] },
    code: 'RECORD_COUNT_MISMATCH',
  },
]

describe('damaged compressed batches', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_n, c) => {
    const file = writeLog(path.join(dir, c.name.replace(/\W+/g, '-')), segment(OK, c.spec, OK))
    const before = process.memoryUsage().arrayBuffers
    const r = await run(['--deep-iteration', '--no-progress', ...(c.flags ?? []), file])
    expectNoCrash(r)
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(48 * 1024 * 1024)
    expect(r.code).toBe(1)
    const f = findings(r.stderr)
    const mine = f.filter((x) => x.code === c.code)
    expect(mine.length, r.stderr).toBe(1)
    // positions: the batch (decompression) or inside its payload (record count)
    expect(mine[0]!.position).toBeGreaterThanOrEqual(P)
    if (c.code !== 'RECORD_COUNT_MISMATCH') expect(mine[0]!.position).toBe(P)
    expect(batchLines(r.stdout)).toHaveLength(3)
    // the CRC covers the compressed bytes as written, so the batch itself is valid: only its content is not
    expect(r.stdout.match(/isvalid: true/g)).toHaveLength(3)
    // records of the intact neighbours are still printed (and the one declared record before the surplus)
    expect(r.stdout.match(/^\| offset: /gm)).toHaveLength(c.code === 'RECORD_COUNT_MISMATCH' ? 3 : 2)
  })

  it('shallow mode does not decompress, so a corrupt stream is not a finding there', async () => {
    const file = writeLog(path.join(dir, 'shallow'), segment(OK, CASES[0]!.spec, OK))
    const r = await run([file])
    expect([r.code, findings(r.stderr)]).toEqual([0, []])
  })

  it('the bomb is refused under the default cap too, without allocating it', async () => {
    // 300 MiB of zeros is ~300 KiB of gzip: above the 256 MiB default cap
    const bomb: BatchSpec = { codec: 1, compress: () => gzipSync(Buffer.alloc(300 * 1024 * 1024), { level: 1 }) }
    const file = writeLog(path.join(dir, 'bomb-default'), segment(OK, bomb))
    const before = process.memoryUsage().arrayBuffers
    const r = await run(['--deep-iteration', file])
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(300 * 1024 * 1024)
    expect(r.code).toBe(1)
    expect(findings(r.stderr).map((x) => [x.code, x.position])).toEqual([['DECOMPRESSED_TOO_LARGE', P]])
  })
})
