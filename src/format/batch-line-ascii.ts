// The v2 batch line of format/dump-text.ts formatBatchLine, written as bytes straight from the batch
// header. The two must agree character for character (test/format/ascii-lines.test.ts checks it
// on random headers).
import { i64Add } from '../bytes/int64.js'
import * as L from '../decode/layout.js'
import { incrementSequence } from '../decode/batch-header.js'
import type { BatchView } from '../decode/batch-view.js'
import { ascii, putAscii, putBytes, putI64, putInt } from './ascii.js'

/** longest possible line: field names plus every number at its widest */
export const MAX_BATCH_LINE = 640

const flagText = (f: number): string => ` isTransactional: ${(f & 1) !== 0} isControl: ${(f & 2) !== 0} deleteHorizonMs: `
const FLAGS_NO_HORIZON = [0, 1, 2, 3].map((f) => ascii(`${flagText(f)}OptionalLong.empty position: `))
const FLAGS_HORIZON = [0, 1, 2, 3].map((f) => ascii(`${flagText(f)}OptionalLong[`))
const HORIZON_END = ascii('] position: ')
const LOG_APPEND_TIME = ascii(' LogAppendTime: ')
const CREATE_TIME = ascii(' CreateTime: ')
const VALID_UNCHECKED = ascii(' isvalid: unchecked')
const VALID_TRUE = ascii(' isvalid: true')
const VALID_FALSE = ascii(' isvalid: false')
const CODECS = L.CODEC_NAMES.map(ascii)
const K0 = ascii('baseOffset: ')
const K1 = ascii(' lastOffset: ')
const K2 = ascii(' count: ')
const K3 = ascii(' baseSequence: ')
const K4 = ascii(' lastSequence: ')
const K5 = ascii(' producerId: ')
const K6 = ascii(' producerEpoch: ')
const K7 = ascii(' partitionLeaderEpoch: ')
const K11 = ascii(' size: ')
const K12 = ascii(' magic: ')
const K13 = ascii(' compresscodec: ')
const K14 = ascii(' crc: ')

// cache of the middle segment of the previous line (module state: pure output, no effect on results)
const mid: { bytes: Uint8Array, view: Uint8Array, flags: number, pid: number | bigint, epoch: number, leaderEpoch: number } =
  { bytes: new Uint8Array(256), view: new Uint8Array(0), flags: -1, pid: 0, epoch: 0, leaderEpoch: 0 }

/** Write the batch line (with a trailing newline) for the batch `v` is at; returns the new position. */
export function writeBatchLine (out: Buffer, pos: number, v: BatchView, isValid: boolean | null): number {
  const attributes = v.attributes
  const lastOffsetDelta = v.lastOffsetDelta
  const baseSequence = v.baseSequence
  const baseOffset = v.int64(L.OFFSET_OFFSET)
  pos = putBytes(out, pos, K0)
  pos = putI64(out, pos, baseOffset)
  pos = putBytes(out, pos, K1)
  pos = putI64(out, pos, i64Add(baseOffset, lastOffsetDelta))
  pos = putBytes(out, pos, K2)
  pos = putInt(out, pos, v.recordsCount)
  pos = putBytes(out, pos, K3)
  pos = putInt(out, pos, baseSequence)
  pos = putBytes(out, pos, K4)
  pos = putInt(out, pos, baseSequence === L.NO_SEQUENCE ? L.NO_SEQUENCE : incrementSequence(baseSequence, lastOffsetDelta))
  // " producerId: … position: " repeats from batch to batch (same producer session, same leader epoch):
  // it is formatted once and copied while those fields stay the same
  const pid = v.int64(L.PRODUCER_ID_OFFSET)
  const epoch = v.producerEpoch
  const leaderEpoch = v.partitionLeaderEpoch
  const flags = attributes & (L.TRANSACTIONAL_FLAG_MASK | L.CONTROL_FLAG_MASK | L.DELETE_HORIZON_FLAG_MASK)
  if (flags === mid.flags && pid === mid.pid && epoch === mid.epoch && leaderEpoch === mid.leaderEpoch &&
    (flags & L.DELETE_HORIZON_FLAG_MASK) === 0) {
    out.set(mid.view, pos) // Buffer#copy's JS wrapper costs more than the copy itself
    pos += mid.view.length
  } else {
    const from = pos
    pos = putBytes(out, pos, K5)
    pos = putI64(out, pos, pid)
    pos = putBytes(out, pos, K6)
    pos = putInt(out, pos, epoch)
    pos = putBytes(out, pos, K7)
    pos = putInt(out, pos, leaderEpoch)
    const f = ((attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0 ? 1 : 0) | ((attributes & L.CONTROL_FLAG_MASK) !== 0 ? 2 : 0)
    if ((attributes & L.DELETE_HORIZON_FLAG_MASK) !== 0) {
      pos = putBytes(out, pos, FLAGS_HORIZON[f]!)
      pos = putI64(out, pos, v.int64(L.BASE_TIMESTAMP_OFFSET))
      pos = putBytes(out, pos, HORIZON_END)
    } else {
      pos = putBytes(out, pos, FLAGS_NO_HORIZON[f]!)
    }
    // copy: the line buffer is reused
    mid.bytes.set(out.subarray(from, pos), 0)
    mid.view = mid.bytes.subarray(0, pos - from)
    mid.flags = flags; mid.pid = pid; mid.epoch = epoch; mid.leaderEpoch = leaderEpoch
  }
  pos = putInt(out, pos, v.position)
  pos = putBytes(out, pos, (attributes & L.TIMESTAMP_TYPE_MASK) !== 0 ? LOG_APPEND_TIME : CREATE_TIME)
  pos = putI64(out, pos, v.int64(L.MAX_TIMESTAMP_OFFSET))
  pos = putBytes(out, pos, K11)
  pos = putInt(out, pos, v.sizeInBytes)
  pos = putBytes(out, pos, K12)
  pos = putInt(out, pos, v.magic)
  pos = putBytes(out, pos, K13)
  const codec = attributes & L.COMPRESSION_CODEC_MASK
  const name = CODECS[codec]
  pos = name !== undefined ? putBytes(out, pos, name) : putAscii(out, pos, `unknown(${codec})`)
  pos = putBytes(out, pos, K14)
  pos = putInt(out, pos, v.storedCrc)
  pos = putBytes(out, pos, isValid === null ? VALID_UNCHECKED : isValid ? VALID_TRUE : VALID_FALSE)
  out[pos++] = 10
  return pos
}
