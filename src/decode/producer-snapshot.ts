// Producer state snapshot (<offset>.snapshot; ProducerStateManager.writeSnapshot, ProducerSnapshot.json v1):
//   version int16 | crc uint32 (CRC-32C of bytes 6..EOF) | entryCount int32 |
//   entries: producerId int64 | epoch int16 | lastSequence int32 | lastOffset int64 | offsetDelta int32 |
//            timestamp int64 | coordinatorEpoch int32 | currentTxnFirstOffset int64 (-1 = none)     (46 bytes)
import { crc32c } from '../bytes/crc32c.js'
import { DecodeError } from './errors.js'

export const PRODUCER_SNAPSHOT_HEADER = 10
export const PRODUCER_ENTRY_SIZE = 46

export interface ProducerSnapshotEntry {
  producerId: bigint
  producerEpoch: number
  lastSequence: number
  lastOffset: bigint
  offsetDelta: number
  timestamp: bigint
  coordinatorEpoch: number
  /** first offset of the producer's open transaction, or null */
  currentTxnFirstOffset: bigint | null
}

export interface ProducerSnapshot {
  version: number
  crc: number
  crcComputed: number
  crcValid: boolean
  entryCount: number
  entries: ProducerSnapshotEntry[]
  /** a problem that kafka-dump-log reports as "Snapshot failed schema validation" */
  schemaError?: string
  /** byte position the schema error refers to */
  schemaErrorPosition?: number
}

/** Decode a producer snapshot. Never throws for content problems; they are in crcValid/schemaError. */
export function decodeProducerSnapshot (buf: Buffer): ProducerSnapshot {
  if (buf.length < PRODUCER_SNAPSHOT_HEADER) {
    return { version: -1, crc: 0, crcComputed: 0, crcValid: false, entryCount: 0, entries: [],
      schemaError: `file is ${buf.length} bytes, shorter than the ${PRODUCER_SNAPSHOT_HEADER}-byte header`, schemaErrorPosition: 0 }
  }
  const version = buf.readInt16BE(0)
  const crc = buf.readUInt32BE(2)
  const crcComputed = crc32c(buf.subarray(6))
  const entryCount = buf.readInt32BE(6)
  const base = { version, crc, crcComputed, crcValid: crc === crcComputed, entryCount, entries: [] as ProducerSnapshotEntry[] }
  if (version !== 1) return { ...base, schemaError: `Snapshot contained an unknown file version ${version}`, schemaErrorPosition: 0 }
  const available = Math.floor((buf.length - PRODUCER_SNAPSHOT_HEADER) / PRODUCER_ENTRY_SIZE)
  if (entryCount < 0 || entryCount > available) {
    return { ...base, schemaError: `entryCount ${entryCount} but ${buf.length - PRODUCER_SNAPSHOT_HEADER} bytes hold ${available} entries`, schemaErrorPosition: 6 }
  }
  for (let i = 0; i < entryCount; i++) {
    const o = PRODUCER_SNAPSHOT_HEADER + i * PRODUCER_ENTRY_SIZE
    const first = buf.readBigInt64BE(o + 38)
    base.entries.push({
      producerId: buf.readBigInt64BE(o),
      producerEpoch: buf.readInt16BE(o + 8),
      lastSequence: buf.readInt32BE(o + 10),
      lastOffset: buf.readBigInt64BE(o + 14),
      offsetDelta: buf.readInt32BE(o + 22),
      timestamp: buf.readBigInt64BE(o + 26),
      coordinatorEpoch: buf.readInt32BE(o + 34),
      currentTxnFirstOffset: first >= 0n ? first : null,
    })
  }
  const extra = buf.length - PRODUCER_SNAPSHOT_HEADER - entryCount * PRODUCER_ENTRY_SIZE
  if (extra !== 0) {
    return { ...base, schemaError: `${extra} bytes after the ${entryCount} entries`, schemaErrorPosition: PRODUCER_SNAPSHOT_HEADER + entryCount * PRODUCER_ENTRY_SIZE }
  }
  return base
}

/** ProducerStateEntry batch metadata: firstSeq = lastSeq - offsetDelta, wrapping (DefaultRecordBatch.decrementSequence) */
export function firstSequence (e: ProducerSnapshotEntry): number {
  if (e.lastSequence < e.offsetDelta) return 0x7FFFFFFF - (e.offsetDelta - e.lastSequence) + 1
  return e.lastSequence - e.offsetDelta
}

export { DecodeError }
