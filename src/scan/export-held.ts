// The items export's one read (export-read.ts) holds in its queue (io/spill-queue.ts) while their visibility waits
// for the final facts: a segment's start, a finding of the record pass, a batch. A batch up to the record pass's
// window is held whole; a larger one by its header, its CRC as streamed and where its bytes are in the scratch file
// (export-large.ts).
import * as L from '../decode/layout.js'
import { Frame } from '../decode/frame.js'
import type { ReadOptions, V2Batch } from '../decode/log-reader.js'
import { readFrame } from '../decode/log-reader.js'

/** thrown through the scan where one read cannot answer as the two passes do: the caller runs the two passes */
export class NotClean extends Error {}

/** a held item's first byte: a segment starts, a finding, a batch (its CRC checked when read, or to be checked again) */
export const SEGMENT = 0
export const FINDING = 1
const BATCH = 2
const BATCH_CRC = 3
/** a batch larger than the record pass's window: its header, its bytes in the scratch file */
export const BATCH_LARGE = 4

const HELD: ReadOptions = { verifyCrc: false }
/** a batch read back whole from the scratch file for the records tap, which checks no CRC (forEachInternalRecord) */
export const UNCHECKED = HELD
const REUSED = new Frame()

/** bytes of a held batch's file position */
export const POSITION_BYTES = 6

/** a held batch: BATCH (BATCH_CRC when its CRC failed), its file position and its bytes */
export function heldItem(b: V2Batch): Buffer {
  const item = Buffer.allocUnsafe(1 + POSITION_BYTES + b.bytes.length)
  item[0] = b.crcValid === false ? BATCH_CRC : BATCH
  item.writeUIntBE(b.position, 1, POSITION_BYTES)
  b.bytes.copy(item, 1 + POSITION_BYTES)
  return item
}

/** a held batch's first bytes (its bytes follow): SpillQueue.pushPieces makes the item without a copy of it first */
export function heldHead(b: V2Batch): Buffer {
  const head = HEAD
  head[0] = b.crcValid === false ? BATCH_CRC : BATCH
  head.writeUIntBE(b.position, 1, POSITION_BYTES)
  return head
}

const HEAD = Buffer.alloc(1 + POSITION_BYTES)

/** a held batch larger than the window: BATCH_LARGE, its file position, its header, its CRC as streamed, where its bytes are */
export function largeItem(b: V2Batch, crc: number, at: number): Buffer {
  const item = Buffer.allocUnsafe(LARGE_AT + POSITION_BYTES)
  item[0] = BATCH_LARGE
  item.writeUIntBE(b.position, 1, POSITION_BYTES)
  b.bytes.copy(item, 1 + POSITION_BYTES, 0, L.RECORD_BATCH_OVERHEAD)
  item.writeUInt32BE(crc, LARGE_AT - 4)
  item.writeUIntBE(at, LARGE_AT, POSITION_BYTES)
  return item
}

/** a held batch (BATCH, BATCH_CRC) as the record pass reads it */
export function heldBatch(item: Buffer): V2Batch {
  const bytes = item.subarray(POSITION_BYTES + 1)
  // its CRC was checked when it was read: one that failed is checked again, for its finding
  const opts = item[0] === BATCH_CRC ? undefined : HELD
  return v2(frameOf(bytes, item.readUIntBE(1, POSITION_BYTES), true, bytes.length, 2), opts)
}

/** a held large batch (BATCH_LARGE) as the record pass streams it: its CRC checked, its size, where its bytes are */
export function heldLarge(item: Buffer): { b: V2Batch; total: number; at: number } {
  const head = item.subarray(1 + POSITION_BYTES, LARGE_AT - 4)
  const total = head.readInt32BE(L.SIZE_OFFSET) + L.LOG_OVERHEAD
  const frame = frameOf(head, item.readUIntBE(1, POSITION_BYTES), false, total, 2)
  frame.crc = item.readUInt32BE(LARGE_AT - 4)
  return { b: v2(frame), total, at: item.readUIntBE(LARGE_AT, POSITION_BYTES) }
}

/** where a large item's scratch position is (its CRC the 4 bytes before) */
const LARGE_AT = 1 + POSITION_BYTES + L.RECORD_BATCH_OVERHEAD + 4

/** a Frame over `bytes` (the whole batch when `complete`, else its header) as the framer makes one */
export function frameOf(bytes: Buffer, position: number, complete: boolean, total: number, magic: number): Frame {
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  // one Frame, refilled: readFrame keeps nothing of it but the bytes' view
  return REUSED.set(position, bytes, dv, 0, complete ? total : L.RECORD_BATCH_OVERHEAD, complete, magic, total)
}

/** the record pass's event for a v2 frame (its CRC checked, as readLog checks every batch's) */
export function v2(f: Frame, opts?: ReadOptions): V2Batch {
  const b = readFrame(f, opts)
  if (b.kind !== 'batch') throw new NotClean()
  return b
}
