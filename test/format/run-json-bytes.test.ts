import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { TimelineRun } from '../../src/analysis/timeline.js'
import { inferTransactionVersion } from '../../src/analysis/transactions.js'
import { writeRunJson } from '../../src/format/run-json-bytes.js'
import { StringWriter } from '../../src/format/writer.js'
import { i64, timelineRun } from '../support/timeline-runs.js'

// writeRunJson writes a run of `txns --json` as bytes. The oracle: JSON.stringify of the object in the
// documented field order (README "txns --json"), with int64 values as numbers when exact, else strings.

const MAX = BigInt(Number.MAX_SAFE_INTEGER)
const int64 = (v: bigint | null): number | string | null =>
  v === null ? null : v <= MAX && v >= -MAX ? Number(v) : v.toString()

function expected(r: TimelineRun): unknown {
  switch (r.kind) {
    case 'plain':
      return {
        kind: 'plain',
        firstOffset: int64(r.firstOffset),
        lastOffset: int64(r.lastOffset),
        producerId: int64(r.producerId),
        producerEpoch: r.producerEpoch,
        transactional: false,
        records: r.records,
        batches: r.batches,
      }
    case 'control':
      return { kind: 'control', offset: int64(r.firstOffset), type: r.typeName, producerId: int64(r.producerId) }
    case 'transaction': {
      const t = r.txn
      return {
        kind: t.empty ? 'empty-transaction' : 'transaction',
        firstOffset: int64(t.firstOffset),
        lastDataOffset: int64(t.lastDataOffset),
        producerId: int64(t.producerId),
        producerEpoch: t.producerEpoch,
        transactional: true,
        records: t.records,
        batches: t.batches,
        outcome: t.outcome,
        marker:
          t.marker === null
            ? null
            : {
                offset: int64(t.marker.offset),
                type: t.marker.type,
                producerEpoch: t.markerEpoch,
                coordinatorEpoch: t.coordinatorEpoch,
              },
        coordinatorEpoch: t.coordinatorEpoch,
        firstTimestamp: int64(t.firstTimestamp),
        lastTimestamp: int64(t.lastTimestamp),
        seeded: t.seeded,
        interleaved: r.interleaved,
        transactionVersion: inferTransactionVersion(t),
        ...(r.listed !== undefined ? { listed: r.listed } : {}),
      }
    }
  }
}

const run = timelineRun({
  timestamp: i64,
  typeName: fc.oneof(fc.constantFrom('LEADER_CHANGE', 'SNAPSHOT_HEADER', 'UNKNOWN(99)'), fc.string()),
})

function written(runs: readonly TimelineRun[]): string {
  const w = new StringWriter()
  runs.forEach((r, i) => {
    writeRunJson(w, r, i === 0)
  })
  return w.text
}

describe('writeRunJson', () => {
  it('writes the JSON text of the run object, field for field and in order, runs separated by commas', () => {
    fc.assert(
      fc.property(fc.array(run, { minLength: 1, maxLength: 4 }), (runs) => {
        expect(written(runs)).toBe(runs.map((r) => JSON.stringify(expected(r))).join(','))
      }),
      { numRuns: 2000 },
    )
  })
})
