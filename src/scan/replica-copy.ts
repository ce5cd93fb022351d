// One copy of a partition as `tsdump replicas` compares it: the partition scan's report (log start and end,
// high watermark, LSO, open transactions), every batch's header and CRC, the epoch cache
// (leader-epoch-checkpoint), the topic id (partition.metadata) and the cleaner's point; then, for the batches
// past a divergence point only, their records' offsets and keys.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import type { EpochEntry } from '../analysis/replicas/epoch-rule.js'
import { assignEpoch, cacheFromBatches, PackedEpochs } from '../analysis/replicas/epoch-rule.js'
import type { ReplicaBatch, ReplicaInput } from '../analysis/replicas/replica-input.js'
import { decodeBatchHeader } from '../decode/batch-header.js'
import { DecodeError } from '../decode/errors.js'
import { readLog } from '../decode/log-reader.js'
import { decodeFinding } from '../analysis/log-findings.js'
import { decodeRecords } from '../decode/records.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { readOffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'
import { leaderEpochEntries, parsePartitionMetadata, readOptionalFile } from '../io/partition-files.js'
import type { ScannedPartition } from './partition-scan.js'
import { scanPartition } from './partition-scan.js'

/** batches read whole for their keys at most this large */
const MAX_LISTED_BATCH_BYTES = 16 * 1024 * 1024
/**
 * Read windows for the batch walks (one file at a time per walk; two walks run together when copies are
 * compared in lockstep): kept and reused, not one per file (the framer's 8 MiB default per file left RSS to
 * the GC: 3 brokers x 4 partitions of 64 MiB peaked at 131-143 MiB with a heap under 50 MB,
 * bench/RESULTS-commands.md). Larger batches are streamed, their CRC window by window.
 */
const WINDOW_BYTES = 1024 * 1024
const freeWindows: Buffer[] = []

export interface ScannedCopy {
  input: ReplicaInput
  scanned: ScannedPartition
  findings: Finding[]
}

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

/**
 * A copy's batches in log order, read again on each walk; `findings` (when given) gets what makes a segment
 * unreadable. `crc` false: the CRC is not checked (crcValid null).
 */
function* copyBatches(dir: PartitionDir, crc: boolean, findings: Finding[] | null): Generator<ReplicaBatch> {
  const window = freeWindows.pop() ?? Buffer.allocUnsafeSlow(WINDOW_BYTES)
  try {
    for (const f of dir.files) {
      if (f.kind !== 'log') continue
      let src: FileSource
      try {
        src = new FileSource(f.path)
      } catch (e) {
        findings?.push(
          finding(e instanceof InputError ? e.code : 'UNREADABLE', describeFsError(e), { file: f.path, position: 0 }),
        )
        continue
      }
      try {
        // large data batches are streamed (their CRC computed window by window): memory stays one window
        for (const ev of readLog(src, {
          streamLarge: 'crc',
          window: WINDOW_BYTES,
          windowBuffer: window,
          verifyCrc: crc,
        })) {
          if (ev.kind !== 'batch') continue
          const h = ev.header
          // a data batch's CRC, on the walk that reports (the partition scan checks only control batches': it reports theirs)
          if (findings !== null && !h.isControl)
            for (const p of ev.problems) if (p.code === 'CRC_MISMATCH') findings.push(decodeFinding(p, f.path))
          yield {
            baseOffset: h.baseOffset,
            lastOffset: h.lastOffset,
            count: h.recordsCount,
            partitionLeaderEpoch: h.partitionLeaderEpoch,
            crc: h.crc,
            crcValid: ev.crcValid,
            producerId: h.producerId,
            producerEpoch: h.producerEpoch,
            baseSequence: h.baseSequence,
            isTransactional: h.isTransactional,
            isControl: h.isControl,
            marker: ev.control?.typeName ?? null,
            file: f.path,
            position: h.position,
            size: h.sizeInBytes,
          }
        }
      } catch (e) {
        if (!(e instanceof InputError)) throw e
        findings?.push(finding(e.code, e.message, { file: f.path, position: e.position }))
      } finally {
        src.close()
      }
    }
  } finally {
    freeWindows.push(window)
  }
}

/** damaged batches kept per copy for the findings (the rest are counted) */
const MAX_DAMAGED_KEPT = 10

function* tapDamaged(batches: Iterable<ReplicaBatch>, onDamaged: (b: ReplicaBatch) => void): Generator<ReplicaBatch> {
  for (const b of batches) {
    if (b.crcValid === false) onDamaged(b)
    yield b
  }
}

