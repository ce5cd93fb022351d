// The tiered retention rules on made-up states (the real broker's answer is test/fixtures/tiered-retention.test.ts):
// RLMExpirationTask's time rule, its retry of DELETE_SEGMENT_STARTED, and a local segment kept until it is copied.
import { describe, expect, it } from 'vitest'
import { predictTieredRetention } from '../../../src/analysis/cleanup/remote-retention.js'
import type { RemoteSegmentFacts } from '../../../src/analysis/cleanup/remote-retention.js'
import type { CleanSegment } from '../../../src/analysis/cleanup/model.js'
import type { CleanupSettings } from '../../../src/analysis/cleanup/configs.js'

const seg = (baseOffset: bigint, largestTimestamp: bigint, sizeBytes = 100): CleanSegment => ({
  baseOffset,
  file: '',
  sizeBytes,
  largestTimestamp,
  firstBatchTimestamp: largestTimestamp,
  dataRecords: 1,
})
const rem = (
  id: string,
  startOffset: bigint,
  endOffset: bigint,
  maxTimestampMs: bigint,
  state = 'COPY_SEGMENT_FINISHED',
): RemoteSegmentFacts => ({ segmentId: id, startOffset, endOffset, maxTimestampMs, sizeInBytes: 100, state })
const cfg = (o: Partial<CleanupSettings>): CleanupSettings => ({
  compact: false,
  delete: true,
  minCleanableRatio: 0.5,
  minCompactionLagMs: 0n,
  maxCompactionLagMs: 0n,
  deleteRetentionMs: 0n,
  retentionMs: -1n,
  retentionBytes: -1n,
  ...o,
})
const tiered = { remoteStorage: true, copyDisabled: false, localRetentionMs: 1000n, localRetentionBytes: -1n }

describe('predictTieredRetention', () => {
  it('retention.ms deletes remote segments older than it, oldest first, stopping at the first kept; DELETE_SEGMENT_STARTED is retried', () => {
    const p = predictTieredRetention({
      local: [seg(20n, 5000n), seg(30n, 9000n)],
      remote: [
        rem('a', 0n, 9n, 1000n),
        rem('b', 10n, 19n, 8000n),
        rem('x', 0n, 9n, 500n, 'DELETE_SEGMENT_STARTED'),
        rem('c', 20n, 29n, 2000n, 'COPY_SEGMENT_STARTED'),
      ],
      logStartOffset: 0n,
      highWatermark: 40n,
      logEndOffset: 40n,
      cfg: cfg({ retentionMs: 5000n }),
      tiered,
      nowMs: 10_000n,
    })
    expect(p.remoteDeleted.map((d) => [d.segmentId, d.reason])).toEqual([
      ['x', 'delete-retried'],
      ['a', 'retention.ms'],
    ])
    expect(p.logStartOffsetAfter).toBe(10n)
    // 20..29 was never finished: the highest copied offset is 19, so local segment 20 stays though it is old
    expect(p.highestOffsetInRemoteStorage).toBe(19n)
    expect(p.localDeleted).toEqual([])
    expect(p.localLogStartOffsetAfter).toBe(20n)
  })
  it('a copied local segment goes by local.retention.ms; the active one never', () => {
    const p = predictTieredRetention({
      local: [seg(10n, 1000n), seg(20n, 1000n), seg(30n, 1000n)],
      remote: [rem('a', 10n, 19n, 1000n), rem('b', 20n, 29n, 1000n)],
      logStartOffset: 10n,
      highWatermark: 35n,
      logEndOffset: 35n,
      cfg: cfg({}),
      tiered,
      nowMs: 10_000n,
    })
    expect(p.localDeleted.map((d) => [d.baseOffset, d.reason])).toEqual([
      [10n, 'local.retention.ms'],
      [20n, 'local.retention.ms'],
    ])
    expect(p.localLogStartOffsetAfter).toBe(30n)
    expect(p.logStartOffsetAfter).toBe(10n)
  })
})
