// Where a follower's log stops agreeing with its leader's, by the rule replication itself applies (KIP-101,
// KIP-279): the follower asks the leader for the end offset of its latest epoch (OffsetsForLeaderEpoch), the
// leader answers from its LeaderEpochFileCache.endOffsetFor, and AbstractFetcherThread.getOffsetTruncationState
// turns the answer into a truncation offset, asking again with an older epoch when the leader answered with
// an epoch the follower does not know. Pure: the caches and log end offsets come in as values.

export interface EpochEntry {
  epoch: number
  startOffset: bigint
}

/**
 * An epoch cache read by index: an array of entries, or PackedEpochs (a leader-epoch-checkpoint of millions of
 * lines as objects took `replicas` to 808 MiB; packed it is 12 bytes an entry, bounded by the 16 MiB file cap).
 */
export interface EpochList {
  readonly length: number
  at: (i: number) => EpochEntry | undefined
}

/** epochs and start offsets in typed arrays, appended in order */
export class PackedEpochs implements EpochList {
  private epochs = new Int32Array(16)
  private starts = new BigInt64Array(16)
  length = 0
  push(epoch: number, startOffset: bigint): void {
    if (this.length === this.epochs.length) {
      const e = new Int32Array(this.length * 2)
      e.set(this.epochs)
      this.epochs = e
      const s = new BigInt64Array(this.length * 2)
      s.set(this.starts)
      this.starts = s
    }
    this.epochs[this.length] = epoch
    this.starts[this.length++] = startOffset
  }

  /** drop the newest entry */
  pop(): void {
    if (this.length > 0) this.length--
  }

  at(i: number): EpochEntry | undefined {
    if (i < 0) i += this.length
    return i < 0 || i >= this.length ? undefined : { epoch: this.epochs[i]!, startOffset: this.starts[i]! }
  }
}

/**
 * LeaderEpochFileCache.assign, as its constructor applies it to each entry of the checkpoint: an entry with
 * the newest epoch and no smaller start offset changes nothing; else every newest entry with an epoch or a
 * start offset at or above the new one's goes (maybeTruncateNonMonotonicEntries) and the new one is appended.
 * So the cache a broker loads increases in both, whatever the file repeats. False for a negative epoch or
 * offset, which Kafka refuses (IllegalArgumentException: the log does not load).
 */
export function assignEpoch(cache: PackedEpochs, epoch: number, startOffset: bigint): boolean {
  if (epoch < 0 || startOffset < 0n) return false
  const latest = cache.at(-1)
  if (latest !== undefined && latest.epoch === epoch && startOffset >= latest.startOffset) return true
  for (let e = cache.at(-1); e !== undefined && (e.epoch >= epoch || e.startOffset >= startOffset); e = cache.at(-1))
    cache.pop()
  cache.push(epoch, startOffset)
  return true
}

/** Kafka's UNDEFINED_EPOCH and UNDEFINED_EPOCH_OFFSET */
export const UNDEFINED_EPOCH = -1
export const UNDEFINED_EPOCH_OFFSET = -1n

export interface EpochEndOffset {
  epoch: number
  endOffset: bigint
}

/** LeaderEpochFileCache.endOffsetFor(requestedEpoch, logEndOffset) on an epoch cache (epochs increasing). */
export function endOffsetFor(cache: EpochList, requestedEpoch: number, logEndOffset: bigint): EpochEndOffset {
  if (requestedEpoch === UNDEFINED_EPOCH) return { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET }
  const latest = cache.at(cache.length - 1)
  // the latest epoch is still being written to: its end is the log end
  if (latest !== undefined && latest.epoch === requestedEpoch) return { epoch: requestedEpoch, endOffset: logEndOffset }
  let higher: EpochEntry | undefined
  let floor: EpochEntry | undefined
  for (let i = 0; i < cache.length; i++) {
    const e = cache.at(i)!
    if (higher === undefined && e.epoch > requestedEpoch) higher = e
    if (e.epoch <= requestedEpoch) floor = e
  }
  // larger than any known epoch
  if (higher === undefined) return { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET }
  // smaller than any known epoch: the start of the first epoch above it, answered with the requested epoch
  if (floor === undefined) return { epoch: requestedEpoch, endOffset: higher.startOffset }
  return { epoch: floor.epoch, endOffset: higher.startOffset }
}

/** UnifiedLog.endOffsetForEpoch: the cache's answer, none when the offset is undefined. */
function localEndOffsetFor(cache: EpochList, epoch: number, logEndOffset: bigint): EpochEndOffset | null {
  const r = endOffsetFor(cache, epoch, logEndOffset)
  return r.endOffset === UNDEFINED_EPOCH_OFFSET ? null : r
}

