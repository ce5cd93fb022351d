import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { TimelineRun } from '../../src/analysis/timeline.js'
import type { Transaction } from '../../src/analysis/transactions.js'
import { inferTransactionVersion } from '../../src/analysis/transactions.js'
import { writeRunJson } from '../../src/format/run-json-bytes.js'
import { StringWriter } from '../../src/format/writer.js'

// writeRunJson writes a run of `txns --json` as bytes. The oracle: JSON.stringify of the object in the
// documented field order (README "txns --json"), with int64 values as numbers when exact, else strings.

const MAX = BigInt(Number.MAX_SAFE_INTEGER)
const int64 = (v: bigint | null): number | string | null => v === null ? null : v <= MAX && v >= -MAX ? Number(v) : v.toString()

function expected (r: TimelineRun): unknown {
  switch (r.kind) {
    case 'plain':
      return { kind: 'plain', firstOffset: int64(r.firstOffset), lastOffset: int64(r.lastOffset), producerId: int64(r.producerId),
        producerEpoch: r.producerEpoch, transactional: false, records: r.records, batches: r.batches }
    case 'control':
      return { kind: 'control', offset: int64(r.firstOffset), type: r.typeName, producerId: int64(r.producerId) }
    case 'transaction': {
      const t = r.txn
      return {
        kind: t.empty ? 'empty-transaction' : 'transaction', firstOffset: int64(t.firstOffset), lastOffset: int64(t.lastDataOffset),
        producerId: int64(t.producerId), producerEpoch: t.producerEpoch, transactional: true, records: t.records, batches: t.batches,
        outcome: t.outcome, markerOffset: int64(t.markerOffset), markerEpoch: t.markerEpoch, coordinatorEpoch: t.coordinatorEpoch,
        firstTimestamp: int64(t.firstTimestamp), lastTimestamp: int64(t.lastTimestamp), seeded: t.seeded, interleaved: r.interleaved,
        transactionVersion: inferTransactionVersion(t), ...(r.listed !== undefined ? { listed: r.listed } : {}),
      }
    }
  }
}

// around ±2^53, where numbers stop being exact, and the int64 ends
const i64 = fc.oneof(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }), fc.bigInt({ min: -MAX - 3n, max: -MAX + 3n }),
  fc.bigInt({ min: MAX - 3n, max: MAX + 3n }), fc.bigInt({ min: -2n, max: 100_000n }))
const epoch = fc.integer({ min: -1, max: 32767 })
const orNull = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(a, { nil: null })

const txn: fc.Arbitrary<Transaction> = fc.record({
  seq: fc.nat(), producerId: i64, producerEpoch: epoch, markerEpoch: orNull(epoch), firstOffset: i64, lastDataOffset: orNull(i64),
  records: fc.nat(), batches: fc.nat(), firstTimestamp: orNull(i64), lastTimestamp: orNull(i64),
  outcome: fc.constantFrom('COMMIT' as const, 'ABORT' as const, null), markerOffset: orNull(i64), coordinatorEpoch: orNull(fc.integer({ min: -1, max: 2 ** 31 - 1 })),
  seeded: fc.boolean(), empty: fc.boolean(), completionLastStableOffset: orNull(i64),
})

const run: fc.Arbitrary<TimelineRun> = fc.oneof(
  fc.record({ kind: fc.constant('plain' as const), firstOffset: i64, lastOffset: i64, producerId: i64, producerEpoch: epoch, records: fc.nat(), batches: fc.nat() }),
  fc.record({ kind: fc.constant('control' as const), firstOffset: i64, typeName: fc.oneof(fc.constantFrom('LEADER_CHANGE', 'SNAPSHOT_HEADER', 'UNKNOWN(99)'), fc.string()), producerId: i64 }),
  fc.tuple(txn, i64, fc.boolean(), fc.constantFrom(undefined, 'early' as const, 'end' as const)).map(([t, first, interleaved, listed]) => {
    const r: TimelineRun = { kind: 'transaction', firstOffset: first, txn: t, interleaved }
    if (listed !== undefined) r.listed = listed
    return r
  }),
)

function written (runs: readonly TimelineRun[]): string {
  const w = new StringWriter()
  runs.forEach((r, i) => { writeRunJson(w, r, i === 0) })
  return w.text
}

describe('writeRunJson', () => {
  it('writes the JSON text of the run object, field for field and in order, runs separated by commas', () => {
    fc.assert(fc.property(fc.array(run, { minLength: 1, maxLength: 4 }), (runs) => {
      expect(written(runs)).toBe(runs.map((r) => JSON.stringify(expected(r))).join(','))
    }), { numRuns: 2000 })
  })
})
