// HeaderFacts keeps the aborted transactions packed (int64 triples, grown as they come) and the segments' facts
// from the headers as they are (numbers or bigints): against a plain list and plain bigints of the same batches,
// over more aborts than its first table holds, interleaved producers, offsets and timestamps past 2^53.
import { describe, expect, it } from 'vitest'
import type { AbortedTxn } from '../../../src/analysis/cleanup/txn-metadata.js'
import { HeaderFacts } from '../../../src/analysis/cleanup/txn-metadata.js'
import type { CleanSegment } from '../../../src/analysis/cleanup/model.js'

interface B {
  file: string
  baseOffset: bigint
  maxTimestamp: bigint
  producerId: bigint
  transactional: boolean
  control: string | null
  records: number
}

/** the batches of `n` transactions of 3 producers taking turns, every third aborted, over two segments */
function batches(n: number, base: bigint): B[] {
  const out: B[] = []
  let offset = base
  const at = (i: number): string => (i < n / 2 ? 'a.log' : 'b.log')
  for (let i = 0; i < n; i++) {
    const producerId = BigInt(i % 3) + (base > 2n ** 53n ? 2n ** 60n : 7n)
    const ts = base + BigInt(i)
    out.push({
      file: at(i),
      baseOffset: offset,
      maxTimestamp: ts,
      producerId,
      transactional: true,
      control: null,
      records: 2,
    })
    offset += 2n
    // a plain batch between, which no transaction holds
    out.push({
      file: at(i),
      baseOffset: offset++,
      maxTimestamp: ts,
      producerId: -1n,
      transactional: false,
      control: null,
      records: 1,
    })
    const control = i % 3 === 1 ? 'ABORT' : 'COMMIT'
    out.push({
      file: at(i),
      baseOffset: offset++,
      maxTimestamp: ts,
      producerId,
      transactional: true,
      control,
      records: 1,
    })
  }
  return out
}

/** the same facts by hand: bigints and objects throughout */
function reference(bs: B[]): { aborted: AbortedTxn[]; records: Map<string, number> } {
  const open = new Map<bigint, bigint>()
  const aborted: AbortedTxn[] = []
  const records = new Map<string, number>()
  for (const b of bs) {
    if (b.control === null) {
      records.set(b.file, (records.get(b.file) ?? 0) + b.records)
      if (b.transactional && !open.has(b.producerId)) open.set(b.producerId, b.baseOffset)
      continue
    }
    const first = open.get(b.producerId)
    if (b.control === 'ABORT' && first !== undefined)
      aborted.push({ producerId: b.producerId, firstOffset: first, lastOffset: b.baseOffset })
    open.delete(b.producerId)
  }
  return { aborted, records }
}

const I64 = (v: bigint): number | bigint => (v >= -(2n ** 53n) && v <= 2n ** 53n ? Number(v) : v)

/** a HeaderFacts told the batches, their numbers as the partition scan gives them */
function fed(bs: B[]): HeaderFacts {
  const h = new HeaderFacts()
  for (const b of bs)
    h.batch(b.file, {
      ...b,
      baseOffset: I64(b.baseOffset),
      maxTimestamp: I64(b.maxTimestamp),
      producerId: I64(b.producerId),
    })
  return h
}

describe('HeaderFacts', () => {
  for (const base of [0n, 2n ** 55n]) {
    it(`keeps every aborted transaction and the segments' facts (offsets from ${base})`, () => {
      const bs = batches(300, base)
      const h = fed(bs)
      const ref = reference(bs)
      expect(ref.aborted.length).toBe(100)
      expect(h.abortedTxns()).toEqual(ref.aborted)
      const segs: CleanSegment[] = ['a.log', 'b.log'].map((file) => ({
        baseOffset: 0n,
        file,
        sizeBytes: 0,
        largestTimestamp: -1n,
        firstBatchTimestamp: null,
        dataRecords: 0,
      }))
      h.fill(segs)
      const of = (file: string): B[] => bs.filter((b) => b.file === file)
      for (const s of segs) {
        expect(s.firstBatchTimestamp).toBe(of(s.file)[0]!.maxTimestamp)
        expect(s.largestTimestamp).toBe(of(s.file).reduce((m, b) => (b.maxTimestamp > m ? b.maxTimestamp : m), -1n))
        expect(s.dataRecords).toBe(ref.records.get(s.file))
      }
    })
  }
})

/** a seeded generator (xorshift32): the same batches every run */
function rng(seed: number): () => number {
  let x = seed
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 2 ** 32
  }
}

/** `n` batches of `producers` producers whose transactions overlap (aborts out of first-offset order), from `base` */
function overlapping(n: number, producers: bigint[], base: bigint, seed: number): B[] {
  const r = rng(seed)
  const out: B[] = []
  let offset = base
  for (let i = 0; i < n; i++) {
    const producerId = producers[Math.floor(r() * producers.length)]!
    const control = r() < 0.3 ? (r() < 0.5 ? 'ABORT' : 'COMMIT') : null
    out.push({
      file: 'a.log',
      baseOffset: offset,
      maxTimestamp: 0n,
      producerId,
      transactional: true,
      control,
      records: 1,
    })
    offset += control === null ? 3n : 1n
  }
  return out
}

describe('HeaderFacts packed aborts', () => {
  const cases: Array<[string, bigint[], bigint]> = [
    ['small ids and offsets', [0n, 1n, 7n, 1000n], 0n],
    ['offsets across 2^53', [3n, 4n, 5n], 2n ** 53n - 3000n],
    ['ids on both sides of 2^53 and 2^63 - 1', [2n ** 53n - 1n, 2n ** 53n, 2n ** 63n - 1n, 12n], 2n ** 50n],
    ['offsets near 2^63', [1n, 2n], 2n ** 63n - 100000n],
  ]
  for (const [name, producers, base] of cases) {
    it(`gives back every aborted transaction, overlapping producers (${name})`, () => {
      const bs = overlapping(20000, producers, base, 34)
      const h = fed(bs)
      h.trim()
      const ref = reference(bs).aborted
      expect(ref.length).toBeGreaterThan(1000)
      const sorted = [...ref].sort((x, y) =>
        x.firstOffset < y.firstOffset ? -1 : x.firstOffset > y.firstOffset ? 1 : 0,
      )
      expect(h.abortedTxns()).toEqual(sorted)
    })
  }

  it('holds 200,000 aborted transactions of 50 producers in under 8 bytes each', () => {
    // a partition of small transactions: int64 triples took 24 bytes each, 48 with their array's room to grow
    const h = new HeaderFacts()
    let offset = 1_000_000
    for (let i = 0; i < 200_000; i++) {
      const producerId = 5000 + (i % 50)
      h.batch('a.log', {
        baseOffset: offset,
        maxTimestamp: 0,
        producerId,
        transactional: true,
        control: null,
        records: 5,
      })
      h.batch('a.log', {
        baseOffset: offset + 5,
        maxTimestamp: 0,
        producerId,
        transactional: true,
        control: 'ABORT',
        records: 1,
      })
      offset += 6
    }
    h.trim()
    expect(h.abortedBytes).toBeLessThan(8 * 200_000)
    expect(h.abortedTxns().length).toBe(200_000)
  })
})
