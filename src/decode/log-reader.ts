// One pass over a .log (or KRaft .checkpoint) file: frames → decoded v2 headers with CRC results and
// control-record meaning, legacy entries passed through, tails and framing damage as events.
// Record bodies are decoded only by callers that ask for them (deep iteration).
import type { SegmentSource } from '../io/segment-source.js'
import type { BatchHeader } from './batch-header.js'
import { computeBatchCrc, decodeBatchHeader } from './batch-header.js'
import { controlTypeName, decodeControlKey, decodeEndTxnMarker, decodeKraftControlValue } from './control-record.js'
import { DecodeError } from './errors.js'
import type { CorruptEvent, ScanOptions, TailEvent } from './frame-scanner.js'
import { scanFrames } from './frame-scanner.js'
import type { KafkaRecord, RecordLimits } from './records.js'
import { decodeRecords } from './records.js'

export interface ControlInfo {
  type: number
  /** ABORT, COMMIT, LEADER_CHANGE, ... or UNKNOWN(n) */
  typeName: string
  keyVersion: number
  /** ABORT/COMMIT only */
  coordinatorEpoch?: number
  /** KRaft control records: the value as Kafka's JSON converters print it */
  data?: Record<string, unknown>
}

export interface V2Batch {
  kind: 'batch'
  header: BatchHeader
  /** the whole entry when complete, else its first 61 bytes */
  bytes: Buffer
  complete: boolean
  /** null when not computed (header-only scans, --no-crc) */
  crcComputed: number | null
  crcValid: boolean | null
  /** set for control batches whose first record could be read */
  control: ControlInfo | null
  /** batch-level problems: CRC mismatch, unsupported codec, bad control record ... */
  problems: DecodeError[]
}

export interface LegacyFrame {
  kind: 'legacy'
  position: number
  magic: number
  sizeInBytes: number
  bytes: Buffer
}

export type LogEvent = V2Batch | LegacyFrame | TailEvent | CorruptEvent

export interface ReadOptions extends ScanOptions, RecordLimits {
  /** verify CRC-32C of every complete batch (default true) */
  verifyCrc?: boolean
}

/** Batches of a log file in order. Never throws for content problems. */
export function * readLog (source: SegmentSource, opts: ReadOptions = {}): Generator<LogEvent> {
  const verify = opts.verifyCrc !== false
  for (const ev of scanFrames(source, opts)) {
    if (ev.kind !== 'frame') { yield ev; continue }
    if (ev.magic < 2) {
      yield { kind: 'legacy', position: ev.position, magic: ev.magic, sizeInBytes: ev.sizeInBytes, bytes: ev.bytes }
      continue
    }
    const header = decodeBatchHeader(ev.bytes, ev.position)
    const problems: DecodeError[] = []
    let crcComputed: number | null = null
    if (verify && ev.complete) {
      crcComputed = computeBatchCrc(ev.bytes)
      if (crcComputed !== header.crc) {
        problems.push(new DecodeError('CRC_MISMATCH',
          `batch at position ${header.position} (baseOffset ${header.baseOffset}): crc stored ${header.crc} != computed ${crcComputed}`,
          header.position, { batchPosition: header.position, baseOffset: header.baseOffset, field: 'crc' }))
      }
    }
    let control: ControlInfo | null = null
    if (header.isControl && ev.complete) control = readControl(header, ev.bytes, problems, opts)
    yield { kind: 'batch', header, bytes: ev.bytes, complete: ev.complete, crcComputed, crcValid: crcComputed === null ? null : crcComputed === header.crc, control, problems }
  }
}

function readControl (header: BatchHeader, bytes: Buffer, problems: DecodeError[], limits: RecordLimits): ControlInfo | null {
  if (header.recordsCount === 0) return null // compaction can leave empty control batches (KAFKA-7467)
  try {
    const first = decodeRecords(header, bytes, limits).next()
    if (first.done === true) return null
    return decodeControlRecord(first.value, header)
  } catch (e) {
    if (e instanceof DecodeError) { problems.push(e); return null }
    throw e
  }
}

/** Meaning of one control record (DumpLogSegments prints the same for each). @throws DecodeError */
export function decodeControlRecord (rec: KafkaRecord, header: BatchHeader): ControlInfo {
  const at = rec.filePosition >= 0 ? rec.filePosition : header.position
  const key = decodeControlKey(rec.key, at)
  const info: ControlInfo = { type: key.type, typeName: controlTypeName(key.type), keyVersion: key.version }
  if (key.type === 0 || key.type === 1) {
    info.coordinatorEpoch = decodeEndTxnMarker(rec.value, at).coordinatorEpoch
  } else if (key.type >= 2 && key.type <= 6) {
    info.data = decodeKraftControlValue(key.type, rec.value, at)
  }
  return info
}
