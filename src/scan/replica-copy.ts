// One copy of a partition as `tsdump replicas` compares it, read once: the partition scan run a frame at a time
// (partitionScanSteps), so that the copies of a partition are walked side by side (replica-lockstep.ts). The scan
// gives the report (log start and end, high watermark, LSO, open transactions); each v2 batch is handed to the
// comparison as it passes, its header and its CRC-32C checked, and its records read from the same bytes when the
// comparison asks (keys for the batches past a divergence point, digests below a compacted partition's cleaned
// point). Beside it: the epoch cache (leader-epoch-checkpoint), the topic id (partition.metadata) and the
// cleaner's point (the log dir's cleaner-offset-checkpoint).
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { logStartOffset } from '../analysis/log-start.js'
import type { EpochEntry } from '../analysis/replicas/epoch-rule.js'
import { assignEpoch, PackedEpochs } from '../analysis/replicas/epoch-rule.js'
import type { CopyCursor } from '../analysis/replicas/lockstep.js'
import type { ListedRecords } from '../analysis/replicas/past-point.js'
import { MAX_LISTED_BATCH_BYTES } from '../analysis/replicas/past-point.js'
import type { RecordDigest } from '../analysis/replicas/record-merge.js'
import type { ReplicaBatch, ReplicaInput } from '../analysis/replicas/replica-input.js'
import { toBigInt } from '../bytes/int64.js'
import { crc32c, crc32cUpdate } from '../bytes/crc32c.js'
import { readEndTxnMarkerFast } from '../decode/control-fast.js'
import type { EndTxnMarkerFacts } from '../decode/control-fast.js'
import type { Frame, ScannedEvent } from '../decode/frame.js'
import * as L from '../decode/layout.js'
import { controlTypeName } from '../decode/control-record.js'
import { readFrame } from '../decode/log-reader.js'
import type { SegmentSource } from '../decode/segment-source.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { leaderEpochEntries, parsePartitionMetadata, readOptionalFile } from '../io/partition-files.js'
import type { ScannedPartition } from './partition-scan.js'
import { partitionScanSteps } from './partition-scan.js'
import { logStartCheckpoint } from './partition-side-files.js'
import { batchDigests, batchKeys } from './replica-records.js'

/** the checkpoints of each log directory, read once */
export class LogDirCheckpoints {
  readonly replication = new Map<string, OffsetCheckpoint | null>()
  private readonly cleaner = new Map<string, OffsetCheckpoint | null>()
  cleanerOf(logDir: string): OffsetCheckpoint | null {
    let c = this.cleaner.get(logDir)
    if (c === undefined) {
      c = readOffsetCheckpoint(logDir, 'cleaner-offset-checkpoint')
      this.cleaner.set(logDir, c)
    }
    return c
  }
}

/** the bytes of a batch larger than the window, past what the window holds, read this much at a time for its CRC */
const CHUNK_BYTES = 1024 * 1024
let chunk: Buffer | undefined
const marker: EndTxnMarkerFacts = { type: 0, keyVersion: 0, coordinatorEpoch: 0 }

/** A copy's batches, one at a time (`next`), each read once; the scan's report at the end (`finish`). */
export class CopyWalk implements CopyCursor {
  /** the batch at hand (valid after next() returned true) */
  batch!: ReplicaBatch
  done = false
  /** data batches whose CRC fails (the partition scan checks only control batches': it reports theirs) */
  readonly findings: Finding[] = []
  /** leader-epoch-checkpoint out of order, partition.metadata: said after the batches' findings */
  private readonly fileFindings: Finding[] = []
  readonly topicId: string | null = null
  /** leader-epoch-checkpoint's cache as the broker loads it; null when absent or damaged */
  readonly epochCheckpoint: PackedEpochs | null = null
  readonly epochCheckpointDamage: Finding | null = null
  /** where the log starts, as the partition scan will say (LogLoader's rule); null: at its first batch */
  readonly logStart: bigint | null
  /** replication-offset-checkpoint's entry (the scan reads the same cached file) */
  readonly checkpointHighWatermark: bigint | null
  readonly cleanedTo: bigint | null
  private readonly steps: Generator<void, ScannedPartition>
  private scanned: ScannedPartition | null = null
  private ev: ScannedEvent | undefined
  private src: SegmentSource | undefined
  private file = ''
  /** the batch at hand read whole beside the window (it did not fit it); null when it is in the window, or too large */
  private whole: Buffer | null = null

