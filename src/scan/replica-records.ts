// A batch's records as `tsdump replicas` reads them, from the batch's bytes while its copy's walk holds them: the
// offsets and keys of the batches listed past a divergence point, and digests (SHA-256 of key and value) of a
// compacted partition's records below its cleaned point. And the one read of a copy again: what it holds past a
// divergence point that the walk did not foresee (readPastAgain).
import { createHash } from 'node:crypto'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import type { ListedRecords, PastPoint } from '../analysis/replicas/past-point.js'
import { PastPointTally } from '../analysis/replicas/past-point.js'
import type { RecordDigest } from '../analysis/replicas/record-merge.js'
import type { ReplicaBatch } from '../analysis/replicas/replica-input.js'
import { decodeBatchHeader } from '../decode/batch-header.js'
import { DecodeError } from '../decode/errors.js'
import { readLog } from '../decode/log-reader.js'
import { decodeRecords } from '../decode/records.js'
import type { PartitionDir } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'
import { MAX_LISTED_BATCH_BYTES } from '../analysis/replicas/past-point.js'

const digest = (b: Buffer | null): string => (b === null ? 'null' : createHash('sha256').update(b).digest('base64'))
const keyText = (b: Buffer | null): string | null => (b === null ? null : b.toString('utf8'))

/** what reading a batch's records failed on, at its position */
function problemOf(e: unknown, file: string): Finding {
  if (e instanceof DecodeError || e instanceof InputError)
    return finding(e.code, e.message, { file, position: e.position })
  throw e
}

/** the first `n + 1` records' offsets and keys of the batch `bytes` (at `position` in `file`): see ListedRecords */
export function batchKeys(bytes: Buffer, position: number, file: string, n: number): ListedRecords {
  const records: ListedRecords['records'] = []
  try {
    for (const r of decodeRecords(decodeBatchHeader(bytes, position), bytes)) {
      records.push({ offset: r.offset, key: keyText(r.key) })
      if (records.length > n) break
    }
    return { records, problem: null }
  } catch (e) {
    return { records, problem: problemOf(e, file) }
  }
}

/**
 * Digests of the records below `below` of the batch `bytes` and, read on the way, the first `n + 1` records' offsets
 * and keys. `unread`: the batch could not be read for its digests (damaged: those read before the damage stay).
 */
export function batchDigests(
  bytes: Buffer,
  position: number,
  file: string,
  below: bigint,
  n: number,
): { records: RecordDigest[]; keys: ListedRecords; unread: boolean } {
  const records: RecordDigest[] = []
  const keys: ListedRecords = { records: [], problem: null }
  let digesting = true
  try {
    for (const r of decodeRecords(decodeBatchHeader(bytes, position), bytes)) {
      if (r.offset >= below) digesting = false
      if (digesting) records.push({ offset: r.offset, key: digest(r.key), value: digest(r.value) })
      if (keys.records.length <= n) keys.records.push({ offset: r.offset, key: keyText(r.key) })
      if (!digesting && keys.records.length > n) break
    }
  } catch (e) {
    keys.problem = problemOf(e, file)
    return { records, keys, unread: digesting }
  }
  return { records, keys, unread: false }
}

/**
 * A copy's batches in log order, read from its files again: framed as the partition scan frames them (resync
 * after damage), each CRC checked.
 */
function* copyBatches(dir: PartitionDir): Generator<ReplicaBatch> {
  for (const f of dir.files) {
    if (f.kind !== 'log') continue
    let src: FileSource
    try {
      src = new FileSource(f.path)
    } catch {
      continue
    } // the walk said so
    try {
      for (const ev of readLog(src, { streamLarge: 'crc', resync: true })) {
        if (ev.kind !== 'batch') continue
        const h = ev.header
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
    } finally {
      src.close()
    }
  }
}

/** Offsets and keys of the records of these batches, read again from their files (readRecordsOf's budget: `limit` in all). */
function readRecordsOf(batches: readonly ReplicaBatch[], limit: number): Finding[] {
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
      const recs: Array<{ offset: bigint; key: string | null }> = []
      for (const rec of decodeRecords(decodeBatchHeader(bytes, b.position), bytes)) {
        if (left-- <= 0) break
        recs.push({ offset: rec.offset, key: keyText(rec.key) })
      }
      b.records = recs
    } catch (e) {
      problems.push(problemOf(e, b.file))
    } finally {
      src?.close()
    }
  }
  return problems
}

/**
 * What a copy holds from `point` on, read again from its files: for a divergence point the walk did not tally
 * (no rule before the walk gave it, lockstep.ts predictedPoints). The only second read of a copy.
 */
export function readPastAgain(
  dir: PartitionDir,
  point: bigint,
  highWatermark: bigint | null,
  listRecords: number,
): PastPoint {
  const t = new PastPointTally(point, highWatermark, listRecords)
  for (const b of copyBatches(dir)) if (b.lastOffset >= point) t.add(b, undefined)
  const past = t.result()
  return { ...past, problems: readRecordsOf(past.listed, listRecords) }
}
