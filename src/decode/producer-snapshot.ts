// Producer state snapshot (<offset>.snapshot; ProducerStateManager.writeSnapshot, ProducerSnapshot.json v1):
//   version int16 | crc uint32 (CRC-32C of bytes 6..EOF) | entryCount int32 |
//   entries: producerId int64 | epoch int16 | lastSequence int32 | lastOffset int64 | offsetDelta int32 |
//            timestamp int64 | coordinatorEpoch int32 | currentTxnFirstOffset int64 (-1 = none)     (46 bytes)
//
// Read through a SegmentSource in windows, never whole: a partition with a million idempotent producers
// has a 70 MB snapshot. Every schema rule follows from the header and the file's size, so it is decided
// before anything else is read; the CRC is then computed over the body window by window. A reader that can
// drop what it took when the CRC fails (the partition scan) decodes the entries from those same windows
// (`onEntry`): each byte read once. One that prints them (the dump: kafka-dump-log prints no entry of a
// corrupt snapshot) reads them again in windows when the CRC matches.
import { crc32cUpdate } from '../bytes/crc32c.js'
import { entryWindows, WINDOW_ENTRIES } from './entry-windows.js'
import type { SegmentSource } from './segment-source.js'

export const PRODUCER_SNAPSHOT_HEADER = 10
export const PRODUCER_ENTRY_SIZE = 46
/** the CRC covers everything after its own field */
const CRC_START = 6

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

/** What the header, the size and the CRC say of a snapshot file (its entries: producerSnapshotEntries). */
export interface ProducerSnapshot {
  version: number
  crc: number
  entryCount: number
  /** a problem that kafka-dump-log reports as "Snapshot failed schema validation", and the byte position it refers to */
  schemaError?: { message: string; position: number }
  /** CRC-32C of bytes 6..EOF; computed only when there is no schema error */
  crcComputed?: number
}

export interface SnapshotReadOptions {
  /** entries per read window (tests make it small) */
  windowEntries?: number
  /**
   * each entry as the CRC's window passes it, before the CRC is known (not called after a schema error): the
   * caller drops what it took when `snapshotValid` says no
   */
  onEntry?: (e: ProducerSnapshotEntry) => void
}

/** The header, the schema rules and the CRC of the snapshot in `src`. Never throws for content problems. */
export function readProducerSnapshot(src: SegmentSource, opts: SnapshotReadOptions = {}): ProducerSnapshot {
  const size = src.size
  if (size < PRODUCER_SNAPSHOT_HEADER) {
    return {
      version: -1,
      crc: 0,
      entryCount: 0,
      schemaError: {
        message: `file is ${size} bytes, shorter than the ${PRODUCER_SNAPSHOT_HEADER}-byte header`,
        position: 0,
      },
    }
  }
  const head = src.readAt(0, PRODUCER_SNAPSHOT_HEADER)
  const s: ProducerSnapshot = {
    version: head.readInt16BE(0),
    crc: head.readUInt32BE(2),
    entryCount: head.readInt32BE(6),
  }
  const schemaError = schemaProblem(s, size)
  if (schemaError !== undefined) return { ...s, schemaError }
  const windowBytes = (opts.windowEntries ?? WINDOW_ENTRIES) * PRODUCER_ENTRY_SIZE
  return { ...s, crcComputed: bodyCrc(src, head, windowBytes, opts.onEntry) }
}

function schemaProblem({ version, entryCount }: ProducerSnapshot, size: number): ProducerSnapshot['schemaError'] {
  if (version !== 1) return { message: `Snapshot contained an unknown file version ${version}`, position: 0 }
  const body = size - PRODUCER_SNAPSHOT_HEADER
  const available = Math.floor(body / PRODUCER_ENTRY_SIZE)
  if (entryCount < 0)
    return { message: `entryCount ${entryCount} but ${body} bytes hold ${available} entries`, position: 6 }
  if (entryCount > available) {
    // the entries run out at entry `available`: that is where the file is cut short
    const at = PRODUCER_SNAPSHOT_HEADER + available * PRODUCER_ENTRY_SIZE
    return {
      message: `entryCount ${entryCount} but ${body} bytes hold ${available} entries (entry ${available} at position ${at} has ${size - at} of its ${PRODUCER_ENTRY_SIZE} bytes)`,
      position: at,
    }
  }
  const end = PRODUCER_SNAPSHOT_HEADER + entryCount * PRODUCER_ENTRY_SIZE
  if (size !== end) return { message: `${size - end} bytes after the ${entryCount} entries`, position: end }
  return undefined
}

/**
 * CRC-32C of bytes 6..EOF: the header's count field (already read) first, then the entries window by window
 * through one reused buffer of whole entries, each handed to `onEntry` as it passes
 */
function bodyCrc(
  src: SegmentSource,
  head: Buffer,
  windowBytes: number,
  onEntry?: (e: ProducerSnapshotEntry) => void,
): number {
  let crc = crc32cUpdate(0, head.subarray(CRC_START, PRODUCER_SNAPSHOT_HEADER))
  const body = src.size - PRODUCER_SNAPSHOT_HEADER
  if (body <= 0) return crc
  const buf = Buffer.allocUnsafeSlow(Math.min(windowBytes, body))
  for (let p = PRODUCER_SNAPSHOT_HEADER; p < src.size; ) {
    const n = src.readInto(buf, p, buf.length)
    if (n === 0) break
    crc = crc32cUpdate(crc, buf.subarray(0, n))
    if (onEntry !== undefined) for (const e of decodeEntries(buf.subarray(0, n))) onEntry(e)
    p += n
  }
  return crc
}

/** whether the snapshot's entries can be used: no schema error and the CRC matches */
export function snapshotValid(s: ProducerSnapshot): boolean {
  return s.schemaError === undefined && s.crcComputed === s.crc
}

/** The entries of a snapshot `readProducerSnapshot` found valid, read again from `src` in windows. */
export function producerSnapshotEntries(
  src: SegmentSource,
  s: ProducerSnapshot,
  opts: SnapshotReadOptions = {},
): Generator<ProducerSnapshotEntry> {
  return entryWindows(src, PRODUCER_ENTRY_SIZE, decodeEntries, {
    start: PRODUCER_SNAPSHOT_HEADER,
    count: s.schemaError === undefined ? s.entryCount : 0,
    reuse: true,
    ...(opts.windowEntries !== undefined ? { windowEntries: opts.windowEntries } : {}),
  })
}

function* decodeEntries(buf: Buffer): Generator<ProducerSnapshotEntry> {
  for (let o = 0; o + PRODUCER_ENTRY_SIZE <= buf.length; o += PRODUCER_ENTRY_SIZE) {
    const first = buf.readBigInt64BE(o + 38)
    yield {
      producerId: buf.readBigInt64BE(o),
      producerEpoch: buf.readInt16BE(o + 8),
      lastSequence: buf.readInt32BE(o + 10),
      lastOffset: buf.readBigInt64BE(o + 14),
      offsetDelta: buf.readInt32BE(o + 22),
      timestamp: buf.readBigInt64BE(o + 26),
      coordinatorEpoch: buf.readInt32BE(o + 34),
      currentTxnFirstOffset: first >= 0n ? first : null,
    }
  }
}

/** ProducerStateEntry batch metadata: firstSeq = lastSeq - offsetDelta, wrapping (DefaultRecordBatch.decrementSequence) */
export function firstSequence(e: ProducerSnapshotEntry): number {
  if (e.lastSequence < e.offsetDelta) return 0x7fffffff - (e.offsetDelta - e.lastSequence) + 1
  return e.lastSequence - e.offsetDelta
}
