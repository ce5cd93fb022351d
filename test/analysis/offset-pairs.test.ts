import { describe, expect, it } from 'vitest'
import { OffsetPairs } from '../../src/analysis/offset-pairs.js'
import { finding, locatePartitionFindings } from '../../src/analysis/findings.js'
import { formatFinding } from '../../src/format/finding-text.js'

describe('OffsetPairs', () => {
  it('lists every pair newest first without a limit (kafka-dump-log 3.9 order)', () => {
    const p = new OffsetPairs()
    for (let i = 0; i < 100; i++) p.push(BigInt(i), BigInt(i + 2))
    const l = [...p]
    expect(l).toHaveLength(100)
    expect(l[0]).toEqual([99n, 101n])
    expect(l[99]).toEqual([0n, 2n])
    expect(p.dropped).toBe(0)
  })
  it('keeps only the newest `limit` pairs and counts the rest', () => {
    const p = new OffsetPairs(5)
    for (let i = 0; i < 23; i++) p.push(BigInt(i), 0n)
    expect([...p].map(([a]) => a)).toEqual([22n, 21n, 20n, 19n, 18n])
    expect(p.length).toBe(23)
    expect(p.dropped).toBe(18)
  })
  it('with limit 0 only counts', () => {
    const p = new OffsetPairs(0)
    p.push(1n, 2n)
    expect([...p]).toEqual([])
    expect(p.length).toBe(1)
  })
})

describe('partition-level findings', () => {
  it('get the partition and offsets, and keep offsets they already name', () => {
    const a = finding('TXNINDEX_NOT_CHECKED', 'x')
    const b = finding('TXNINDEX_MISSING_ENTRY', 'y', { firstOffset: 5n, lastOffset: 9n })
    const c = finding('CRC_MISMATCH', 'z', { file: 'f.log', position: 3 })
    locatePartitionFindings([a, b, c], 't-0', 0n, 100n)
    expect([a.partition, a.firstOffset, a.lastOffset]).toEqual(['t-0', 0n, 100n])
    expect([b.partition, b.firstOffset, b.lastOffset]).toEqual(['t-0', 5n, 9n])
    expect(c.partition).toBeUndefined()
    expect(formatFinding(b)).toBe('tsdump: error: t-0: offsets 5..9: y [TXNINDEX_MISSING_ENTRY]')
  })
})
