// NDJSON objects of a dump. Field names follow kafka-dump-log where it has one; int64 via toJson().
import type { BatchHeader } from '../decode/batch-header.js'
import { deleteHorizonMs, lastSequence } from '../decode/batch-header.js'
import { codecName } from '../decode/layout.js'
import type { LegacyEntry, LegacyRecord } from '../decode/legacy.js'
import type { ControlInfo, V2Batch } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import { valueSizeOf } from '../decode/records.js'
import type { ParsedPayload } from './payload-parsers.js'
import { decodeValue, jsonValueOf } from './value-decoders.js'
import type { DecoderName } from './value-decoders.js'

export function batchJson(file: string, h: BatchHeader, b: V2Batch): Record<string, unknown> {
  const o: Record<string, unknown> = {
    type: 'batch',
    file,
    position: h.position,
    baseOffset: h.baseOffset,
    lastOffset: h.lastOffset,
    count: h.recordsCount,
    baseSequence: h.baseSequence,
    lastSequence: lastSequence(h),
    producerId: h.producerId,
    producerEpoch: h.producerEpoch,
    partitionLeaderEpoch: h.partitionLeaderEpoch,
    isTransactional: h.isTransactional,
    isControl: h.isControl,
    deleteHorizonMs: deleteHorizonMs(h),
    timestampType: h.timestampType,
    baseTimestamp: h.baseTimestamp,
    maxTimestamp: h.maxTimestamp,
    size: h.sizeInBytes,
    magic: h.magic,
    compressCodec: codecName(h.compression),
    crc: h.crc,
    isValid: b.crcValid,
  }
  if (b.control !== null) Object.assign(o, controlFields(b.control))
  return o
}

function controlFields(c: ControlInfo): Record<string, unknown> {
  const o: Record<string, unknown> = { controlType: c.typeName }
  if (c.coordinatorEpoch !== undefined) o.coordinatorEpoch = c.coordinatorEpoch
  if (c.data !== undefined) o.controlData = c.data
  return o
}

/**
 * The version of tsdump's JSON output (the dump's NDJSON objects and the partition commands' documents),
 * stated by the first object of a run. Raised when a field changes meaning or goes away; new fields do not.
 */
export const JSON_SCHEMA_VERSION = 1

export interface RecordJsonOptions {
  printData: boolean
  keyDecoder: DecoderName
  valueDecoder: DecoderName
}

export function recordJson(
  file: string,
  h: BatchHeader,
  r: KafkaRecord,
  opts: RecordJsonOptions,
  control: ControlInfo | undefined,
  parsed: ParsedPayload | undefined,
): Record<string, unknown> {
  const o: Record<string, unknown> = {
    type: 'record',
    file,
    batchPosition: h.position,
    offset: r.offset,
    timestampType: h.timestampType,
    timestamp: r.timestamp,
    keySize: r.key === null ? -1 : r.key.length,
    valueSize: valueSizeOf(r),
    sequence: r.sequence,
    headerKeys: r.headers.map((x) => x.key.toString('utf8')),
  }
  if (control !== undefined) Object.assign(o, controlFields(control))
  if (opts.printData && !h.isControl) {
    o.headers = r.headers.map((x) => ({
      key: x.key.toString('utf8'),
      value: x.value === null ? null : decodeValue(x.value, opts.valueDecoder),
    }))
    // internal-topic decoders: the decoded record as JSON values, not its text
    o.key = parsed?.keyJson !== undefined ? parsed.keyJson : (parsed?.key ?? null)
    o.payload = parsed?.payloadJson !== undefined ? parsed.payloadJson : (parsed?.payload ?? null)
    // --key-decoder/--value-decoder json: the decoded value beside the text
    const keyJson = jsonValueOf(r.key, opts.keyDecoder)
    if (keyJson !== undefined) o.keyJson = keyJson
    const payloadJson = jsonValueOf(r.value, opts.valueDecoder)
    if (payloadJson !== undefined) o.payloadJson = payloadJson
  }
  return o
}

export function legacyBatchJson(file: string, e: LegacyEntry): Record<string, unknown> {
  return {
    type: 'batch',
    file,
    position: e.position,
    baseOffset: e.offset,
    lastOffset: e.offset,
    magic: e.magic,
    timestampType: e.timestampType,
    maxTimestamp: e.timestamp,
    size: e.sizeInBytes,
    compressCodec: codecName(e.compression),
    crc: e.crc,
    isValid: e.crcValid,
    isTransactional: false,
    isControl: false,
  }
}

export function legacyRecordJson(
  file: string,
  e: LegacyEntry,
  r: LegacyRecord,
  parsed: ParsedPayload | undefined,
): Record<string, unknown> {
  const o: Record<string, unknown> = {
    type: 'record',
    file,
    batchPosition: e.position,
    offset: r.offset,
    timestampType: e.timestampType,
    timestamp: r.timestamp,
    keySize: r.keySize,
    valueSize: r.valueSize,
    magic: r.magic,
    isValid: r.crcValid,
    crc: r.crc,
  }
  if (parsed !== undefined) {
    o.key = parsed.keyJson !== undefined ? parsed.keyJson : (parsed.key ?? null)
    o.payload = parsed.payloadJson !== undefined ? parsed.payloadJson : (parsed.payload ?? null)
  }
  return o
}
