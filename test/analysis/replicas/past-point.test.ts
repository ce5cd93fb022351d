// What a copy holds past a point, tallied as its batches stream by (analysis/replicas/past-point.ts): counts over
// every batch, the listing and the markers capped and the rest counted, and the listing's records read under
// readRecordsOf's budget (the listing's first `listRecords` records; a read that fails is said and lists none).
// Batches made here by hand: offsets, counts and markers chosen so that the expected figures follow from them.
import { describe, expect, it } from 'vitest'
import type { ListedRecords } from '../../../src/analysis/replicas/past-point.js'
import { BATCHES_LISTED, MARKERS_KEPT, PastPointTally } from '../../../src/analysis/replicas/past-point.js'
import type { ReplicaBatch } from '../../../src/analysis/replicas/replica-input.js'

function batch(base: number, count: number, marker: string | null = null): ReplicaBatch {
  return {
    baseOffset: BigInt(base),
    lastOffset: BigInt(base + count - 1),
    count,
    partitionLeaderEpoch: 0,
    crc: 0,
    crcValid: true,
    producerId: 7n,
    producerEpoch: 0,
    baseSequence: 0,
    isTransactional: marker !== null,
    isControl: marker !== null,
    marker,
    file: 'x.log',
    position: base,
    size: 100,
  }
}

/** records base..base+count-1 keyed k<offset>, at most n + 1 as the listing asks */
const keysOf =
  (b: ReplicaBatch) =>
  (n: number): ListedRecords => ({
    records: Array.from({ length: Math.min(b.count, n + 1) }, (_, i) => ({
      offset: b.baseOffset + BigInt(i),
      key: `k${b.baseOffset + BigInt(i)}`,
    })),
    problem: null,
  })

describe('PastPointTally', () => {
  it('counts every batch from the point, lists the first BATCHES_LISTED, keeps the first MARKERS_KEPT markers and counts the rest', () => {
    const t = new PastPointTally(10n, 2000n, 0)
    // a batch straddling the point counts its offsets from the point on: 5..14 gives 10..14
    t.add(batch(5, 10), undefined)
    let offset = 15
    for (let i = 0; i < 1500; i++) {
      t.add(batch(offset, 1, 'COMMIT'), undefined)
      offset++
    }
    const r = t.result()
    expect(r.batches).toBe(1501)
    expect(r.records).toBe(5 + 1500)
    // below the high watermark 2000: offsets 10..1514 all are
    expect(r.recordsBelowHighWatermark).toBe(1505)
    expect(r.listed.length).toBe(BATCHES_LISTED)
    expect(r.markers.length).toBe(MARKERS_KEPT)
    expect(r.markersOmitted).toBe(1500 - MARKERS_KEPT)
  })

  it('lists records while the budget lasts: a batch partly, the next ones without', () => {
    const t = new PastPointTally(0n, null, 5)
    const bs = [batch(0, 3), batch(3, 1, 'COMMIT'), batch(4, 4), batch(8, 2)]
    for (const b of bs) t.add(b, keysOf(b))
    const listed = t.result().listed
    expect(listed.map((b) => b.records?.map((r) => r.key) ?? null)).toEqual([
      ['k0', 'k1', 'k2'],
      [],
      ['k4', 'k5'],
      null,
    ])
  })

  it('a record that cannot be read: said, and the batch listed without records; the budget goes on', () => {
    const t = new PastPointTally(0n, null, 10)
    const problem = {
      code: 'BAD_RECORD' as const,
      severity: 'error' as const,
      file: 'x.log',
      position: 3,
      message: 'bad',
    }
    t.add(batch(0, 4), () => ({ records: [{ offset: 0n, key: 'k0' }], problem }))
    const b = batch(4, 2)
    t.add(b, keysOf(b))
    const r = t.result()
    expect(r.problems).toEqual([problem])
    expect(r.listed.map((x) => x.records?.length ?? null)).toEqual([null, 2])
  })

  it('a batch whose bytes are gone when its records are wanted makes the tally unusable (its point is read again)', () => {
    const t = new PastPointTally(0n, null, 10)
    t.add(batch(0, 2), null)
    expect(t.incomplete).toBe(true)
  })
})
