// The epoch rule of analysis/replicas/epoch-rule.ts against Kafka's own tests of it: the expectations of
// LeaderEpochFileCacheTest (core/src/test/scala/unit/kafka/server/epoch/) for endOffsetFor, and the
// truncations AbstractFetcherThread.getOffsetTruncationState gives in the cases KIP-279 describes.
import { describe, expect, it } from 'vitest'
import {
  assignEpoch,
  cacheFromBatches,
  endOffsetFor,
  PackedEpochs,
  truncationAgainst,
  UNDEFINED_EPOCH,
  UNDEFINED_EPOCH_OFFSET,
} from '../../src/analysis/replicas/epoch-rule.js'

const c = (...pairs: Array<[number, number]>): Array<{ epoch: number; startOffset: bigint }> =>
  pairs.map(([epoch, o]) => ({ epoch, startOffset: BigInt(o) }))
const eo = (epoch: number, endOffset: number | bigint): { epoch: number; endOffset: bigint } => ({
  epoch,
  endOffset: BigInt(endOffset),
})

describe('endOffsetFor as LeaderEpochFileCacheTest expects it', () => {
  it('the latest epoch ends at the log end', () => {
    expect(endOffsetFor(c([2, 10]), 2, 11n)).toEqual(eo(2, 11))
    expect(endOffsetFor(c([2, 6]), 2, 7n)).toEqual(eo(2, 7))
  })
  it('undefined epoch, or none recorded, or not tracked: undefined', () => {
    expect(endOffsetFor(c([2, 11], [3, 12]), UNDEFINED_EPOCH, 0n)).toEqual(eo(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET))
    expect(endOffsetFor([], 0, 0n)).toEqual(eo(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET))
    expect(endOffsetFor(c([2, 100]), 3, 100n)).toEqual(eo(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET))
  })
  it("an epoch below the first: the requested epoch and the first epoch's start (shouldReturnFirstEpochIfRequestedEpochLessThanFirstEpoch)", () => {
    expect(endOffsetFor(c([5, 11], [6, 12], [7, 13]), 4, 0n)).toEqual(eo(4, 11))
  })
  it("no exact epoch: the one below and the next one's start (shouldReturnNextAvailableEpochIfThereIsNoExactEpochForTheOneRequested)", () => {
    const cache = c([0, 10], [2, 13], [4, 17])
    expect(endOffsetFor(cache, 1, 0n)).toEqual(eo(0, 13))
    expect(endOffsetFor(cache, 2, 0n)).toEqual(eo(2, 17))
    expect(endOffsetFor(cache, 3, 0n)).toEqual(eo(2, 17))
    expect(endOffsetFor(c([1, 11], [2, 13], [3, 15]), 2, 17n)).toEqual(eo(2, 15))
  })
})

describe("the follower's truncation (AbstractFetcherThread.getOffsetTruncationState)", () => {
  it('an epoch the leader never had (KIP-279): answered with an older epoch, then matched', () => {
    // replicas-unclean p2: led by broker 2 in epoch 0, broker 1 in epoch 1; broker 3 (epoch 3) never saw epoch 1
    const t = truncationAgainst(
      { cache: c([0, 0], [1, 7]), logEndOffset: 14n, highWatermark: 14n },
      { cache: c([0, 0], [3, 5]), logEndOffset: 8n, highWatermark: 8n },
    )
    expect(t.offset).toBe(5n)
    expect(t.steps.map((s) => s.rule)).toEqual(['matched'])
  })
  it("the leader answers with an epoch the follower lacks: truncate to the follower's epoch below it, and ask again", () => {
    // follower epochs 0, 2; leader epochs 0, 1, 3: asked for 2, the leader answers (1, start of 3)
    const t = truncationAgainst(
      { cache: c([0, 0], [2, 10]), logEndOffset: 20n, highWatermark: 12n },
      { cache: c([0, 0], [1, 8], [3, 15]), logEndOffset: 30n, highWatermark: 30n },
    )
    expect(t.steps.map((s) => [s.rule, s.truncateTo])).toEqual([
      ['follower-older-epochs', 10n],
      ['matched', 8n],
    ])
    expect(t.offset).toBe(8n)
  })
  it("a follower behind in the leader's epoch does not truncate", () => {
    expect(
      truncationAgainst(
        { cache: c([0, 0]), logEndOffset: 8n, highWatermark: 8n },
        { cache: c([0, 0]), logEndOffset: 13n, highWatermark: 13n },
      ).offset,
    ).toBe(8n)
  })
  it('no epoch known to the follower: its high watermark', () => {
    expect(
      truncationAgainst(
        { cache: [], logEndOffset: 8n, highWatermark: 5n },
        { cache: c([0, 0]), logEndOffset: 13n, highWatermark: 13n },
      ).offset,
    ).toBe(5n)
  })
  it('the cache Kafka builds from appended batches (LeaderEpochFileCache.assign): one entry per newer epoch', () => {
    expect(
      cacheFromBatches([
        { partitionLeaderEpoch: 0, baseOffset: 0n },
        { partitionLeaderEpoch: 0, baseOffset: 3n },
        { partitionLeaderEpoch: 2, baseOffset: 5n },
        { partitionLeaderEpoch: 2, baseOffset: 9n },
      ]),
    ).toEqual(c([0, 0], [2, 5]))
  })
})

describe('the cache as LeaderEpochFileCache loads a checkpoint (assign per entry)', () => {
  const load = (...pairs: Array<[number, number]>): Array<[number, number]> => {
    const cache = new PackedEpochs()
    for (const [e, o] of pairs) assignEpoch(cache, e, BigInt(o))
    const out: Array<[number, number]> = []
    for (let i = 0; i < cache.length; i++) {
      const x = cache.at(i)!
      out.push([x.epoch, Number(x.startOffset)])
    }
    return out
  }
  it('an entry repeating the latest epoch at a later offset changes nothing (shouldNotOverwriteOffsetForALeaderEpochOnceItHasBeenAssigned)', () => {
    expect(load([2, 6], [2, 10])).toEqual([[2, 6]])
    // the same epoch at a smaller offset replaces it (isUpdateNeeded: startOffset < latest's)
    expect(load([2, 6], [2, 4])).toEqual([[2, 4]])
  })
  it('a lower epoch or offset truncates the newer entries (shouldTruncateNonMonotonicEntries / maybeTruncateNonMonotonicEntries)', () => {
    expect(load([1, 5], [2, 10], [3, 15], [2, 12])).toEqual([
      [1, 5],
      [2, 12],
    ])
    expect(load([1, 5], [2, 10], [3, 8])).toEqual([
      [1, 5],
      [3, 8],
    ])
  })
  it('millions of repeated lines load as one entry; a negative entry is refused', () => {
    const cache = new PackedEpochs()
    for (let i = 0; i < 4_000_000; i++) assignEpoch(cache, 0, 0n)
    expect(cache.length).toBe(1)
    expect(assignEpoch(cache, -1, 0n)).toBe(false)
    expect(assignEpoch(cache, 1, -1n)).toBe(false)
  })
})
