// format/transaction-json-bytes.ts against JSON.stringify(transactionJson(t)), the object the bytes stand for: every
// transaction of the broker fixtures (real brokers' runs, markers, offset commits and coordinator records; Kafka
// Streams, Flink and plain ids), the same with values changed the way other inputs have them (int64 past 2^53,
// nulls, strings JSON escapes or that are not ASCII), each written after a comma or first. What it does not write it
// says so and leaves the output as it was.
import * as path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { JoinedTransaction } from '../../src/analysis/transaction-join/types.js'
import { transactions } from '../../src/commands/transactions.js'
import { writeTransactionJson } from '../../src/format/transaction-json-bytes.js'
import { transactionJson } from '../../src/format/transactions-json.js'
import { StringWriter } from '../../src/format/writer.js'
import { REPO_ROOT } from '../support/paths.js'

const DIRS = ['broker-4.4/transactions', 'broker-4.4/streams-eos', 'broker-4.4/flink-pooling', 'broker/open-txn']
const all: JoinedTransaction[] = DIRS.flatMap(
  (d) =>
    transactions([path.join(REPO_ROOT, 'fixtures', d, 'logs')], { now: Date.parse('2026-12-07T00:00:00Z') })
      .transactions,
)

/** the bytes' text, or null where the writer left the transaction to the object */
function written(t: JoinedTransaction, first: boolean): string | null {
  const w = new StringWriter()
  const done = writeTransactionJson(w, t, first)
  if (!done) expect(w.text).toBe('')
  return done ? w.text : null
}

const expected = (t: JoinedTransaction, first: boolean): string =>
  (first ? '' : ',') + JSON.stringify(transactionJson(t))

describe('writeTransactionJson', () => {
  it('writes the object transactionJson makes for the fixtures’ transactions', () => {
    expect(all.length).toBeGreaterThan(20)
    let bytes = 0
    for (const t of all)
      for (const first of [true, false]) {
        const s = written(t, first)
        if (s === null) continue
        bytes++
        expect(s).toBe(expected(t, first))
      }
    // most of them are written as bytes: the fast path is the path taken
    expect(bytes).toBeGreaterThan(all.length)
  })

  it('writes the same text or leaves it to the object for values other inputs hold', () => {
    const big = fc.oneof(
      fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
      fc.constantFrom(2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, -(2n ** 53n) + 1n, -(2n ** 53n) - 1n, 0n, -1n),
    )
    const text = fc.oneof(
      fc.string({ maxLength: 12 }),
      fc.constantFrom('a"b', 'back\\slash', 'tab\there', 'caf\u00e9', 'x\u00a0y', ''),
    )
    fc.assert(
      fc.property(
        fc.nat(all.length - 1),
        big,
        big,
        fc.option(text, { nil: null }),
        text,
        fc.boolean(),
        (k, a, b, id, topic, first) => {
          const src = all[k]!
          const t: JoinedTransaction = {
            ...src,
            transactionalId: id,
            producerId: a,
            firstTimestamp: b,
            runs: src.runs.map((r, i) => ({
              ...r,
              topic: i === 0 ? topic : r.topic,
              firstOffset: a,
              lastDataOffset: null,
            })),
          }
          const s = written(t, first)
          if (s !== null) expect(s).toBe(expected(t, first))
        },
      ),
      { numRuns: 2000 },
    )
  })
})
