// The partition scan's fast feed (scan/batch-feed.ts FastBatchFeed, used by scan/partition-scan.ts scanSegment) must give exactly what reading every
// segment with readLog gives: same report, findings, timeline and transactions, on real segments, on
// damaged ones (where it hands over to readLog mid-file) and on int64 values beyond 2^53.
import * as fs from 'node:fs'
import * as path from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { ScannedPartition } from '../../src/scan/partition-scan.js'
import { scanPartition } from '../../src/scan/partition-scan.js'
import { discover } from '../../src/io/discover.js'
import { brokerPartitions, frameBoundaries, realLogs, rmrf, tmp } from '../hostile/support.js'
import type { BatchSpec } from '../support/txn-segment-builder.js'
import { encodeBatch } from '../support/txn-segment-builder.js'

const dir = tmp('tsdump-fast-scan-')
afterAll(() => rmrf(dir))

/** report, timeline and the marker epochs as a string; bigints marked so that a number never passes for one */
function snapshotOf(s: ScannedPartition): string {
  const r = s.report
  const epochs: Array<[string, number | undefined]> = []
  for (const t of r.timeline?.transactions ?? [])
    epochs.push([String(t.producerId), r.markerCoordinatorEpochs.get(t.producerId)])
  const { markerCoordinatorEpochs: _m, ...rest } = r
  // (`iv`: the analyzer's interval of a still-unstable transaction, which points back at it)
  return JSON.stringify({ rest, epochs, size: r.markerCoordinatorEpochs.size }, (k, v: unknown) =>
    k === 'iv' ? undefined : typeof v === 'bigint' ? `${v}n` : v instanceof Uint32Array ? Array.from(v) : v,
  )
}

function scanBoth(partitionPath: string): { fast: string; slow: string } {
  const d = discover([partitionPath])
  expect(d.partitions).toHaveLength(1)
  const p = d.partitions[0]!
  return {
    fast: snapshotOf(scanPartition(p, new Map(), { analyzer: () => ({ timeline: true }) })),
    slow: snapshotOf(scanPartition(p, new Map(), { analyzer: () => ({ timeline: true }) }, { readLogOnly: true })),
  }
}

let n = 0
/** a partition directory holding one segment */
function partitionWith(buf: Buffer, base = '00000000000000000000'): string {
  const p = path.join(dir, `t${n++}-0`)
  fs.mkdirSync(p)
  fs.writeFileSync(path.join(p, `${base}.log`), buf)
  return p
}

function expectSame(partitionPath: string): void {
  const { fast, slow } = scanBoth(partitionPath)
  expect(fast).toBe(slow)
}

const real = realLogs()
  .map((p) => fs.readFileSync(p))
  .filter((b) => frameBoundaries(b).length >= 3)

