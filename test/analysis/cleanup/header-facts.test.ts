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

describe('HeaderFacts', () => {
  for (const base of [0n, 2n ** 55n]) {
    it(`keeps every aborted transaction and the segments' facts (offsets from ${base})`, () => {
      const bs = batches(300, base)
      const h = new HeaderFacts()
      for (const b of bs)
        h.batch(b.file, {
          ...b,
          baseOffset: I64(b.baseOffset),
          maxTimestamp: I64(b.maxTimestamp),
          producerId: I64(b.producerId),
        })
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