/** Read one copy: `broker` names it in the output. */
export function scanCopy(broker: string, logDir: string, dir: PartitionDir, cps: LogDirCheckpoints): ScannedCopy {
  const findings: Finding[] = []
  const scanned = scanPartition(dir, cps.replication, { analyzer: () => ({ markerEpochs: false }) })
  const label = `${dir.topic}-${dir.partition}`
  // one walk for the segments' damage and the epochs the batches carry; later walks read the batches again
  const damaged: ReplicaBatch[] = []
  let damagedCount = 0
  const batchEpochs = cacheFromBatches(
    tapDamaged(copyBatches(dir, true, findings), (b) => {
      if (damagedCount++ < MAX_DAMAGED_KEPT) damaged.push(b)
    }),
  )
  const batches = (crc: boolean): Iterable<ReplicaBatch> => copyBatches(dir, crc, null)
  let epochCheckpoint: PackedEpochs | null = null
  let epochCheckpointDamage: Finding | null = null
  // the cache as the broker loads it (LeaderEpochFileCache's constructor assigns each entry in turn)
  const lec = readOptionalFile(dir.path, 'leader-epoch-checkpoint', (src, file) => {
    const cache = new PackedEpochs()
    let refused = null as EpochEntry | null
    const end = leaderEpochEntries(file, src, (e) => {
      if (!assignEpoch(cache, e.epoch, e.startOffset)) refused ??= e
    })
    return { cache, end, refused }
  })
  if (lec.problem !== null) {
    epochCheckpointDamage = finding(
      'EPOCH_CHECKPOINT_DAMAGED',
      `${lec.problem.message}: the batches' own leader epochs are used instead`,
      { file: lec.file, position: 0 },
    )
  } else if (lec.value !== null) {
    const p = lec.value.end.problem
    const r = lec.value.refused
    if (p !== null)
      epochCheckpointDamage = finding(
        'EPOCH_CHECKPOINT_DAMAGED',
        `${p.message}: the batches' own leader epochs are used instead`,
        { file: p.file, position: p.position },
      )
    else if (r !== null)
      epochCheckpointDamage = finding(
        'EPOCH_CHECKPOINT_DAMAGED',
        `entry ${r.epoch} ${r.startOffset} is negative, which Kafka refuses: the batches' own leader epochs are used instead`,
        { file: lec.file, position: 0 },
      )
    else {
      epochCheckpoint = lec.value.cache
      const o = lec.value.end.order
      if (o !== null)
        findings.push(
          finding('EPOCH_CHECKPOINT_DAMAGED', `${o.message}: ${o.kafkaLoads}`, { file: o.file, position: o.position }),
        )
    }
  }
  let topicId: string | null = null
  const pm = readOptionalFile(dir.path, 'partition.metadata', (src, file) => parsePartitionMetadata(file, src))
  if (pm.value !== null) {
    const p = pm.value
    if (p.problem !== null)
      findings.push(
        finding('PARTITION_METADATA_DAMAGED', `${p.problem.message}: the topic id is not known for this copy`, {
          file: p.problem.file,
          position: p.problem.position,
        }),
      )
    else topicId = p.value.topicId
  } else if (pm.problem !== null)
    findings.push(finding('PARTITION_METADATA_DAMAGED', pm.problem.message, { file: pm.file, position: 0 }))
  const r = scanned.report
  const hw = r.highWatermarkSource === 'checkpoint' ? r.highWatermark : null
  const input: ReplicaInput = {
    broker,
    logDir,
    topicId,
    epochCheckpoint,
    epochCheckpointDamage,
    batches,
    batchEpochs,
    damaged,
    damagedCount,
    logStartOffset: r.logStartOffset,
    logEndOffset: r.logEndOffset,
    highWatermark: hw,
    lastStableOffset: r.lastStableOffset,
    openTransactions: r.openTransactions,
    cleanedTo: cps.cleanerOf(path.resolve(logDir))?.get(label) ?? null,
  }
  return { input, scanned, findings }
}

/** Offsets and keys of the records of these batches (the ones past a divergence point), read again from their files. */
export function readRecordsOf(batches: readonly ReplicaBatch[], limit: number): Finding[] {
  const problems: Finding[] = []
  let left = limit
  for (const b of batches) {
    if (left <= 0) break
    if (b.isControl) {
      b.records = []
      continue
    }
    // a batch is read whole to list its keys: one larger than this is listed by its offsets only
    if (b.size > MAX_LISTED_BATCH_BYTES) continue
    let src: FileSource | null = null
    try {
      src = new FileSource(b.file)
      const bytes = src.readAt(b.position, b.size)
      const h = decodeBatchHeader(bytes, b.position)
      const recs: Array<{ offset: bigint; key: string | null }> = []
      for (const rec of decodeRecords(h, bytes)) {
        if (left-- <= 0) break
        recs.push({ offset: rec.offset, key: rec.key === null ? null : rec.key.toString('utf8') })
      }
      b.records = recs
    } catch (e) {
      if (e instanceof DecodeError) problems.push(finding(e.code, e.message, { file: b.file, position: e.position }))
      else if (e instanceof InputError)
        problems.push(finding(e.code, e.message, { file: b.file, position: e.position }))
      else throw e
    } finally {
      src?.close()
    }
  }
  return problems
}
