// The package imported by its name, as a user would (`import ... from 'tsdump'`, resolved through
// package.json "exports" to dist/): it must agree with the CLI, whose numbers the other tests check
// against Kafka's own tools. What records() passes over (RECORDS_SKIPPED) is checked on a segment built here.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURES, REPO_ROOT } from './support/paths.js'
import { encodeBatch } from './support/segment-builder.js'
import { crc32 } from '../src/bytes/crc32.js'
import type { Finding, ReadOptions } from '../src/index.js'
import { openSegment } from '../src/index.js'

const part = path.join(FIXTURES, 'orders', 'logs', 'orders-11-0')

function node(script: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' })
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  return r.stdout
}
function cli(...args: string[]): string {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'tsdump.js'), ...args], { encoding: 'utf8' }).stdout
}

describe('library API (package "tsdump")', () => {
  it('declares its types through package.json exports', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      name: string
      exports: Record<string, { types: string; import: string }>
    }
    expect(pkg.name).toBe('tsdump')
    expect(fs.existsSync(path.join(REPO_ROOT, pkg.exports['.']!.types))).toBe(true)
    expect(fs.existsSync(path.join(REPO_ROOT, pkg.exports['.']!.import))).toBe(true)
  })

  it('iterates batches and records of a partition as the dump lists them', () => {
    const out = JSON.parse(
      node(`
      import { openPartition, openSegment } from 'tsdump'
      const p = openPartition(${JSON.stringify(part)})
      let batches = 0, records = 0, offsets = []
      for await (const b of p.batches()) batches++
      for await (const r of p.records()) { records++; offsets.push(Number(r.offset)) }
      let seg = 0
      for await (const b of openSegment(p.segments[0].path).batches()) seg++
      console.log(JSON.stringify({ batches, records, seg, first: offsets[0], last: offsets.at(-1), findings: p.segments.flatMap((s) => s.findings).length }))
    `),
    ) as { batches: number; records: number; seg: number; first: number; last: number; findings: number }
    const dump = cli('--json', '--deep-iteration', part)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; offset?: number })
    expect(out.batches).toBe(dump.filter((e) => e.type === 'batch').length)
    expect(out.records).toBe(dump.filter((e) => e.type === 'record').length)
    expect(out.records).toBeGreaterThan(0)
    expect(out.first).toBe(dump.find((e) => e.type === 'record')!.offset)
    expect(out.findings).toBe(0)
  })

  it('reconcile / txns / lso return plain objects equal to what the CLI prints', () => {
    const lib = JSON.parse(
      node(`
      import { reconcile, txns, lso } from 'tsdump'
      const r = reconcile([${JSON.stringify(part)}]).partitions[0].report
      const t = txns([${JSON.stringify(part)}]).partitions[0]
      const l = lso([${JSON.stringify(part)}])
      console.log(JSON.stringify({ rc: r.readCommitted, ru: r.readUncommitted, lso: String(r.lastStableOffset), runs: t.runs.length, hanging: l.hanging }))
    `),
    ) as { rc: number; ru: number; lso: string; runs: number; hanging: boolean }
    const c = (
      JSON.parse(cli('reconcile', '--json', part)) as {
        partitions: Array<{ readCommitted: number; readUncommitted: number; lastStableOffset: number }>
      }
    ).partitions[0]!
    expect([lib.rc, lib.ru, lib.lso]).toEqual([c.readCommitted, c.readUncommitted, String(c.lastStableOffset)])
    const t = (JSON.parse(cli('txns', '--json', part)) as { partitions: Array<{ runs: unknown[] }> }).partitions[0]!
    expect(lib.runs).toBe(t.runs.length)
    expect(lib.hanging).toBe((JSON.parse(cli('lso', '--json', part)) as { hanging: boolean }).hanging)
  })
})

// A magic 0 message (Kafka's LegacyRecord v0): offset, size, crc (CRC-32 of magic..end), magic 0, attributes,
// key -1 (null), value; built here, apart from src/decode, so that the decoder is not checked against itself.
function legacyV0(offset: number, value: string): Buffer {
  const v = Buffer.from(value)
  const body = Buffer.alloc(1 + 1 + 4 + 4 + v.length)
  body.writeInt8(0, 0)
  body.writeInt8(0, 1)
  body.writeInt32BE(-1, 2)
  body.writeInt32BE(v.length, 6)
  v.copy(body, 10)
  const head = Buffer.alloc(16)
  head.writeBigInt64BE(BigInt(offset), 0)
  head.writeInt32BE(4 + body.length, 8)
  head.writeUInt32BE(crc32(body), 12)
  return Buffer.concat([head, body])
}

describe('records() says what it does not yield (RECORDS_SKIPPED)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-records-'))
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
  const small = encodeBatch({ baseOffset: 0, records: [{ value: 'a' }, { value: 'b' }] })
  const big = encodeBatch({ baseOffset: 4, records: [{ value: 'x'.repeat(200_000) }] })
  const last = encodeBatch({ baseOffset: 5, records: [{ value: 'c' }] })
  const legacyAt = small.length
  const bigAt = legacyAt + legacyV0(2, 'l2').length + legacyV0(3, 'l3').length
  const file = path.join(dir, '00000000000000000000.log')
  fs.writeFileSync(file, Buffer.concat([small, legacyV0(2, 'l2'), legacyV0(3, 'l3'), big, last]))

  async function read(opts?: ReadOptions): Promise<{ offsets: bigint[]; findings: Finding[] }> {
    const seg = openSegment(file)
    const offsets: bigint[] = []
    for await (const r of seg.records(opts)) offsets.push(r.offset)
    return { offsets, findings: seg.findings }
  }

  it('magic 0/1 entries: one info finding with their count, at the first one', async () => {
    const r = await read()
    expect(r.offsets).toEqual([0n, 1n, 4n, 5n])
    expect(r.findings.map((f) => [f.code, f.severity, f.file, f.position])).toEqual([
      ['RECORDS_SKIPPED', 'info', file, legacyAt],
    ])
    expect(r.findings[0]!.message).toContain('2 magic 0/1 entries')
  })

  it('batches read header-only because they do not fit the window (headersOnly): a second finding', async () => {
    const r = await read({ headersOnly: true, window: 64 * 1024 })
    expect(r.offsets).toEqual([0n, 1n, 5n])
    expect(r.findings.map((f) => [f.code, f.position])).toEqual([
      ['RECORDS_SKIPPED', legacyAt],
      ['RECORDS_SKIPPED', bigAt],
    ])
    expect(r.findings[1]!.message).toContain('1 batch larger than the read window')
  })

  it('a caller that stops early still gets the finding for what was passed over', async () => {
    const seg = openSegment(file)
    for await (const r of seg.records()) if (r.offset === 4n) break
    expect(seg.findings.map((f) => f.code)).toEqual(['RECORDS_SKIPPED'])
  })

  it('a v2-only segment has no such finding', async () => {
    const only = path.join(dir, 'v2', '00000000000000000000.log')
    fs.mkdirSync(path.dirname(only))
    fs.writeFileSync(only, Buffer.concat([small, encodeBatch({ baseOffset: 2, records: [{ value: 'c' }] })]))
    const seg = openSegment(only)
    let n = 0
    for await (const r of seg.records()) {
      void r
      n++
    }
    expect([n, seg.findings]).toEqual([3, []])
  })
})
