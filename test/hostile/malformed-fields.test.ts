// Lying length and count fields, over-long varints, absurd header counts: each is one finding with the
// right DecodeError code and the absolute byte position, without a huge allocation or an endless loop,
// and the batches around the damaged one are still read.
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { DecodeError } from '../../src/decode/errors.js'
import type { DecodeErrorCode } from '../../src/decode/errors.js'
import { readLog } from '../../src/decode/log-reader.js'
import { decodeRecords } from '../../src/decode/records.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import type { BatchSpec } from '../support/segment-builder.js'
import { encodeBatch, encodeRecord, endlessVarint, segment, varint, varlong } from '../support/segment-builder.js'
import { batchLines, expectNoCrash, findings, rmrf, run, tmp, writeLog } from './support.js'

const dir = tmp()
afterAll(() => rmrf(dir))

const OK: BatchSpec = { records: [{ key: 'k', value: 'v' }] }
/** position of the damaged (second) batch: the first is OK */
const P = encodeBatch(OK).length
const RECORDS = P + 61

/** a raw record: length varint + the given body; `at(i)` is the absolute position of body byte i */
function raw(...body: Buffer[]): { raw: Buffer } {
  const b = Buffer.concat(body)
  return { raw: Buffer.concat([varint(b.length), b]) }
}
const lenSize = (n: number): number => varint(n).length
/** attributes int8, timestampDelta 0, offsetDelta 0: 3 bytes */
const HEAD = Buffer.concat([Buffer.from([0]), varlong(0), varint(0)])

interface Case {
  name: string
  spec: BatchSpec
  code: DecodeErrorCode
  position: number
  framing?: boolean
}

function bodyPos(bodyLen: number, offsetInBody: number): number {
  return RECORDS + lenSize(bodyLen) + offsetInBody
}

const keyPast = Buffer.concat([HEAD, varint(500), Buffer.from('abc')])
const keyNeg = Buffer.concat([HEAD, varint(-7), varint(-1), varint(0)])
const valuePast = Buffer.concat([HEAD, varint(-1), varint(1000), Buffer.from('xy')])
const hdrAbsurd = Buffer.concat([HEAD, varint(-1), varint(-1), varint(1_000_000_000)])
const hdrNeg = Buffer.concat([HEAD, varint(-1), varint(-1), varint(-3)])
const hdrKeyNull = Buffer.concat([HEAD, varint(-1), varint(-1), varint(1), varint(-1), varint(-1)])
const tsLong = Buffer.concat([Buffer.from([0]), endlessVarint(11), Buffer.from([0])])
const offLong = Buffer.concat([Buffer.from([0]), varlong(0), endlessVarint(6)])
const extra = Buffer.concat([HEAD, varint(-1), varint(-1), varint(0), Buffer.from('junk')])

