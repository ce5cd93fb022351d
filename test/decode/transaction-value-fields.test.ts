// decode/topics/transaction-value-fields.ts reads every field of a __transaction_state value in place for
// `transactions`' episodes. The collector trusts it only because of this promise: wherever the walk accepts a value,
// the general decoder (decodeTransactionLogValue, Kafka's generated TransactionLogValue reader) reads it without an
// error and gives the same fields; where the general decoder fails, the walk refuses. Checked on every value the
// brokers of the fixtures wrote (v0 and v1, tagged fields among them), on values with each tagged field set, and on
// mutated, cut and lengthened copies.
import { describe, expect, it } from 'vitest'
import { AsciiIntern } from '../../src/bytes/ascii-intern.js'
import { decodeTransactionLogValue } from '../../src/decode/topics/transaction-state.js'
import {
  FieldsWalk,
  PartitionLabels,
  readTransactionValueFields,
  transactionValueFields,
} from '../../src/decode/topics/transaction-value-fields.js'
import { readCommonValueHead } from '../../src/decode/topics/transaction-value-head.js'
import { agreeOnMutatedValues, fixtureStateRecords } from '../support/state-records.js'

/** every value of the fixtures' __transaction_state records, each a copy */
const { values } = fixtureStateRecords()

const int64 = (n: bigint): Buffer => {
  const b = Buffer.alloc(8)
  b.writeBigInt64BE(n)
  return b
}
const int16 = (n: number): Buffer => {
  const b = Buffer.alloc(2)
  b.writeInt16BE(n)
  return b
}

/** a v1 value (Ongoing, partitions t-0 and t-1) with the tagged fields `tags` ([tag, bytes]) */
function withTags(tags: Array<[number, Buffer]>): Buffer {
  const head = Buffer.alloc(17)
  head.writeInt16BE(1, 0)
  head.writeBigInt64BE(5n, 2)
  head.writeInt16BE(3, 10)
  head.writeInt32BE(60000, 12)
  head.writeInt8(1, 16)
  // one entry: compact string "t", compact array [0, 1], no tagged fields
  const entry = Buffer.from([2, 2, 0x74, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0])
  const parts = [head, entry, int64(1000n), int64(900n), Buffer.from([tags.length])]
  for (const [tag, b] of tags) parts.push(Buffer.from([tag, b.length]), b)
  return Buffer.concat(parts)
}

const intern = new AsciiIntern()
const labels = new PartitionLabels()
const walk = new FieldsWalk(intern, labels)

/** the walk and the general decoder agree on `v` (placed at an offset inside a larger buffer); returns whether the walk took it */
function agree(v: Buffer, pad: number): boolean {
  const buf = Buffer.concat([Buffer.alloc(pad, 0xee), v, Buffer.alloc(3, 0xee)])
  const f = transactionValueFields()
  const took = readTransactionValueFields(buf, pad, v.length, f, walk)
  let g: ReturnType<typeof decodeTransactionLogValue> | string
  try {
    g = decodeTransactionLogValue(v, 100)
  } catch (e) {
    g = (e as Error).message
  }
  // the head the coordinator's reader walked (readCommonValueHead) given: the rest alone read, the same fields
  const head = { transactionStatus: 0, producerEpoch: 0, transactionTimeoutMs: 0, startTimestampAt: 0 }
  if (readCommonValueHead(buf, pad, v.length, head)) {
    expect(took, 'the walk of the rest alone took a value the whole walk refuses').toBe(true)
    const r = transactionValueFields()
    expect(readTransactionValueFields(buf, pad, v.length, r, walk, head)).toBe(true)
    expect(r).toEqual(f)
  }
  if (!took) return false
  expect(typeof g, `the walk took a value the general decoder refuses: ${String(g)}`).toBe('object')
  const d = g as Exclude<typeof g, string>
  expect(f).toEqual({
    producerId: d.producerId,
    previousProducerId: d.previousProducerId,
    nextProducerId: d.nextProducerId,
    producerEpoch: d.producerEpoch,
    transactionTimeoutMs: d.transactionTimeoutMs,
    transactionStatus: d.transactionStatus,
    partitions:
      d.transactionPartitions === null
        ? null
        : d.transactionPartitions.flatMap((t) => t.partitionIds.map((p) => `${t.topic}-${p}`)),
    transactionLastUpdateTimestampMs: d.transactionLastUpdateTimestampMs,
    transactionStartTimestampMs: d.transactionStartTimestampMs,
    clientTransactionVersion: d.clientTransactionVersion,
  })
  return true
}

describe('the in-place walk of a __transaction_state value agrees with the general decoder', () => {
  it('takes every value the brokers wrote, with the same fields', () => {
    expect(values.length).toBeGreaterThan(50)
    const versions = new Set(values.map((v) => v.readInt16BE(0)))
    expect(versions.has(0) && versions.has(1), 'the fixtures hold v0 and flexible (v1) values').toBe(true)
    expect(values.some((v) => (decodeTransactionLogValue(v).transactionPartitions?.length ?? 0) > 0)).toBe(true)
    for (const v of values) expect(agree(v, 0)).toBe(true)
  })

  it('reads the rest of a value whose head the reader of the coordinator walked, without walking the head again', () => {
    // the values a coordinator writes are the common walk's: each read from the head it gave
    const common = values.filter((v) =>
      readCommonValueHead(v, 0, v.length, {
        transactionStatus: 0,
        producerEpoch: 0,
        transactionTimeoutMs: 0,
        startTimestampAt: 0,
      }),
    )
    expect(common.length).toBeGreaterThan(50)
    for (const v of common) expect(agree(v, 5)).toBe(true)
  })

  it('reads the tagged fields (KIP-890 producer ids, client transaction version) and refuses one given twice', () => {
    const v = withTags([
      [0, int64(41n)],
      [1, int64(43n)],
      [2, int16(2)],
      [3, int16(7)],
      [9, Buffer.from('xyz')],
    ])
    expect(agree(v, 3)).toBe(true)
    const f = transactionValueFields()
    readTransactionValueFields(v, 0, v.length, f, walk)
    expect([f.previousProducerId, f.nextProducerId, f.clientTransactionVersion]).toEqual([41n, 43n, 2])
    // twice: the general decoder keeps the last one that is not the default; the walk leaves it to it
    expect(
      agree(
        withTags([
          [0, int64(41n)],
          [0, int64(-1n)],
        ]),
        0,
      ),
    ).toBe(false)
    // a known tag of another size: the general decoder fails, the walk refuses
    expect(agree(withTags([[1, int16(1)]]), 0)).toBe(false)
  })

  it('on values with a byte changed, cut short or lengthened (taken or refused, never a different answer)', () => {
    agreeOnMutatedValues(values, agree)
  })
})
