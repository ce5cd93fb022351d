// kafka-dump-log's text, field for field (Kafka 3.9 DumpLogSegments.scala), as pure functions.
import type { BatchHeader } from '../decode/batch-header.js'
import { deleteHorizonMs, lastSequence } from '../decode/batch-header.js'
import { codecName } from '../decode/layout.js'
import type { ControlInfo } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import { valueSizeOf } from '../decode/records.js'
import type { AbortedTxn, OffsetIndexEntry, TimeIndexEntry } from '../decode/index-files.js'
import type { ProducerSnapshotEntry } from '../decode/producer-snapshot.js'
import { firstSequence } from '../decode/producer-snapshot.js'

export const RECORD_INDENT = '|'

function optionalLong(v: bigint | null): string {
  return v === null ? 'OptionalLong.empty' : `OptionalLong[${v}]`
}

/** The v2 batch line, up to and including `isvalid:` (no newline); `validStyle` styles the `isvalid: …` field. */
export function formatBatchLine(
  h: BatchHeader,
  isValid: boolean | null,
  validStyle: (s: string) => string = (x) => x,
): string {
  return (
    `baseOffset: ${h.baseOffset} lastOffset: ${h.lastOffset} count: ${h.recordsCount}` +
    ` baseSequence: ${h.baseSequence} lastSequence: ${lastSequence(h)}` +
    ` producerId: ${h.producerId} producerEpoch: ${h.producerEpoch}` +
    ` partitionLeaderEpoch: ${h.partitionLeaderEpoch} isTransactional: ${h.isTransactional}` +
    ` isControl: ${h.isControl} deleteHorizonMs: ${optionalLong(deleteHorizonMs(h))}` +
    ` position: ${h.position} ${h.timestampType}: ${h.maxTimestamp}` +
    ` size: ${h.sizeInBytes} magic: ${h.magic} compresscodec: ${codecName(h.compression)}` +
    ` crc: ${h.crc} ` +
    validStyle(`isvalid: ${isValid === null ? 'unchecked' : String(isValid)}`)
  )
}

export interface LegacyBatchFields {
  offset: bigint
  position: number
  timestampType: string
  timestamp: bigint
  sizeInBytes: number
  magic: number
  compression: number
  crc: number
  crcValid: boolean
}

export function formatLegacyBatchLine(e: LegacyBatchFields): string {
  return (
    `offset: ${e.offset} position: ${e.position} ${e.timestampType}: ${e.timestamp} size: ${e.sizeInBytes}` +
    ` magic: ${e.magic} compresscodec: ${codecName(e.compression)} crc: ${e.crc} isvalid: ${e.crcValid}`
  )
}

/** `| offset: ... headerKeys: [...]` for a v2 record (no control or payload part). */
export function formatRecordMetadata(r: KafkaRecord, timestampType: string): string {
  const keys = r.headers.map((h) => h.key.toString('utf8')).join(',')
  return (
    `${RECORD_INDENT} offset: ${r.offset} ${timestampType}: ${r.timestamp}` +
    ` keySize: ${r.key === null ? -1 : r.key.length} valueSize: ${valueSizeOf(r)}` +
    ` sequence: ${r.sequence} headerKeys: [${keys}]`
  )
}

/** What kafka-dump-log appends to a control record's line: LEADER_CHANGE as JSON from 4.1 (TextVariant.leaderChangeAsJson). */
export function formatControlSuffix(c: ControlInfo, leaderChangeAsJson: boolean): string {
  if (c.type === 0 || c.type === 1) return ` endTxnMarker: ${c.typeName} coordinatorEpoch: ${c.coordinatorEpoch ?? 0}`
  if (c.type === 2)
    return leaderChangeAsJson && c.data !== undefined
      ? ` LeaderChange: ${jsonKafka(c.data)}`
      : ' controlType: LEADER_CHANGE(2)'
  const label = { 3: 'SnapshotHeader', 4: 'SnapshotFooter', 5: 'KRaftVersion', 6: 'KRaftVoters' }[c.type]
  if (label !== undefined && c.data !== undefined) return ` ${label} ${jsonKafka(c.data)}`
  return ` controlType: ${c.typeName.replace(/\(\d+\)$/, '')}(${c.type})`
}

/** Kafka's generated JsonConverters: compact, bigint as plain numbers. */
export function jsonKafka(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? `__BIG${x}__` : x)).replace(
    /"__BIG(-?\d+)__"/g,
    '$1',
  )
}

export function formatIndexEntry(e: OffsetIndexEntry): string {
  return `offset: ${e.offset} position: ${e.position}`
}

export function formatTimeIndexEntry(e: TimeIndexEntry): string {
  return `timestamp: ${e.timestamp} offset: ${e.offset}`
}

/** 3.9-4.3: AbortedTxn.version() reads only the first byte of the int16; 4.4 prints the constant 0 (TextVariant.txnIndexVersion). */
export function formatTxnIndexEntry(e: AbortedTxn, version: 'first-byte' | 'int16'): string {
  return (
    `version: ${version === 'int16' ? 0 : e.version >> 8} producerId: ${e.producerId} firstOffset: ${e.firstOffset}` +
    ` lastOffset: ${e.lastOffset} lastStableOffset: ${e.lastStableOffset}`
  )
}

/** A producer snapshot entry; 3.9-4.2 leave a trailing space when there is no batch metadata (TextVariant.snapshotLineTrailingSpace). */
export function formatSnapshotEntry(e: ProducerSnapshotEntry, trailingSpace: boolean): string {
  let s =
    `producerId: ${e.producerId} producerEpoch: ${e.producerEpoch} coordinatorEpoch: ${e.coordinatorEpoch}` +
    ` currentTxnFirstOffset: ${optionalLong(e.currentTxnFirstOffset)} lastTimestamp: ${e.timestamp}`
  if (trailingSpace || e.lastOffset >= 0n) s += ' '
  if (e.lastOffset >= 0n) {
    s +=
      `firstSequence: ${firstSequence(e)} lastSequence: ${e.lastSequence} lastOffset: ${e.lastOffset}` +
      ` offsetDelta: ${e.offsetDelta} timestamp: ${e.timestamp}`
  }
  return s
}
