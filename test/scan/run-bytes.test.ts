// A run written to its bucket straight from the analyzer's transaction (scan/run-bytes.ts txnRunW) is the bytes
// runW writes of the PartitionRun scan/transaction-runs.ts makes of it (scan/transaction-wire.ts), read back by runR
// as that run: values as numbers, past the varint's 2^50 and past 2^53 (then bigints), null fields and an empty
// transaction's run (no first batch: the marker's place).
import { describe, expect, it } from 'vitest'
import { newTxn } from '../../src/analysis/partition-analyzer-helpers.js'
import type { StreamedTransaction } from '../../src/analysis/run-sink.js'
import type { PartitionRun } from '../../src/analysis/transaction-join/types.js'
import { FileTable } from '../../src/analysis/transaction-join/wire.js'
import type { I64 } from '../../src/bytes/int64.js'
import { toBigInt } from '../../src/bytes/int64.js'
import { ByteIn, ByteOut } from '../../src/io/spill-bytes.js'
import { i64W, txnRunW } from '../../src/scan/run-bytes.js'
import { runR, runW } from '../../src/scan/transaction-wire.js'

const big = (v: I64 | null): bigint | null => (v === null ? null : toBigInt(v))

function txn(pid: I64, first: I64, last: I64 | null, ts: I64 | null, empty: boolean): StreamedTransaction {
  const t = newTxn(0, pid, 7, first)
  t.lastDataOffset = last
  t.records = empty ? 0 : 12
  t.firstTimestamp = ts
  t.lastTimestamp = ts
  t.empty = empty
  t.seeded = !empty
  t.coordinatorEpoch = empty ? null : 3
  t.markerEpoch = empty ? null : 8
  t.marker = { offset: last === null ? first : typeof last === 'number' ? last + 1 : last + 1n, type: 'ABORT' }
  t.outcome = 'aborted'
  return t
}

/** the PartitionRun transaction-runs.ts makes of it */
function runOf(t: StreamedTransaction, first: { file: string; position: number } | null, ts: I64): PartitionRun {
  return {
    topic: 'orders',
    partition: 4,
    producerId: toBigInt(t.producerId),
    producerEpoch: t.producerEpoch,
    firstOffset: toBigInt(t.firstOffset),
    lastDataOffset: big(t.lastDataOffset),
    records: t.records,
    outcome: t.outcome,
    firstTimestamp: big(t.firstTimestamp),
    lastTimestamp: big(t.lastTimestamp),
    marker: {
      offset: toBigInt(t.marker!.offset),
      type: t.marker!.type,
      coordinatorEpoch: t.coordinatorEpoch,
      epoch: t.markerEpoch ?? t.producerEpoch,
      timestamp: toBigInt(ts),
      file: '/l/orders-4/00000000000000000000.log',
      position: 900,
    },
    seeded: t.seeded,
    file: first?.file ?? '/l/orders-4/00000000000000000000.log',
    position: first?.position ?? 900,
  }
}

describe('txnRunW', () => {
  const cases: Array<[string, StreamedTransaction, { file: string; position: number } | null, I64]> = [
    ['small numbers', txn(5000, 17, 40, 1_700_000_000_000, false), { file: '/l/orders-4/a.log', position: 61 }, 5],
    ['past the varint (2^50)', txn(2 ** 51, 2 ** 50, 2 ** 52, -(2 ** 50), false), null, 2 ** 50 + 1],
    ['past 2^53 (bigints)', txn(2n ** 62n, 2n ** 60n, 2n ** 61n, -(2n ** 63n), false), null, 2n ** 63n - 1n],
    ['an empty transaction', txn(-7, 0, null, null, true), null, -1],
  ]
  for (const [name, t, first, ts] of cases) {
    it(name, () => {
      const f = new FileTable()
      const a = new ByteOut(16)
      const marker = '/l/orders-4/00000000000000000000.log'
      txnRunW(a, f, 'orders', 4, t, first?.file ?? marker, first?.position ?? 900, ts, marker, 900)
      const b = new ByteOut(16)
      const run = runOf(t, first, ts)
      runW(b, f, run)
      expect(a.buf.subarray(0, a.pos)).toEqual(b.buf.subarray(0, b.pos))
      expect(runR(new ByteIn().at(a.buf, 0), f)).toEqual(run)
    })
  }

  it('i64W writes what ByteOut.i64 writes', () => {
    const values: bigint[] = [
      0n,
      -1n,
      1n,
      2n ** 50n - 1n,
      2n ** 50n,
      -(2n ** 50n),
      2n ** 53n,
      2n ** 63n - 1n,
      -(2n ** 63n),
    ]
    for (const v of values) {
      const a = new ByteOut(16)
      i64W(a, typeof v === 'bigint' && v >= -(2n ** 53n) && v < 2n ** 53n ? Number(v) : v)
      const b = new ByteOut(16)
      b.i64(v)
      expect(a.buf.subarray(0, a.pos), String(v)).toEqual(b.buf.subarray(0, b.pos))
    }
  })
})