describe('fast partition scan = readLog scan', () => {
  it('on every broker-fixture partition', () => {
    const parts = brokerPartitions()
    for (const p of parts) expectSame(p)
  })

  it.skipIf(real.length === 0)(
    'on real segments, and on them damaged (bit flips, cuts, overwritten bytes, zero tails)',
    () => {
      const arb = fc.record({
        i: fc.nat({ max: real.length - 1 }),
        kind: fc.constantFrom('flip', 'cut', 'overwrite', 'zeros', 'none'),
        a: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }),
      })
      fc.assert(
        fc.property(arb, ({ i, kind, a, bytes }) => {
          const src = real[i]!
          // small inputs keep each run quick: the first 60 entries
          const bounds = frameBoundaries(src)
          let buf = Buffer.from(src.subarray(0, bounds[Math.min(60, bounds.length - 1)]))
          const at = Math.floor(a * buf.length)
          if (kind === 'flip') buf[at] = buf[at]! ^ (1 << (bytes[0]! % 8))
          else if (kind === 'cut') buf = buf.subarray(0, at)
          else if (kind === 'overwrite')
            buf.set(bytes.subarray(0, Math.max(0, Math.min(bytes.length, buf.length - at))), at)
          else if (kind === 'zeros') buf = Buffer.concat([buf, Buffer.alloc(1 + bytes[0]!)])
          expectSame(partitionWith(buf))
        }),
        { numRuns: 300 },
      )
    },
  )

  it('on offsets, producer ids and timestamps around and beyond 2^53', () => {
    const big = 2n ** 53n
    const batches: BatchSpec[] = [
      { baseOffset: big - 3n, count: 2, producerId: big - 1n, producerEpoch: 0, transactional: true, timestamp: -5n },
      { baseOffset: big - 1n, count: 3, producerId: big + 7n, producerEpoch: 1, transactional: true, timestamp: big },
      { baseOffset: big + 2n, producerId: big - 1n, producerEpoch: 0, control: 'ABORT', coordinatorEpoch: 3 },
      { baseOffset: big + 3n, count: 2, producerId: -big, producerEpoch: 0, timestamp: 2n ** 62n },
      { baseOffset: big + 5n, producerId: big + 7n, producerEpoch: 1, control: 'COMMIT', coordinatorEpoch: 4 },
      {
        baseOffset: big + 6n,
        count: 1,
        producerId: big + 7n,
        producerEpoch: 1,
        transactional: true,
        timestamp: -(2n ** 63n),
      },
    ]
    const p = partitionWith(Buffer.concat(batches.map(encodeBatch)), (big - 3n).toString().padStart(20, '0'))
    const { fast, slow } = scanBoth(p)
    expect(fast).toBe(slow)
    const r = scanPartition(discover([p]).partitions[0]!, new Map()).report
    expect(r.logEndOffset).toBe(big + 7n)
    expect(r.lastStableOffset).toBe(big + 6n)
    expect(r.openTransactions.map((t) => [t.producerId, t.firstOffset, t.lastTimestamp])).toEqual([
      [big + 7n, big + 6n, -(2n ** 63n)],
    ])
    expect(r.newestTimestamp).toBe(2n ** 62n)
    expect(r.markerCoordinatorEpochs.get(big - 1n)).toBe(3)
    expect(r.markerCoordinatorEpochs.get(big + 7n)).toBe(4)
  })

  it('on control batches the fast loop leaves to readLog (odd shapes), and legacy entries', () => {
    const marker = encodeBatch({
      baseOffset: 1n,
      producerId: 5n,
      producerEpoch: 0,
      control: 'COMMIT',
      coordinatorEpoch: 9,
    })
    const data = encodeBatch({ baseOffset: 0n, producerId: 5n, producerEpoch: 0, transactional: true })
    const after = encodeBatch({ baseOffset: 2n, count: 2 })
    const variants: Buffer[] = []
    // every byte of the marker's record changed to a few values (key/value lengths, versions, types, headers)
    for (let i = 61; i < marker.length; i++) {
      for (const v of [0x00, 0x01, 0x02, 0x7f, 0x80, 0xff]) {
        const m = Buffer.from(marker)
        m[i] = v
        variants.push(m)
      }
    }
    // the marker's record with bytes appended inside its length (a trailing byte, a header, a longer key or value)
    const rec = marker.subarray(61)
    const withRecord = (body: Buffer): Buffer => {
      const b = Buffer.concat([marker.subarray(0, 61), Buffer.from([body.length << 1]), body])
      b.writeInt32BE(b.length - 12, 8)
      return b
    }
    const fields = rec.subarray(1) // attributes .. headersCount
    variants.push(withRecord(Buffer.concat([fields, Buffer.from([0])])))
    variants.push(withRecord(Buffer.concat([fields.subarray(0, -1), Buffer.from([2, 2, 0x61, 0])])))
    variants.push(
      withRecord(
        Buffer.concat([
          fields.subarray(0, 3),
          Buffer.from([10]),
          fields.subarray(4, 8),
          Buffer.from([0]),
          fields.subarray(8),
        ]),
      ),
    )
    variants.push(
      withRecord(
        Buffer.concat([
          fields.subarray(0, 8),
          Buffer.from([14]),
          fields.subarray(9, 15),
          Buffer.from([0]),
          fields.subarray(15),
        ]),
      ),
    )
    // compressed (gzip id) and empty control batches
    const gz = Buffer.from(marker)
    gz[22] = gz[22]! | 1
    variants.push(gz)
    const empty = Buffer.from(marker.subarray(0, 61))
    empty.writeInt32BE(49, 8)
    empty.writeInt32BE(0, 57)
    variants.push(empty)
    // LEADER_CHANGE
    variants.push(encodeBatch({ baseOffset: 1n, control: 2 }))
    // a magic-1 entry: offset, size, crc, magic 1, attributes, timestamp, key -1, value "x"
    const legacy = Buffer.alloc(12 + 4 + 1 + 1 + 8 + 4 + 4 + 1)
    legacy.writeBigInt64BE(1n, 0)
    legacy.writeInt32BE(legacy.length - 12, 8)
    legacy[16] = 1
    legacy.writeInt32BE(-1, 26)
    legacy.writeInt32BE(1, 30)
    legacy[34] = 0x78
    variants.push(legacy)
    for (const v of variants) expectSame(partitionWith(Buffer.concat([data, v, after])))
  })

  it('on batches larger than its window and markers between them (header-only reads)', () => {
    const out: Buffer[] = []
    let o = 0n
    for (const count of [3, 20_000, 1, 1500, 30_000, 2, 25_000, 1]) {
      out.push(encodeBatch({ baseOffset: o, count, producerId: 7n, producerEpoch: 0, transactional: true }))
      o += BigInt(count)
      out.push(
        encodeBatch({ baseOffset: o, producerId: 7n, producerEpoch: 0, control: count % 2 === 0 ? 'ABORT' : 'COMMIT' }),
      )
      o += 1n
    }
    expectSame(partitionWith(Buffer.concat(out)))
  })

  it('on headers readLog finds implausible (recordsCount, lastOffsetDelta)', () => {
    const ok = encodeBatch({ baseOffset: 0n, count: 3 })
    const fits = Math.floor((ok.length - 61) / 7)
    const after = encodeBatch({ baseOffset: 3n })
    for (const [field, v] of [
      [57, fits],
      [57, fits + 1],
      [57, -1],
      [57, 0],
      [23, -1],
      [23, 0x7fffffff],
    ] as const) {
      const b = Buffer.from(ok)
      b.writeInt32BE(v, field)
      expectSame(partitionWith(Buffer.concat([b, after])))
      const gz = Buffer.from(b)
      gz[22] = gz[22]! | 1 // compressed: recordsCount is not checked against the bytes
      expectSame(partitionWith(Buffer.concat([gz, after])))
    }
  })
})
