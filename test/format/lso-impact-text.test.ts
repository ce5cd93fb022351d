// lso's impact lines write their counts with en-US thousands separators. Number.toLocaleString loads ICU's locale
// data at its first call (about 12 ms of every lso run with an open transaction), so the counts are grouped by
// analysis/count-text.ts instead; the truth is Intl's own en-US formatting of the same numbers.
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { TransactionImpact } from '../../src/analysis/lso-impact.js'
import { impactLines } from '../../src/format/lso-impact-text.js'

const impact = (counts: number[]): TransactionImpact => ({
  producerId: 7n,
  producerEpoch: 0,
  transactionalId: null,
  topics: [
    {
      topic: 'orders',
      partitions: counts[4]!,
      held: ['orders-0'],
      readCommitted: counts[0]!,
      readUncommitted: counts[1]!,
      committedBehind: counts[2]!,
      ownRecords: counts[3]!,
    },
  ],
  deadlineMs: null,
  abortCommands: [],
  forceTerminate: null,
  forceTerminateAdvice: { command: null, clusterHasIt: null, metadataVersion: null, note: '' },
  streamsRestart: null,
})

afterEach(() => {
  vi.restoreAllMocks()
})

describe("lso's impact lines", () => {
  it('group each count as en-US does, without Number.toLocaleString', () => {
    const en = new Intl.NumberFormat('en-US')
    const spy = vi.spyOn(Number.prototype, 'toLocaleString')
    for (const counts of [
      [0, 1, 1, 0, 1],
      [999, 1000, 12317, 1_000_000, 2],
      [123_456_789, 9_007_199_254_740_991, 4_294_967_296, 10_001, 1_000],
    ]) {
      // (a count and its noun are one word to the wrapper, which writes a space between them)
      const text = impactLines([impact(counts)], 0, 1000)
        .join(' ')
        .replace(/\u00a0/g, ' ')
      const [rc, ru, behind, own] = counts.map((n) => en.format(n))
      expect(text).toContain(`read_committed consumers see ${rc} record`)
      expect(text).toContain(` of ${ru}`)
      expect(text).toContain(`; ${behind} committed record`)
      expect(text).toContain(`(and its own ${own} record`)
      if (counts[4]! > 1) expect(text).toContain(`(${counts[4]} partitions)`)
    }
    expect(spy).not.toHaveBeenCalled()
  })
})