const CASES: Case[] = [
  { name: 'batchLength negative', spec: { ...OK, batchLength: -5 }, code: 'BAD_LENGTH', position: P, framing: true },
  {
    name: 'batchLength below the record minimum (13)',
    spec: { ...OK, batchLength: 13 },
    code: 'BAD_LENGTH',
    position: P,
    framing: true,
  },
  {
    name: 'batchLength below the v2 header (48)',
    spec: { ...OK, batchLength: 48 },
    code: 'BAD_LENGTH',
    position: P,
    framing: true,
  },
  {
    name: 'batchLength above --max-batch-bytes',
    spec: { ...OK, batchLength: 0x7fffffff },
    code: 'BAD_LENGTH',
    position: P,
    framing: true,
  },
  {
    name: 'batchLength past the end of the file',
    spec: { ...OK, batchLength: 1 << 20 },
    code: 'BAD_LENGTH',
    position: P,
    framing: true,
  },
  { name: 'magic 3', spec: { ...OK, magic: 3 }, code: 'BAD_MAGIC', position: P, framing: true },
  { name: 'magic -1', spec: { ...OK, magic: -1 }, code: 'BAD_MAGIC', position: P, framing: true },
  { name: 'recordsCount negative', spec: { ...OK, recordsCount: -1 }, code: 'RECORD_COUNT_MISMATCH', position: P + 57 },
  {
    name: 'recordsCount far above the bytes',
    spec: { ...OK, recordsCount: 0x7fffffff },
    code: 'RECORD_COUNT_MISMATCH',
    position: P + 57,
  },
  {
    name: 'recordsCount one above the records',
    spec: { records: [{ value: 'a'.repeat(20) }, { value: 'b'.repeat(20) }], recordsCount: 3 },
    code: 'TRUNCATED',
    position: RECORDS + 2 * encodeRecord({ value: 'a'.repeat(20) }, 0).length,
  },
  {
    name: 'recordsCount below the records',
    spec: { records: [{ value: 'a' }, { value: 'b' }], recordsCount: 1 },
    code: 'RECORD_COUNT_MISMATCH',
    position: RECORDS + 8,
  },
  {
    name: 'record length varint longer than 5 bytes',
    spec: { records: [{ raw: endlessVarint(8) }] },
    code: 'VARINT_TOO_LONG',
    position: RECORDS,
  },
  {
    name: 'timestampDelta varlong longer than 10 bytes',
    spec: { records: [raw(tsLong)] },
    code: 'VARINT_TOO_LONG',
    position: bodyPos(tsLong.length, 1),
  },
  {
    name: 'offsetDelta varint longer than 5 bytes',
    spec: { records: [raw(offLong)] },
    code: 'VARINT_TOO_LONG',
    position: bodyPos(offLong.length, 2),
  },
  // (padded so that the recordsCount plausibility check passes and the record itself is decoded)
  {
    name: 'record length 0',
    spec: { records: [{ raw: Buffer.concat([varint(0), Buffer.alloc(8)]) }] },
    code: 'BAD_RECORD',
    position: RECORDS,
  },
  {
    name: 'record length negative',
    spec: { records: [{ raw: Buffer.concat([varint(-20), HEAD, Buffer.alloc(8)]) }] },
    code: 'BAD_RECORD',
    position: RECORDS,
  },
  {
    name: 'record length past the batch',
    spec: { records: [{ raw: Buffer.concat([varint(1 << 28), HEAD]) }] },
    code: 'TRUNCATED',
    position: RECORDS + lenSize(1 << 28),
  },
  {
    name: 'key length past the record',
    spec: { records: [raw(keyPast)] },
    code: 'TRUNCATED',
    position: bodyPos(keyPast.length, 3 + lenSize(500)),
  },
  {
    name: 'key length negative (not -1)',
    spec: { records: [raw(keyNeg)] },
    code: 'BAD_LENGTH',
    position: bodyPos(keyNeg.length, 3),
  },
  {
    name: 'value length past the record',
    spec: { records: [raw(valuePast)] },
    code: 'TRUNCATED',
    position: bodyPos(valuePast.length, 4 + lenSize(1000)),
  },
  {
    name: 'headersCount absurd',
    spec: { records: [raw(hdrAbsurd)] },
    code: 'BAD_RECORD',
    position: bodyPos(hdrAbsurd.length, 5),
  },
  {
    name: 'headersCount negative',
    spec: { records: [raw(hdrNeg)] },
    code: 'BAD_RECORD',
    position: bodyPos(hdrNeg.length, 5),
  },
  { name: 'header key null', spec: { records: [raw(hdrKeyNull)] }, code: 'BAD_RECORD', position: -1 },
  {
    name: 'record with bytes after its fields',
    spec: { records: [raw(extra)] },
    code: 'BAD_RECORD',
    position: RECORDS,
  },
  { name: 'codec id 5', spec: { ...OK, codec: 5 }, code: 'UNSUPPORTED_CODEC', position: P },
  { name: 'codec id 7', spec: { ...OK, codec: 7 }, code: 'UNSUPPORTED_CODEC', position: P },
  {
    name: 'control record key shorter than 4 bytes',
    spec: {
      marker: { type: 'COMMIT' },
      recordBytes: raw(Buffer.concat([HEAD, varint(2), Buffer.from([0, 0]), varint(6), Buffer.alloc(6), varint(0)]))
        .raw,
    },
    code: 'BAD_CONTROL_RECORD',
    position: RECORDS,
  },
  {
    name: 'end-transaction marker value null',
    spec: {
      marker: { type: 'ABORT' },
      recordBytes: raw(Buffer.concat([HEAD, varint(4), Buffer.from([0, 0, 0, 0]), varint(-1), varint(0)])).raw,
    },
    code: 'BAD_CONTROL_RECORD',
    position: RECORDS,
  },
  {
    name: 'control key version negative',
    spec: { marker: { type: 'COMMIT', keyVersion: -1 } },
    code: 'BAD_CONTROL_RECORD',
    position: RECORDS,
  },
]