  constructor(
    readonly broker: string,
    readonly logDir: string,
    readonly dir: PartitionDir,
    cps: LogDirCheckpoints,
  ) {
    const label = `${dir.topic}-${dir.partition}`
    const e = epochCacheOf(dir)
    this.epochCheckpoint = e.cache
    this.epochCheckpointDamage = e.damage
    if (e.order !== null) this.fileFindings.push(e.order)
    const pm = readOptionalFile(dir.path, 'partition.metadata', (src, file) => parsePartitionMetadata(file, src))
    if (pm.value !== null) {
      const p = pm.value
      if (p.problem !== null)
        this.fileFindings.push(
          finding('PARTITION_METADATA_DAMAGED', `${p.problem.message}: the topic id is not known for this copy`, {
            file: p.problem.file,
            position: p.problem.position,
          }),
        )
      else this.topicId = p.value.topicId
    } else if (pm.problem !== null)
      this.fileFindings.push(finding('PARTITION_METADATA_DAMAGED', pm.problem.message, { file: pm.file, position: 0 }))
    this.cleanedTo = cps.cleanerOf(path.resolve(logDir))?.get(label) ?? null
    // the files the partition scan reads first, read here into its caches: once for both
    let hw = cps.replication.get(dir.logDir)
    if (hw === undefined) {
      hw = readOffsetCheckpoint(dir.logDir, 'replication-offset-checkpoint')
      cps.replication.set(dir.logDir, hw)
    }
    this.checkpointHighWatermark = hw?.get(label) ?? null
    const first = dir.files.find((f) => f.kind === 'log')?.baseOffset ?? null
    this.logStart =
      logStartOffset(first, logStartCheckpoint(dir.logDir, cps.replication)?.get(label) ?? null)?.offset ?? null
    this.steps = partitionScanSteps(dir, cps.replication, {
      analyzer: () => ({ markerEpochs: false }),
      frames: () => (frames, src, file) => this.tap(frames, src, file),
    })
  }

  private tap(
    frames: { next: () => ScannedEvent | undefined },
    src: SegmentSource,
    file: KafkaFile,
  ): { next: () => ScannedEvent | undefined } {
    return {
      next: () => {
        const ev = frames.next()
        this.ev = ev
        this.src = src
        this.file = file.path
        return ev
      },
    }
  }

  /** the next v2 batch (false at the end); the previous batch's bytes are no longer at hand */
  next(): boolean {
    for (;;) {
      this.whole = null
      this.ev = undefined
      const r = this.steps.next()
      if (r.done === true) {
        this.scanned = r.value
        this.done = true
        return false
      }
      const ev = this.ev as ScannedEvent | undefined
      if (ev?.kind === 'frame' && ev.magic >= 2) {
        this.batch = this.batchOf(ev)
        return true
      }
    }
  }

  /** done with the walk: a scan paused midway closes its segment (the generator's finally); a finished one is kept */
  close(): void {
    if (!this.done) this.steps.return(undefined as unknown as ScannedPartition)
  }

  /** the partition scan's result, the copy read to its end */
  finish(): ScannedPartition {
    while (!this.done) this.next()
    return this.scanned!
  }

  private batchOf(f: Frame): ReplicaBatch {
    const size = f.sizeInBytes
    const baseOffset = toBigInt(f.int64(L.OFFSET_OFFSET))
    const computed = f.complete
      ? crc32c(f.window.subarray(f.offset + L.ATTRIBUTES_OFFSET, f.offset + size))
      : this.crcBeyondWindow(f)
    const isControl = f.isControl
    const crc = f.storedCrc
    if (!isControl && computed !== null && computed !== crc) {
      this.findings.push(
        finding(
          'CRC_MISMATCH',
          `batch at position ${f.position} (baseOffset ${baseOffset}): crc stored ${crc} != computed ${computed}`,
          { file: this.file, position: f.position },
        ),
      )
    }
    return {
      baseOffset,
      lastOffset: baseOffset + BigInt(f.lastOffsetDelta),
      count: f.recordsCount,
      partitionLeaderEpoch: f.partitionLeaderEpoch,
      crc,
      crcValid: computed === null ? null : computed === crc,
      producerId: toBigInt(f.int64(L.PRODUCER_ID_OFFSET)),
      producerEpoch: f.producerEpoch,
      baseSequence: f.baseSequence,
      isTransactional: f.isTransactional,
      isControl,
      marker: isControl ? markerOf(f) : null,
      file: this.file,
      position: f.position,
      size,
    }
  }

  /**
   * The CRC of a batch the scan framed without its body (larger than what was left of the window): the part in the
   * window, then the rest read from the file, once. One that can be listed is read whole (its records may be asked
   * for); a larger one a chunk at a time. Null when the file ends first.
   */
  private crcBeyondWindow(f: Frame): number | null {
    const size = f.sizeInBytes
    const inWindow = Math.min(size, f.window.length - f.offset)
    const src = this.src!
    if (size <= MAX_LISTED_BATCH_BYTES) {
      // copy: the batch whole, beside the window, for its CRC and its records
      const whole = Buffer.allocUnsafe(size)
      f.window.copy(whole, 0, f.offset, f.offset + inWindow)
      if (src.readInto(whole.subarray(inWindow), f.position + inWindow, size - inWindow) < size - inWindow) return null
      this.whole = whole
      return crc32c(whole.subarray(L.ATTRIBUTES_OFFSET))
    }
    let crc = crc32cUpdate(0, f.window.subarray(f.offset + L.ATTRIBUTES_OFFSET, f.offset + inWindow))
    chunk ??= Buffer.allocUnsafeSlow(CHUNK_BYTES)
    for (let p = f.position + inWindow, end = f.position + size; p < end; ) {
      const n = src.readInto(chunk, p, Math.min(CHUNK_BYTES, end - p))
      if (n <= 0) return null
      crc = crc32cUpdate(crc, chunk.subarray(0, n))
      p += n
    }
    return crc
  }

