// One pass over a .log (or KRaft .checkpoint) file: frames → decoded v2 headers with CRC results and
// control-record meaning, legacy entries passed through, tails and framing damage as events.
// Record bodies are decoded only by callers that ask for them (deep iteration).
import type { SegmentSource } from './segment-source.js'
import type { BatchHeader } from './batch-header.js'
import { computeBatchCrc, decodeBatchHeader } from './batch-header.js'
import { LAST_OFFSET_DELTA_OFFSET, RECORD_BATCH_OVERHEAD, RECORDS_COUNT_OFFSET } from './layout.js'
import { controlTypeName, decodeControlKey, decodeEndTxnMarker, decodeKraftControlValue } from './control-record.js'
import type { ZstdWindowRefusal } from './codecs/zstd-frames.js'
import { windowKafkaRefuses, KAFKA_MAX_WINDOW } from './codecs/zstd-frames.js'
import { DecodeError } from './errors.js'
import { readEndTxnMarkerFast } from './control-fast.js'
import type { EndTxnMarkerFacts } from './control-fast.js'
import type { CorruptEvent, Frame, TailEvent } from './frame.js'
import type { FrameOptions } from './frame-scanner.js'
import { FrameScanner } from './frame-scanner.js'
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
  /** absolute file position of the batch */
  position: number
  /** decoded on first access */
  readonly header: BatchHeader
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

export interface ReadOptions extends FrameOptions, RecordLimits {
  /** verify CRC-32C of every complete batch (default true) */
  verifyCrc?: boolean
}

const NO_PROBLEMS: DecodeError[] = []

/**
 * A v2 batch as the scanner found it. The header is decoded on first use: the shallow text dump formats
 * straight from the bytes and never needs the BigInt fields.
 */
class ScannedBatch implements V2Batch {
  readonly kind = 'batch'
  private decoded: BatchHeader | undefined
  control: ControlInfo | null = null
  problems: DecodeError[] = NO_PROBLEMS

  constructor(
    readonly bytes: Buffer,
    readonly position: number,
    readonly complete: boolean,
    readonly crcComputed: number | null,
    readonly crcValid: boolean | null,
  ) {}

  get header(): BatchHeader {
    this.decoded ??= decodeBatchHeader(this.bytes, this.position)
    return this.decoded
  }

  addProblem(e: DecodeError): void {
    if (this.problems === NO_PROBLEMS) this.problems = []
    this.problems.push(e)
  }
}

/**
 * A copy of an event that stays valid after the iteration moves on (tests, small inputs). readLog's own
 * events are views into a reused window: use them before asking for the next one.
 */
export function detachEvent(ev: LogEvent): LogEvent {
  if (ev.kind === 'batch') {
    // copy: the window buffer behind ev.bytes is reused by the next read
    const bytes = Buffer.from(ev.bytes)
    const header = ev.header
    return {
      kind: 'batch',
      position: ev.position,
      header,
      bytes,
      complete: ev.complete,
      crcComputed: ev.crcComputed,
      crcValid: ev.crcValid,
      control: ev.control,
      problems: ev.problems,
    }
  }
  if (ev.kind === 'legacy') return { ...ev, bytes: Buffer.from(ev.bytes) } // copy: see above
  return ev
}

/**
 * Batches of a log file in order. Never throws for content problems. Each event (its bytes and its
 * lazily decoded header) is valid until the next one is requested; see detachEvent.
 */
export function* readLog(source: SegmentSource, opts: ReadOptions = {}): Generator<LogEvent> {
  const frames = new FrameScanner(source, opts) // not scanFrames: one generator per batch, not two
  for (let ev = frames.next(); ev !== undefined; ev = frames.next())
    yield ev.kind === 'frame' ? readFrame(ev, opts) : ev
}

/**
 * One framed entry as readLog yields it: a legacy frame, or a v2 batch with its CRC result, header
 * problems and control meaning. For callers that run scanFrames themselves (the partition scan feeds
 * most frames from a BatchView and hands the others here).
 */