function build(c: Case): Buffer {
  return segment(OK, c.spec, OK)
}

/** every problem readLog and deep decoding report, as [code, position] */
function problems(buf: Buffer): Array<[string, number]> {
  const out: Array<[string, number]> = []
  for (const ev of readLog(new BufferSource(buf), { resync: true })) {
    if (ev.kind === 'corrupt') out.push([ev.code, ev.position])
    if (ev.kind === 'tail') out.push([`tail:${ev.reason}`, ev.position])
    if (ev.kind !== 'batch') continue
    for (const p of ev.problems) out.push([p.code, p.position])
    try {
      for (const _ of decodeRecords(ev.header, ev.bytes)) {
        /* all records */
      }
    } catch (e) {
      if (!(e instanceof DecodeError)) throw e
      out.push([e.code, e.position])
    }
  }
  return out
}

describe('malformed fields: one finding each, with code and position', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s (decoder)', (_n, c) => {
    const before = process.memoryUsage().arrayBuffers
    // no time limit asserted (a slow machine is not a failure); a hang is the hanging tier's to find
    const got = problems(build(c))
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(64 * 1024 * 1024)
    const mine = got.filter(([code]) => code === c.code)
    expect(mine.length, JSON.stringify(got)).toBeGreaterThanOrEqual(1)
    if (c.position >= 0) expect(mine.map(([, p]) => p)).toContain(c.position)
    // all positions are inside the damaged batch (the surrounding batches are intact)
    const second = P + encodeBatch(c.spec).length
    for (const [, p] of got) expect(p >= P && p <= second, `${JSON.stringify(got)}`).toBe(true)
  })

  it.each(CASES.map((c) => [c.name, c] as const))('%s (CLI --deep-iteration)', async (_n, c) => {
    const file = writeLog(path.join(dir, c.name.replace(/\W+/g, '-')), build(c))
    const r = await run(['--deep-iteration', '--no-progress', file])
    expectNoCrash(r)
    expect(r.code).toBe(1)
    const f = findings(r.stderr)
    expect(f.length).toBeGreaterThanOrEqual(1)
    for (const x of f) expect(x.position, x.message).toBeTypeOf('number')
    const mine = f.filter((x) => x.code === c.code)
    expect(mine.length, r.stderr).toBeGreaterThanOrEqual(1)
    if (c.position >= 0) expect(mine.map((x) => x.position)).toContain(c.position)
    // no finding is reported twice
    expect(new Set(f.map((x) => `${x.code}@${x.position}`)).size).toBe(f.length)
    // the first and the last batch are listed either way; the damaged one too unless its framing is gone
    expect(batchLines(r.stdout)).toHaveLength(c.framing === true ? 2 : 3)
    expect(r.stdout).toContain('position: 0 ')
  })

  it('the same damage in the last batch: framing damage there becomes the tail', async () => {
    const seg = segment(OK, OK, { ...OK, batchLength: 1 << 20 })
    const file = writeLog(path.join(dir, 'last'), seg)
    const r = await run([file])
    expect(r.code).toBe(1)
    expect(findings(r.stderr).map((x) => [x.code, x.position])).toEqual([['TRUNCATED_TAIL', 2 * P]])
  })
})