  /** the batch at hand's bytes, whole; null when it was too large to hold */
  private bytes(): Buffer | null {
    const f = this.ev as Frame
    return f.complete ? f.bytes : this.whole
  }

  keys(n: number): ListedRecords {
    const bytes = this.bytes()
    if (bytes === null)
      return {
        records: [],
        problem: finding('UNREADABLE', `batch at position ${this.batch.position} could not be read whole`, {
          file: this.file,
          position: this.batch.position,
        }),
      }
    return batchKeys(bytes, this.batch.position, this.file, n)
  }

  digests(below: bigint, n: number): { records: RecordDigest[]; keys: ListedRecords | null; unread: boolean } {
    const bytes = this.bytes()
    if (bytes === null || this.batch.size > MAX_LISTED_BATCH_BYTES) return { records: [], keys: null, unread: true }
    return batchDigests(bytes, this.batch.position, this.file, below, n)
  }

  /** the copy's facts for the comparison, once the walk is done (`batchEpochs`: the epochs its batches carried) */
  input(batchEpochs: EpochEntry[]): { input: ReplicaInput; scanned: ScannedPartition; findings: Finding[] } {
    const scanned = this.finish()
    const r = scanned.report
    const input: ReplicaInput = {
      broker: this.broker,
      logDir: this.logDir,
      topicId: this.topicId,
      epochCheckpoint: this.epochCheckpoint,
      epochCheckpointDamage: this.epochCheckpointDamage,
      batchEpochs,
      logStartOffset: r.logStartOffset,
      logEndOffset: r.logEndOffset,
      highWatermark: r.highWatermarkSource === 'checkpoint' ? r.highWatermark : null,
      lastStableOffset: r.lastStableOffset,
      openTransactions: r.openTransactions,
      cleanedTo: this.cleanedTo,
    }
    return { input, scanned, findings: [...this.findings, ...this.fileFindings] }
  }
}

/** a control batch's type (COMMIT, ABORT, ...) as readLog names it */
function markerOf(f: Frame): string | null {
  if (readEndTxnMarkerFast(f.window, f.offset, f.offset + f.sizeInBytes, marker)) return controlTypeName(marker.type)
  const b = readFrame(f, { verifyCrc: false })
  return b.kind === 'batch' ? (b.control?.typeName ?? null) : null
}

/**
 * The epoch cache as the broker loads it (LeaderEpochFileCache's constructor assigns each entry in turn); damage
 * makes it unusable (the batches' own epochs are used instead); entries out of order are said, and loaded.
 */
function epochCacheOf(dir: PartitionDir): {
  cache: PackedEpochs | null
  damage: Finding | null
  order: Finding | null
} {
  const lec = readOptionalFile(dir.path, 'leader-epoch-checkpoint', (src, file) => {
    const cache = new PackedEpochs()
    let refused = null as EpochEntry | null
    const end = leaderEpochEntries(file, src, (e) => {
      if (!assignEpoch(cache, e.epoch, e.startOffset)) refused ??= e
    })
    return { cache, end, refused }
  })
  if (lec.problem !== null)
    return {
      cache: null,
      damage: finding(
        'EPOCH_CHECKPOINT_DAMAGED',
        `${lec.problem.message}: the batches' own leader epochs are used instead`,
        { file: lec.file, position: 0 },
      ),
      order: null,
    }
  if (lec.value === null) return { cache: null, damage: null, order: null }
  const p = lec.value.end.problem
  const r = lec.value.refused
  if (p !== null)
    return {
      cache: null,
      damage: finding('EPOCH_CHECKPOINT_DAMAGED', `${p.message}: the batches' own leader epochs are used instead`, {
        file: p.file,
        position: p.position,
      }),
      order: null,
    }
  if (r !== null)
    return {
      cache: null,
      damage: finding(
        'EPOCH_CHECKPOINT_DAMAGED',
        `entry ${r.epoch} ${r.startOffset} is negative, which Kafka refuses: the batches' own leader epochs are used instead`,
        { file: lec.file, position: 0 },
      ),
      order: null,
    }
  const o = lec.value.end.order
  return {
    cache: lec.value.cache,
    damage: null,
    order:
      o === null
        ? null
        : finding('EPOCH_CHECKPOINT_DAMAGED', `${o.message}: ${o.kafkaLoads}`, { file: o.file, position: o.position }),
  }
}
