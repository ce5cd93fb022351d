// decode/topics/offset-commit-fields.ts reads an offset commit record of __consumer_offsets in place for
// `transactions`. The commit tap trusts it only because of this promise: wherever the walk accepts a record, the
// general decoder (decodeGroupRecord, Kafka's generated OffsetCommitKey/Value readers) reads it without an error
// and gives the same group, topic, partition, offset and metadata; where the general decoder fails, the walk
// refuses. Checked on every offset commit the brokers of the fixtures wrote, on every value version, and on
// mutated, cut and lengthened copies.
import * as fs from 'node:fs'
import * as path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { AsciiIntern } from '../../src/bytes/ascii-intern.js'
import { readLog } from '../../src/decode/log-reader.js'
import { decodeRecords } from '../../src/decode/records.js'
import { decodeGroupRecord } from '../../src/decode/topics/consumer-offsets.js'
import { offsetCommitFields, readOffsetCommitAt } from '../../src/decode/topics/offset-commit-fields.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'

function offsetLogs(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (e) => e.isFile() && e.name.endsWith('.log') && path.basename(e.parentPath).startsWith('__consumer_offsets-'),
    )
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
}

/** every offset commit (key type 0 or 1) of the fixtures' __consumer_offsets records, key and value copied */
const records: Array<[Buffer, Buffer | null]> = []
for (const f of [...offsetLogs(FIXTURES), ...offsetLogs(FIXTURES_44)]) {
  for (const ev of readLog(new BufferSource(fs.readFileSync(f)), { verifyCrc: false })) {
    if (ev.kind !== 'batch' || !ev.complete || ev.header.isControl) continue
    for (const r of decodeRecords(ev.header, ev.bytes)) {
      if (r.key === null || r.key.length < 2 || r.key.readInt16BE(0) > 1) continue
      records.push([Buffer.from(r.key), r.value === null ? null : Buffer.from(r.value)]) // copies: the window is reused
    }
  }
}

const intern = new AsciiIntern()

/** what offset-commit-scan.ts takes of the general decoder's answer, or its error's message */
function general(k: Buffer, v: Buffer | null): object | string {
  try {
    const r = decodeGroupRecord(k, v, '4.4', { checkValueVersion: false })
    const d = r.value?.data
    if ((r.value !== null && r.value.version < 0) || (d !== undefined && typeof d.offset !== 'bigint'))
      return 'no offset'
    return {
      group: String(r.key.group),
      topic: String(r.key.topic),
      partition: Number(r.key.partition),
      offset: d === undefined ? null : d.offset,
      metadata: d === undefined || d.metadata === null ? null : String(d.metadata),
    }
  } catch (e) {
    return (e as Error).message
  }
}

/** the walk and the general decoder agree (key and value placed inside a larger buffer); whether the walk took it */
function agree(k: Buffer, v: Buffer | null, pad: number): boolean {
  const buf = Buffer.concat([
    Buffer.alloc(pad, 0xee),
    k,
    Buffer.alloc(1, 0xee),
    v ?? Buffer.alloc(0),
    Buffer.alloc(3, 0xee),
  ])
  const f = offsetCommitFields()
  const took = readOffsetCommitAt(buf, pad, k.length, pad + k.length + 1, v === null ? -1 : v.length, f, intern)
  if (!took) return false
  const g = general(k, v)
  expect(typeof g, `the walk took a record the general decoder refuses: ${String(g)}`).toBe('object')
  expect({ ...f }).toEqual(g)
  return true
}

/** an OffsetCommitValue of `version` (offset 7, metadata "m", tagged topicId for v4) */
function value(version: number): Buffer {
  const parts = [Buffer.alloc(2), Buffer.alloc(8)]
  parts[0]!.writeInt16BE(version)
  parts[1]!.writeBigInt64BE(7n)
  if (version >= 3) parts.push(Buffer.from([0, 0, 0, 5]))
  parts.push(version >= 4 ? Buffer.from([2, 0x6d]) : Buffer.from([0, 1, 0x6d]))
  parts.push(Buffer.alloc(8, 1))
  if (version === 1) parts.push(Buffer.alloc(8, 2))
  if (version >= 4) parts.push(Buffer.from([1, 0, 16]), Buffer.alloc(16, 3))
  return Buffer.concat(parts)
}

describe('the in-place walk of an offset commit agrees with the general decoder', () => {
  it('takes every offset commit the brokers wrote, with the same fields', () => {
    expect(records.length).toBeGreaterThan(20)
    expect(records.some(([, v]) => v === null)).toBe(true)
    for (const [k, v] of records) expect(agree(k, v, 0)).toBe(true)
  })

  it('reads value versions 0 to 4 and refuses the rest', () => {
    const k = records.find(([key]) => key.readInt16BE(0) === 1)![0]
    for (const version of [0, 1, 2, 3, 4]) expect(agree(k, value(version), 2)).toBe(true)
    expect(agree(k, value(5), 0)).toBe(false)
    // key type 0 (LegacyOffsetCommitKey): its value has version 0 only
    const legacy = Buffer.from(k)
    legacy.writeInt16BE(0, 0)
    expect(agree(legacy, value(0), 0)).toBe(true)
    expect(agree(legacy, value(1), 0)).toBe(false)
  })

  it('on records with a byte changed, cut short or lengthened (taken or refused, never a different answer)', () => {
    const k = records.find(([key]) => key.readInt16BE(0) === 1)![0]
    const all: Array<[Buffer, Buffer | null]> = [
      ...records,
      ...[0, 1, 2, 3, 4].map((v): [Buffer, Buffer] => [k, value(v)]),
    ]
    fc.assert(
      fc.property(
        fc.nat(all.length - 1),
        fc.boolean(),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: -8, max: 8 }),
        fc.nat(5),
        (i, inKey, at, byte, resize, pad) => {
          const [k0, v0] = all[i]!
          const which = inKey || v0 === null ? k0 : v0
          const b = Buffer.from(which) // copy: changed below
          b[at % b.length] = byte
          const sized =
            resize < 0 ? b.subarray(0, Math.max(0, b.length + resize)) : Buffer.concat([b, Buffer.alloc(resize, byte)])
          if (which === k0) agree(sized, v0, pad)
          else agree(k0, sized, pad)
        },
      ),
      { numRuns: 5000 },
    )
  })
})
