// Which buckets of producer ids the join (join.ts, consistency.ts, open-runs.ts) would find nothing in, told from
// what is put in them, so that doctor, which prints findings and not transactions, joins only the others. A bucket
// is quiet when every run of it ended with a marker and has no damage, every coordinator episode of it ended
// (Complete*, with its Prepare*), listed partitions, and was not aborted by the coordinator's timeout
// (abortCause), and the markers match the listings one for one: the sum over the runs of a hash of (producer id,
// marker epoch, partition, marker type, k) equals the sum over the episodes' listed partitions of the same hash of
// (producer id, end epoch, partition, the outcome the coordinator wrote, k), where k counts the runs of that
// producer epoch in that partition before it in offset order, and the episodes of that producer epoch listing it
// before it in the order they began. That is how joinSharedEpoch pairs them (the k-th run of a partition with the
// k-th episode listing it), so each transaction then has one marker in each partition its coordinator listed, of
// the outcome it wrote, and no other: no TXN_* finding of consistency.ts, none of open-runs.ts, none of join.ts
// (a producer with a run or record of transaction version 2 and two episodes ending at one epoch is not quiet:
// join.ts takes the last of a version 2 group's episodes and says so). k is counted while a producer's epochs in a partition do not go back (a
// producer's runs come in offset order, its episodes in the order they began); where they do, or where more
// producer/partition pairs are met than MAX_PAIRS, the bucket (every bucket) is not quiet.
import { finish32 as fmix } from '../../bytes/ascii-intern.js'
import { inferTransactionVersion } from '../transactions.js'
import { abortCause } from './abort-cause.js'
import type { StreamedTransaction } from '../run-sink.js'
import type { Episode, PartitionRun } from './types.js'
import type { MarkerType } from '../partition-transaction.js'

/** producer/partition pairs counted at most (a few bytes each): past it no bucket is quiet */
export const MAX_PAIRS = 400_000
/** k's bound in its packing with the epoch (below 2^31 with any epoch: a small integer for V8, no heap number) */
const K_LIMIT = 2 ** 16
const TWO_53N = 2n ** 53n
const TWO_32 = 2 ** 32

interface ProducerSeen {
  bucket: number
  lastSeq: number
  lastEndEpoch: number
  repeats: boolean
  version2: boolean
}

export class QuietBuckets {
  private readonly lo: Int32Array
  private readonly hi: Int32Array
  private readonly loud: Uint8Array
  /** the episodes of each bucket that ended committed, aborted: a quiet bucket's transactions */
  readonly committed: Int32Array
  readonly aborted: Int32Array
  private readonly labelIds = new Map<string, number>()
  /** per partition label, per producer id: epoch * K_LIMIT + the count k of its next run, episode listing */
  private readonly runCounts: Array<Map<number, number>> = []
  private readonly episodeCounts: Array<Map<number, number>> = []
  private readonly producers = new Map<number, ProducerSeen>()
  /** the label asked last and its id: a partition's runs come one after another */
  private lastLabel = ''
  private lastLabelId = -1
  private pairs = 0
  private gaveUp = false

  constructor(readonly n: number) {
    this.lo = new Int32Array(n)
    this.hi = new Int32Array(n)
    this.loud = new Uint8Array(n)
    this.committed = new Int32Array(n)
    this.aborted = new Int32Array(n)
  }

  /** a bucket whose items another way must judge */
  notQuiet(bucket: number): void {
    this.loud[bucket] = 1
  }

  /**
   * a run of `label` put in `bucket` (a partition's runs in offset order): its producer id and epoch, its marker's
   * type and epoch (null: none), records, whether it began before the scanned offsets, whether damage marked it
   */
  run(
    bucket: number,
    label: string,
    producerId: number,
    producerEpoch: number,
    marker: { type: MarkerType } | null,
    markerEpoch: number | null,
    records: number,
    seeded: boolean,
    damaged: boolean,
  ): void {
    if (this.loud[bucket] === 1 || this.gaveUp) return
    if (marker === null || damaged || markerEpoch === null || !Number.isSafeInteger(producerId)) {
      this.loud[bucket] = 1
      return
    }
    const p = this.producer(bucket, producerId)
    if (!p.version2) {
      const v = inferTransactionVersion({ producerEpoch, markerEpoch, marker, empty: records === 0, seeded })
      if (v === '2' || v === '2 or timeout abort') p.version2 = true
    }
    const labelId = this.labelId(label)
    const k = this.next(this.runCounts, bucket, labelId, producerId, markerEpoch)
    if (k < 0) return
    this.add(bucket, producerId, markerEpoch, labelId, marker.type === 'COMMIT', k, 1)
  }

  /** run() of a run as the join reads it */
  partitionRun(bucket: number, label: string, r: PartitionRun): void {
    const m = r.marker
    this.run(
      bucket,
      label,
      Number(r.producerId),
      r.producerEpoch,
      m,
      m?.epoch ?? null,
      r.records,
      r.seeded,
      r.damage !== undefined,
    )
  }

