// The byte-level line writers must print exactly what the string formatters print.
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { decodeBatchHeader } from '../../src/decode/batch-header.js'
import { BatchView } from '../../src/decode/batch-view.js'
import { writeBatchLine, MAX_BATCH_LINE } from '../../src/format/batch-line-ascii.js'
import { formatBatchLine, formatRecordMetadata } from '../../src/format/dump-text.js'
import { recordMetadataSize, writeRecordMetadata } from '../../src/format/record-line-ascii.js'
import { putInt } from '../../src/format/ascii.js'
import type { KafkaRecord } from '../../src/decode/records.js'

// around ±2^53 too: where bytes/int64.ts turns a number into a bigint
const int64 = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -1n, max: 2n ** 41n }),
  fc.bigInt({ min: 2n ** 53n - 2n ** 32n, max: 2n ** 53n + 2n ** 32n }),
  fc.bigInt({ min: -(2n ** 53n) - 2n ** 32n, max: -(2n ** 53n) + 2n ** 32n }),
)
const int32 = fc.oneof(fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }), fc.constantFrom(-1, 0, 2 ** 31 - 1))

describe('byte-level writers agree with the string formatters', () => {
  it('putInt prints every safe integer like String()', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer(),
          fc.maxSafeInteger(),
          fc.constantFrom(0, 9, 10, 2 ** 31, 2 ** 31 - 1, 1e8, 1795964418245),
        ),
        (n) => {
          const b = Buffer.alloc(32)
          expect(b.toString('latin1', 0, putInt(b, 0, n))).toBe(String(n))
        },
      ),
      { numRuns: 3000 },
    )
  })
  it('writeBatchLine === formatBatchLine on random headers', () => {
    fc.assert(
      fc.property(
        int64,
        int32,
        int32,
        fc.integer({ min: 0, max: 0xffff }),
        int32,
        int64,
        int64,
        int64,
        fc.integer({ min: -32768, max: 32767 }),
        int32,
        int32,
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.constantFrom(true, false, null),
        (
          baseOffset,
          length,
          ple,
          attributes,
          lastOffsetDelta,
          baseTs,
          maxTs,
          pid,
          epoch,
          baseSeq,
          count,
          position,
          valid,
        ) => {
          const b = Buffer.alloc(61)
          b.writeBigInt64BE(baseOffset, 0)
          b.writeInt32BE(length, 8)
          b.writeInt32BE(ple, 12)
          b.writeInt8(2, 16)
          b.writeUInt32BE(0xdeadbeef, 17)
          b.writeUInt16BE(attributes, 21)
          b.writeInt32BE(lastOffsetDelta, 23)
          b.writeBigInt64BE(baseTs, 27)
          b.writeBigInt64BE(maxTs, 35)
          b.writeBigInt64BE(pid, 43)
          b.writeInt16BE(epoch, 51)
          b.writeInt32BE(baseSeq, 53)
          b.writeInt32BE(count, 57)
          const out = Buffer.alloc(MAX_BATCH_LINE)
          const end = writeBatchLine(out, 0, new BatchView().of(b, position), valid)
          expect(out.toString('latin1', 0, end)).toBe(formatBatchLine(decodeBatchHeader(b, position), valid) + '\n')
        },
      ),
      { numRuns: 3000 },
    )
  })
  it('writeRecordMetadata === formatRecordMetadata on random records', () => {
    fc.assert(
      fc.property(
        int64,
        int64,
        fc.option(fc.uint8Array({ maxLength: 40 })),
        fc.option(fc.uint8Array({ maxLength: 40 })),
        int32,
        fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }),
        fc.boolean(),
        (offset, timestamp, key, value, sequence, headerKeys, appendTime) => {
          const r: KafkaRecord = {
            offset,
            timestamp,
            filePosition: 0,
            sizeInBytes: 0,
            attributes: 0,
            timestampDelta: 0n,
            offsetDelta: 0,
            key: key === null ? null : Buffer.from(key),
            value: value === null ? null : Buffer.from(value),
            headers: headerKeys.map((k) => ({ key: Buffer.from(k, 'utf8'), value: null })),
            sequence,
          }
          const out = Buffer.alloc(recordMetadataSize(r))
          const end = writeRecordMetadata(out, 0, r, appendTime)
          expect(out.toString('utf8', 0, end)).toBe(
            formatRecordMetadata(r, appendTime ? 'LogAppendTime' : 'CreateTime'),
          )
        },
      ),
      { numRuns: 2000 },
    )
  })
})