export interface ReplicaLog {
  cache: EpochList
  logEndOffset: bigint
  /** the follower's high watermark, where it truncates when the leader has no answer (its initial fetch offset) */
  highWatermark: bigint
}

export interface TruncationStep {
  /** the epoch the follower asked about (its latest) */
  requestedEpoch: number
  /** the leader's answer */
  leader: EpochEndOffset
  /** the offset the follower truncates to after this answer */
  truncateTo: bigint
  /** the follower's epoch did not match the leader's answer: it asks again with its remaining cache */
  again: boolean
  /** which branch of getOffsetTruncationState applied */
  rule:
    | 'no-epoch'
    | 'leader-unknown-offset'
    | 'leader-undefined-epoch'
    | 'follower-older-epochs'
    | 'matched'
    | 'follower-unknown-epoch'
}

export interface Truncation {
  /** where the follower's log would end after the truncation (at most its log end offset) */
  offset: bigint
  steps: TruncationStep[]
}

/** LeaderEpochFileCache.truncateFromEnd: entries starting at or after `offset` go. */
function truncatedCache(cache: EpochList, offset: bigint): PackedEpochs {
  const out = new PackedEpochs()
  for (let i = 0; i < cache.length; i++) {
    const e = cache.at(i)!
    if (e.startOffset < offset) out.push(e.epoch, e.startOffset)
  }
  return out
}

const min = (...xs: bigint[]): bigint => xs.reduce((a, b) => (b < a ? b : a))

/** The truncation a follower performs against `leader` before it fetches (AbstractFetcherThread.maybeTruncate). */
export function truncationAgainst(follower: ReplicaLog, leader: ReplicaLog): Truncation {
  const steps: TruncationStep[] = []
  let cache: EpochList = follower.cache
  let leo = follower.logEndOffset
  // each intermediate step removes at least the follower's latest epoch, so this ends
  for (;;) {
    const latest = cache.at(cache.length - 1)
    if (latest === undefined) {
      // no epoch to ask about: AbstractFetcherThread truncates such a partition to its high watermark
      const to = min(follower.highWatermark, leo)
      steps.push({
        requestedEpoch: UNDEFINED_EPOCH,
        leader: { epoch: UNDEFINED_EPOCH, endOffset: UNDEFINED_EPOCH_OFFSET },
        truncateTo: to,
        again: false,
        rule: 'no-epoch',
      })
      return { offset: to, steps }
    }
    const answer = endOffsetFor(leader.cache, latest.epoch, leader.logEndOffset)
    const step = (truncateTo: bigint, again: boolean, rule: TruncationStep['rule']): TruncationStep => ({
      requestedEpoch: latest.epoch,
      leader: answer,
      truncateTo,
      again,
      rule,
    })
    if (answer.endOffset === UNDEFINED_EPOCH_OFFSET) {
      // the leader knows no such epoch (its cache is empty, or the follower's epoch is newer than any it has):
      // the follower truncates to its initial fetch offset, its high watermark
      const to = min(follower.highWatermark, leo)
      steps.push(step(to, false, 'leader-unknown-offset'))
      return { offset: to, steps }
    }
    if (answer.epoch === UNDEFINED_EPOCH) {
      const to = min(answer.endOffset, leo)
      steps.push(step(to, false, 'leader-undefined-epoch'))
      return { offset: to, steps }
    }
    const mine = localEndOffsetFor(cache, answer.epoch, leo)
    if (mine === null) {
      // the follower tracked no epoch at or below the leader's answer: the leader's offset is used
      const to = min(answer.endOffset, leo)
      steps.push(step(to, false, 'follower-unknown-epoch'))
      return { offset: to, steps }
    }
    if (mine.epoch !== answer.epoch) {
      const to = min(mine.endOffset, leo)
      steps.push(step(to, true, 'follower-older-epochs'))
      cache = truncatedCache(cache, to)
      leo = to
      continue
    }
    const to = min(mine.endOffset, answer.endOffset, leo)
    steps.push(step(to, false, 'matched'))
    return { offset: to, steps }
  }
}

/** What Kafka's own cache would hold after appending these batches in order (LeaderEpochFileCache.assign). */
export function cacheFromBatches(
  batches: Iterable<{ partitionLeaderEpoch: number; baseOffset: bigint }>,
): EpochEntry[] {
  const out: EpochEntry[] = []
  for (const b of batches) {
    if (b.partitionLeaderEpoch < 0) continue
    const last = out[out.length - 1]
    if (last === undefined || b.partitionLeaderEpoch > last.epoch)
      out.push({ epoch: b.partitionLeaderEpoch, startOffset: b.baseOffset })
  }
  return out
}