export function readFrame(ev: Frame, opts: ReadOptions = {}): V2Batch | LegacyFrame {
  if (ev.magic < 2)
    return { kind: 'legacy', position: ev.position, magic: ev.magic, sizeInBytes: ev.sizeInBytes, bytes: ev.bytes }
  const bytes = ev.bytes
  let crcComputed: number | null = null
  if (opts.verifyCrc !== false) crcComputed = ev.complete ? computeBatchCrc(bytes) : (ev.crc ?? null)
  const b = new ScannedBatch(
    bytes,
    ev.position,
    ev.complete,
    crcComputed,
    crcComputed === null ? null : crcComputed === ev.storedCrc,
  )
  if (b.crcValid === false) {
    const h = b.header
    b.addProblem(
      new DecodeError(
        'CRC_MISMATCH',
        `batch at position ${h.position} (baseOffset ${h.baseOffset}): crc stored ${h.crc} != computed ${crcComputed}`,
        h.position,
        { batchPosition: h.position, baseOffset: h.baseOffset, field: 'crc' },
      ),
    )
  }
  checkHeader(b, ev)
  if (ev.compression === ZSTD)
    zstdWindowProblem(b, ev.complete ? windowKafkaRefuses(bytes.subarray(RECORD_BATCH_OVERHEAD)) : ev.zstdRefused)
  if (ev.isControl && ev.complete) b.control = readControl(b, opts)
  return b
}

const ZSTD = 4

/** a zstd frame that tsdump decodes but Kafka's consumers refuse (zstd-frames.ts KAFKA_MAX_WINDOW): said, and still shown */
function zstdWindowProblem(b: ScannedBatch, refused: ZstdWindowRefusal | undefined): void {
  if (refused === undefined) return
  const h = b.header
  b.addProblem(
    new DecodeError(
      'ZSTD_WINDOW_TOO_LARGE',
      `batch at position ${h.position} (baseOffset ${h.baseOffset}): its zstd frame at payload byte ${refused.frameAt} declares a window of ${refused.windowSize} bytes; ` +
        `Kafka's consumers (zstd-jni, windows up to ${KAFKA_MAX_WINDOW} bytes) fail on this batch, tsdump still shows it`,
      h.position,
      { batchPosition: h.position, baseOffset: h.baseOffset, field: 'compression' },
    ),
  )
}

// Cheap plausibility checks that need no record decoding, so shallow dumps catch impossible headers too.
// The condition is BatchView.headerPlausible (the fast paths use it too); here the problems get their words.
function checkHeader(b: ScannedBatch, v: Frame): void {
  if (v.headerPlausible()) return
  const count = v.recordsCount
  const delta = v.lastOffsetDelta
  const size = v.sizeInBytes
  const uncompressed = v.compression === 0
  const h = b.header
  const ctx = { batchPosition: h.position, baseOffset: h.baseOffset }
  if (count < 0) {
    b.addProblem(
      new DecodeError('RECORD_COUNT_MISMATCH', `recordsCount ${count} is negative`, h.position + RECORDS_COUNT_OFFSET, {
        ...ctx,
        field: 'recordsCount',
      }),
    )
  } else if (uncompressed && count > (size - RECORD_BATCH_OVERHEAD) / 7) {
    b.addProblem(
      new DecodeError(
        'RECORD_COUNT_MISMATCH',
        `recordsCount ${count} cannot fit in ${size - RECORD_BATCH_OVERHEAD} bytes of uncompressed records`,
        h.position + RECORDS_COUNT_OFFSET,
        { ...ctx, field: 'recordsCount' },
      ),
    )
  }
  if (delta < 0) {
    b.addProblem(
      new DecodeError('BAD_RECORD', `lastOffsetDelta ${delta} is negative`, h.position + LAST_OFFSET_DELTA_OFFSET, {
        ...ctx,
        field: 'lastOffsetDelta',
      }),
    )
  }
}

const marker: EndTxnMarkerFacts = { type: 0, keyVersion: 0, coordinatorEpoch: 0 }

function readControl(b: ScannedBatch, limits: RecordLimits): ControlInfo | null {
  // COMMIT/ABORT markers as brokers write them, without decoding a record (one per transaction)
  if (readEndTxnMarkerFast(b.bytes, 0, b.bytes.length, marker)) {
    return {
      type: marker.type,
      typeName: controlTypeName(marker.type),
      keyVersion: marker.keyVersion,
      coordinatorEpoch: marker.coordinatorEpoch,
    }
  }
  const header = b.header
  if (header.recordsCount === 0) return null // compaction can leave empty control batches (KAFKA-7467)
  if (header.recordsCount < 0) return null // checkHeader said so: the records are not walked to say it again
  try {
    const first = decodeRecords(header, b.bytes, limits).next()
    if (first.done === true) return null
    return decodeControlRecord(first.value, header)
  } catch (e) {
    if (e instanceof DecodeError) {
      b.addProblem(e)
      return null
    }
    throw e
  }
}

/** Meaning of one control record (DumpLogSegments prints the same for each). @throws DecodeError */
export function decodeControlRecord(rec: KafkaRecord, header: BatchHeader): ControlInfo {
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
