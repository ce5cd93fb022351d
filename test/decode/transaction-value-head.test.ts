// decode/topics/transaction-value-head.ts reads a __transaction_state value's head (state, epoch, start time) in
// place, and transactionalIdAt a key's id, for the coordinator's records as the partition scan streams them. The
// reader trusts them only because of this promise: wherever the head walk accepts a value, the general decoder
// (decodeTransactionLogValue, Kafka's generated TransactionLogValue reader) reads it without an error and gives
// the same fields; where the general decoder fails, the walk refuses. Checked on every value the brokers of the
// fixtures wrote (v0 and v1, tagged fields among them) and on mutated, cut and lengthened copies; and the same walk's
// whole value (readTransactionValue) is the general decoder's.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  decodeTransactionLogKey,
  decodeTransactionLogValue,
  transactionalIdAt,
} from '../../src/decode/topics/transaction-state.js'
import type { TransactionValueHead } from '../../src/decode/topics/transaction-value-head.js'
import { readTransactionValue, readTransactionValueHead } from '../../src/decode/topics/transaction-value-head.js'
import { agreeOnMutatedValues, fixtureStateRecords } from '../support/state-records.js'

/** every key and value of the fixtures' __transaction_state records, each a copy */
const { keys, values } = fixtureStateRecords()

/** the general decoder's answer, or its error's message */
function general(v: Buffer): ReturnType<typeof decodeTransactionLogValue> | string {
  try {
    return decodeTransactionLogValue(v, 100)
  } catch (e) {
    return (e as Error).message
  }
}

/** the walk and the general decoder agree on `v` (placed at an offset inside a larger buffer); returns whether the walk took it */
function agree(v: Buffer, pad: number): boolean {
  const buf = Buffer.concat([Buffer.alloc(pad, 0xee), v, Buffer.alloc(3, 0xee)])
  const head: TransactionValueHead = {
    transactionStatus: -9,
    producerEpoch: -9,
    transactionTimeoutMs: -9,
    startTimestampAt: -9,
  }
  const took = readTransactionValueHead(buf, pad, v.length, head)
  const g = general(v)
  // the whole value read by the same walk: the general decoder's value where the walk takes it, else nothing
  const whole = readTransactionValue(buf, pad, v.length)
  if (!took) {
    expect(whole).toBeNull()
    return false
  }
  expect(whole).toEqual(g)
  expect(typeof g, `the walk took a value the general decoder refuses: ${String(g)}`).toBe('object')
  const d = g as Exclude<typeof g, string>
  expect({
    status: head.transactionStatus,
    epoch: head.producerEpoch,
    timeout: head.transactionTimeoutMs,
    updated: buf.readBigInt64BE(head.startTimestampAt - 8),
    start: buf.readBigInt64BE(head.startTimestampAt),
  }).toEqual({
    status: d.transactionStatus,
    epoch: d.producerEpoch,
    timeout: d.transactionTimeoutMs,
    updated: d.transactionLastUpdateTimestampMs,
    start: d.transactionStartTimestampMs,
  })
  return true
}

describe('the head walk of a __transaction_state value agrees with the general decoder', () => {
  it('takes every value the brokers wrote, with the same state, epoch, timeout and times', () => {
    expect(values.length).toBeGreaterThan(50)
    const versions = new Set(values.map((v) => v.readInt16BE(0)))
    expect(versions.has(1), 'the 4.4 fixtures hold flexible (v1) values').toBe(true)
    for (const v of values) expect(agree(v, 0)).toBe(true)
  })

  it('on values with a byte changed, cut short or lengthened (taken or refused, never a different answer)', () => {
    agreeOnMutatedValues(values, agree)
  })

  it('transactionalIdAt reads the id of every key as decodeTransactionLogKey does, and fails where it fails', () => {
    expect(keys.length).toBeGreaterThan(50)
    const check = (k: Buffer): void => {
      let want: string | null | Error
      try {
        want = decodeTransactionLogKey(k, 7).transactionalId
      } catch (e) {
        want = e as Error
      }
      const buf = Buffer.concat([Buffer.from('xx'), k, Buffer.from('yy')])
      let got: string | null | Error
      try {
        got = transactionalIdAt(buf, 2, k.length, 7)
      } catch (e) {
        got = e as Error
      }
      if (want instanceof Error) expect((got as Error).message).toBe(want.message)
      else expect(got).toBe(want)
    }
    for (const k of keys) check(k)
    fc.assert(
      fc.property(
        fc.nat(keys.length - 1),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: -4, max: 2 }),
        (i, at, byte, resize) => {
          const k = Buffer.from(keys[i]!) // copy: changed below
          k[at % k.length] = byte
          check(
            resize < 0 ? k.subarray(0, Math.max(0, k.length + resize)) : Buffer.concat([k, Buffer.alloc(resize, byte)]),
          )
        },
      ),
      { numRuns: 3000 },
    )
  })
})
