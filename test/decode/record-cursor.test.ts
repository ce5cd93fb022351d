// The one record walk (decode/record-cursor.ts) against records written by the fuzz harness's independent
// encoder (scripts/fuzz/encode.mjs, from Kafka's Message Format docs): every field, including timestamp
// deltas past 2^48 (the cursor's number fast path ends there) and 5-byte varints.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeBatchHeader } from '../../src/decode/batch-header.js'
import { decodeRecords } from '../../src/decode/records.js'
import { RecordCursor } from '../../src/decode/record-cursor.js'
import { DecodeError } from '../../src/decode/errors.js'
import { batch, record } from '../../scripts/fuzz/encode.mjs'

const bytes = fc.option(
  fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
  { nil: null },
)
const arbRecord = fc.record({
  ts: fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }),
  offsetDelta: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 2 ** 31 - 1 })),
  key: bytes,
  value: bytes,
  headers: fc.array(
    fc.tuple(
      fc.uint8Array({ maxLength: 8 }).map((a) => Buffer.from(a)),
      bytes,
    ),
    { maxLength: 3 },
  ),
})

describe('RecordCursor', () => {
  it('reads every field the encoder wrote; decodeRecords builds the same values', () => {
    fc.assert(
      fc.property(fc.array(arbRecord, { minLength: 1, maxLength: 6 }), (recs) => {
        const b = batch({ count: recs.length, baseTimestamp: 0 }, Buffer.concat(recs.map((r) => record(r))))
        const h = decodeBatchHeader(b, 0)
        const got = [...decodeRecords(h, b)]
        expect(got.length).toBe(recs.length)
        const cur = new RecordCursor().at(b, 61, b.length, 0)
        recs.forEach((r, i) => {
          cur.next(i)
          expect(cur.timestampDeltaBig()).toBe(r.ts)
          expect(Number.isNaN(cur.timestampDelta) || BigInt(cur.timestampDelta) === r.ts).toBe(true)
          expect(cur.offsetDelta).toBe(r.offsetDelta)
          expect(cur.keyLength).toBe(r.key === null ? -1 : r.key.length)
          expect(cur.valueLength).toBe(r.value === null ? -1 : r.value.length)
          expect(cur.headersCount).toBe(r.headers.length)
          const g = got[i]!
          expect(g.timestampDelta).toBe(r.ts)
          expect(g.offset).toBe(BigInt(r.offsetDelta))
          expect(g.key).toEqual(r.key)
          expect(g.value).toEqual(r.value)
          expect(g.headers).toEqual(r.headers.map(([key, value]) => ({ key, value })))
        })
        expect(cur.pos).toBe(b.length)
      }),
      { numRuns: 300 },
    )
  })

  it('a record cut short or padded is a DecodeError at the record, never a read outside it', () => {
    const one = record({ key: Buffer.from('k'), value: Buffer.from('value'), headers: [[Buffer.from('h'), null]] })
    for (let cut = 1; cut < one.length; cut++) {
      const b = Buffer.concat([one.subarray(0, cut), Buffer.alloc(8, 0xaa)])
      b[0] = one[0]! // the declared length stays: the fields run past what is given, or into the padding
      const cur = new RecordCursor().at(b, 0, cut, 1000)
      expect(() => cur.next(0)).toThrow(DecodeError)
    }
  })
})