  /** run() of the analyzer's transaction ended by its marker, written as the join will read it (scan/run-bytes.ts) */
  streamedRun(bucket: number, label: string, t: StreamedTransaction): void {
    const e = t.markerEpoch ?? t.producerEpoch
    this.run(
      bucket,
      label,
      Number(t.producerId),
      t.producerEpoch,
      t.marker,
      e,
      t.records,
      t.seeded,
      t.damage !== undefined,
    )
  }

  /** an episode of the coordinator put in `bucket`, numbered `seq` in the order episodes began */
  episode(bucket: number, e: Episode, seq: number): void {
    if (this.loud[bucket] === 1 || this.gaveUp) return
    const said = e.complete?.state
    if (
      e.prepare === null ||
      said === undefined ||
      !said.startsWith('Complete') ||
      e.partitions.size === 0 ||
      e.producerId >= TWO_53N ||
      e.producerId <= -TWO_53N ||
      abortCause(e)?.by === 'coordinator-timeout'
    ) {
      this.loud[bucket] = 1
      return
    }
    const pid = Number(e.producerId)
    const p = this.producer(bucket, pid)
    if (seq < p.lastSeq || e.endEpoch < p.lastEndEpoch) {
      this.loud[bucket] = 1
      return
    }
    if (p.lastSeq >= 0 && e.endEpoch === p.lastEndEpoch) p.repeats = true
    p.lastSeq = seq
    p.lastEndEpoch = e.endEpoch
    for (const s of e.states) if (s.clientTransactionVersion === 2) p.version2 = true
    const commit = said.endsWith('Commit')
    if (commit) this.committed[bucket]!++
    else this.aborted[bucket]!++
    for (const label of e.partitions) {
      const labelId = this.labelId(label)
      const k = this.next(this.episodeCounts, bucket, labelId, pid, e.endEpoch)
      if (k < 0) return
      this.add(bucket, pid, e.endEpoch, labelId, commit, k, -1)
    }
  }

  /** bucket b's runs and episodes, all put, have nothing the join would find */
  quiet(b: number): boolean {
    if (this.gaveUp || this.loud[b] === 1 || this.lo[b] !== 0 || this.hi[b] !== 0) return false
    for (const p of this.producers.values()) if (p.bucket === b && p.repeats && p.version2) return false
    return true
  }

  private producer(bucket: number, pid: number): ProducerSeen {
    let p = this.producers.get(pid)
    if (p === undefined) {
      p = { bucket, lastSeq: -1, lastEndEpoch: -1, repeats: false, version2: false }
      this.producers.set(pid, p)
      if (++this.pairs > MAX_PAIRS) this.giveUp()
    }
    return p
  }

  /** the number of a partition label */
  private labelId(label: string): number {
    if (label === this.lastLabel) return this.lastLabelId
    let id = this.labelIds.get(label)
    if (id === undefined) {
      id = this.labelIds.size
      this.labelIds.set(label, id)
    }
    this.lastLabel = label
    this.lastLabelId = id
    return id
  }

  /** k of the next item of (pid, epoch) in label `id`; -1 (the bucket not quiet) where the epochs go back */
  private next(counts: Array<Map<number, number>>, bucket: number, id: number, pid: number, epoch: number): number {
    if (!(epoch >= 0 && epoch < 2 ** 15)) {
      this.loud[bucket] = 1
      return -1
    }
    let m = counts[id]
    if (m === undefined) {
      m = new Map()
      counts[id] = m
    }
    const at = m.get(pid)
    let k = 0
    if (at === undefined) {
      if (++this.pairs > MAX_PAIRS) {
        this.giveUp()
        return -1
      }
    } else {
      const was = at >>> 16
      if (epoch < was || (epoch === was && (at & 0xffff) === K_LIMIT - 1)) {
        this.loud[bucket] = 1
        return -1
      }
      if (epoch === was) k = (at & 0xffff) + 1
    }
    m.set(pid, epoch * K_LIMIT + k)
    return k
  }

  private add(
    bucket: number,
    pid: number,
    epoch: number,
    labelId: number,
    commit: boolean,
    k: number,
    sign: 1 | -1,
  ): void {
    const pLo = (pid % TWO_32) | 0
    const pHi = Math.floor(pid / TWO_32) | 0
    // the epoch (below 2^15), the type and k (below K_LIMIT) in one word: two independent 32-bit hashes of four words
    const w = (((epoch << 1) | (commit ? 1 : 0)) * K_LIMIT + k) | 0
    const a = fmix(fmix(fmix(fmix(0x1b873593 ^ pLo) ^ pHi) ^ w) ^ labelId)
    const b = fmix(fmix(fmix(fmix(0x7f4a7c15 + pHi) + labelId) + w) + pLo)
    this.lo[bucket] = (this.lo[bucket]! + sign * a) | 0
    this.hi[bucket] = (this.hi[bucket]! + sign * b) | 0
  }

  private giveUp(): void {
    this.gaveUp = true
    this.runCounts.length = 0
    this.episodeCounts.length = 0
    this.producers.clear()
  }
}
