// Random runs of `txns` (analysis/timeline.ts TimelineRun) for the tests of its printers: int64 values over
// the whole range and around ±2^53, where numbers stop being exact.
import fc from 'fast-check'
import type { TimelineRun } from '../../src/analysis/timeline.js'
import type { MarkerType, Transaction } from '../../src/analysis/transactions.js'

const MAX = BigInt(Number.MAX_SAFE_INTEGER)
export const i64 = fc.oneof(
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.bigInt({ min: -2n, max: 100_000_000n }),
  fc.bigInt({ min: MAX - 3n, max: MAX + 3n }),
  fc.bigInt({ min: -MAX - 3n, max: -MAX + 3n }),
)
export const epoch = fc.integer({ min: -1, max: 32767 })
export const orNull = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | null> => fc.option(a, { nil: null })

/**
 * A transaction's marker and outcome as the analyzer sets them (no damage): none while open; an empty transaction is
 * made at its marker, so it has one (at its first offset).
 */
export function markerOf(
  type: MarkerType | null,
  offset: bigint,
  t: { empty: boolean; firstOffset: bigint },
): Pick<Transaction, 'marker' | 'outcome'> {
  const ty = type ?? (t.empty ? 'ABORT' : null)
  if (ty === null) return { marker: null, outcome: 'open' }
  return {
    marker: { offset: type === null ? t.firstOffset : offset, type: ty },
    outcome: ty === 'COMMIT' ? 'committed' : 'aborted',
  }
}

/** runs of every kind; `timestamp` draws the transactions' timestamps, `typeName` the control runs' types */
export function timelineRun(o: {
  timestamp: fc.Arbitrary<bigint>
  typeName: fc.Arbitrary<string>
}): fc.Arbitrary<TimelineRun> {
  const txn: fc.Arbitrary<Transaction> = fc
    .record({
      seq: fc.nat(),
      producerId: i64,
      producerEpoch: epoch,
      markerEpoch: orNull(epoch),
      firstOffset: i64,
      lastDataOffset: orNull(i64),
      records: fc.nat(),
      batches: fc.nat(),
      firstTimestamp: orNull(o.timestamp),
      lastTimestamp: orNull(o.timestamp),
      type: fc.constantFrom('COMMIT' as const, 'ABORT' as const, null),
      markerOffset: i64,
      coordinatorEpoch: orNull(fc.integer({ min: -1, max: 2 ** 31 - 1 })),
      seeded: fc.boolean(),
      empty: fc.boolean(),
      completionLastStableOffset: orNull(i64),
    })
    .map(({ type, markerOffset, ...t }) => ({ ...t, ...markerOf(type, markerOffset, t) }))
  return fc.oneof(
    fc.record({
      kind: fc.constant('plain' as const),
      firstOffset: i64,
      lastOffset: i64,
      producerId: i64,
      producerEpoch: epoch,
      records: fc.nat(),
      batches: fc.nat(),
    }),
    fc.record({ kind: fc.constant('control' as const), firstOffset: i64, typeName: o.typeName, producerId: i64 }),
    fc
      .tuple(txn, fc.boolean(), fc.constantFrom(undefined, 'early' as const, 'end' as const))
      .map(([t, interleaved, listed]) => {
        const r: TimelineRun = { kind: 'transaction', firstOffset: t.firstOffset, txn: t, interleaved }
        if (listed !== undefined) r.listed = listed
        return r
      }),
  )
}
