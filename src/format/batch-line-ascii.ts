// The v2 batch line of format/dump-text.ts formatBatchLine, written as bytes straight from the batch
// header. The two must agree character for character (test/format/ascii-lines.test.ts checks it
// on random headers).
//
// The line is nine numbers between constants. The constants are prepared once (as 32-bit words: ascii.ts
// putWords) and merged where no number changes between them ("magic: 2 compresscodec: none crc: " is one
// constant per codec); the run " producerId: … position: ", which stays the same from batch to batch of a
// producer session, is formatted once and copied while it does. What is written per batch is the numbers.
import { i64Add } from '../bytes/int64.js'
import * as L from '../decode/layout.js'
import { incrementSequence } from '../decode/batch-header.js'
import type { BatchView } from '../decode/batch-view.js'
import type { AsciiWords } from './ascii.js'
import { asciiWords, putI64Words, putIntWords, putWords, viewOf } from './ascii.js'

/** longest possible line: field names plus every number at its widest (and the word writers' slack) */
export const MAX_BATCH_LINE = 640

const flagText = (f: number): string =>
  ` isTransactional: ${(f & 1) !== 0} isControl: ${(f & 2) !== 0} deleteHorizonMs: `
const FLAGS_NO_HORIZON = [0, 1, 2, 3].map((f) => asciiWords(`${flagText(f)}OptionalLong.empty position: `))
const FLAGS_HORIZON = [0, 1, 2, 3].map((f) => asciiWords(`${flagText(f)}OptionalLong[`))
// the constants between the numbers, in line order
type Sixteen = [
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
  AsciiWords,
]
const [
  K0,
  K1,
  K2,
  K3,
  K4,
  K5,
  K6,
  K7,
  HORIZON_END,
  CREATE_TIME,
  LOG_APPEND_TIME,
  K11,
  K12,
  VALID_UNCHECKED,
  VALID_TRUE,
  VALID_FALSE,
] = [
  'baseOffset: ',
  ' lastOffset: ',
  ' count: ',
  ' baseSequence: ',
  ' lastSequence: ',
  ' producerId: ',
  ' producerEpoch: ',
  ' partitionLeaderEpoch: ',
  '] position: ',
  ' CreateTime: ',
  ' LogAppendTime: ',
  ' size: ',
  ' magic: ',
  ' isvalid: unchecked\n',
  ' isvalid: true\n',
  ' isvalid: false\n',
].map(asciiWords) as Sixteen
/** " magic: M compresscodec: C crc: " of a v2 batch, per codec id (0-7) */
const MAGIC_CODEC_CRC = Array.from({ length: 8 }, (_, c) =>
  asciiWords(` magic: 2 compresscodec: ${L.codecName(c)} crc: `),
)
const CODEC_CRC = Array.from({ length: 8 }, (_, c) => asciiWords(` compresscodec: ${L.codecName(c)} crc: `))

// The " producerId: … position: " runs of recent producer sessions, as words, in a direct-mapped cache keyed
// by (producerId, producerEpoch, partitionLeaderEpoch, flags): interleaved producers and their markers
// alternate from batch to batch (the txn bench input: 11 sessions, 12% of lines repeat the previous run,
// all of them one of the last 16). Module state: pure output, no effect on results.
const SLOTS = 64
const SLOT_WORDS = 48 // the longest run (a 20-digit producerId, flags, no horizon) is 177 bytes
const runWords = new Uint32Array(SLOTS * SLOT_WORDS)
const runLength = new Int32Array(SLOTS) // 0: empty
const runPid = new Float64Array(SLOTS)
const runEpoch = new Int32Array(SLOTS)
const runLeaderEpoch = new Int32Array(SLOTS)
const runFlags = new Int32Array(SLOTS)

/** Write the batch line (with a trailing newline) for the batch `v` is at; returns the new position. */
export function writeBatchLine(out: Buffer, pos: number, v: BatchView, isValid: boolean | null): number {
  const dv = viewOf(out)
  const attributes = v.attributes
  const lastOffsetDelta = v.lastOffsetDelta
  const baseSequence = v.baseSequence
  const baseOffset = v.int64(L.OFFSET_OFFSET)
  pos = putWords(dv, pos, K0)
  pos = putI64Words(dv, pos, baseOffset)
  pos = putWords(dv, pos, K1)
  pos = putI64Words(dv, pos, i64Add(baseOffset, lastOffsetDelta))
  pos = putWords(dv, pos, K2)
  pos = putIntWords(dv, pos, v.recordsCount)
  pos = putWords(dv, pos, K3)
  pos = putIntWords(dv, pos, baseSequence)
  pos = putWords(dv, pos, K4)
  pos = putIntWords(
    dv,
    pos,
    baseSequence === L.NO_SEQUENCE ? L.NO_SEQUENCE : incrementSequence(baseSequence, lastOffsetDelta),
  )
  const pid = v.int64(L.PRODUCER_ID_OFFSET)
  const epoch = v.producerEpoch
  const leaderEpoch = v.partitionLeaderEpoch
  const flags = attributes & (L.TRANSACTIONAL_FLAG_MASK | L.CONTROL_FLAG_MASK | L.DELETE_HORIZON_FLAG_MASK)
  if (typeof pid === 'number' && (flags & L.DELETE_HORIZON_FLAG_MASK) === 0) {
    const slot = ((pid | 0) ^ (epoch << 2) ^ (leaderEpoch << 4) ^ (flags << 1)) & (SLOTS - 1)
    if (
      runLength[slot] !== 0 &&
      runPid[slot] === pid &&
      runEpoch[slot] === epoch &&
      runLeaderEpoch[slot] === leaderEpoch &&
      runFlags[slot] === flags
    ) {
      const n = runLength[slot]!
      for (let i = 0, w = slot * SLOT_WORDS; i < n; i += 4, w++) dv.setUint32(pos + i, runWords[w]!)
      pos += n
    } else {
      const from = pos
      pos = writeRun(dv, pos, v, attributes, pid, epoch, leaderEpoch)
      // kept: read back as words (the last one's bytes past the run are overwritten by the position, as after a copy)
      for (let i = 0, w = slot * SLOT_WORDS; i < pos - from; i += 4, w++) runWords[w] = dv.getUint32(from + i)
      runLength[slot] = pos - from
      runPid[slot] = pid
      runEpoch[slot] = epoch
      runLeaderEpoch[slot] = leaderEpoch
      runFlags[slot] = flags
    }
  } else {
    pos = writeRun(dv, pos, v, attributes, pid, epoch, leaderEpoch)
  }
  pos = putIntWords(dv, pos, v.position)
  pos = putWords(dv, pos, (attributes & L.TIMESTAMP_TYPE_MASK) !== 0 ? LOG_APPEND_TIME : CREATE_TIME)
  pos = putI64Words(dv, pos, v.int64(L.MAX_TIMESTAMP_OFFSET))
  pos = putWords(dv, pos, K11)
  pos = putIntWords(dv, pos, v.sizeInBytes)
  const magic = v.magic
  if (magic === 2) {
    pos = putWords(dv, pos, MAGIC_CODEC_CRC[attributes & L.COMPRESSION_CODEC_MASK]!)
  } else {
    pos = putWords(dv, pos, K12)
    pos = putIntWords(dv, pos, magic)
    pos = putWords(dv, pos, CODEC_CRC[attributes & L.COMPRESSION_CODEC_MASK]!)
  }
  pos = putIntWords(dv, pos, v.storedCrc)
  return putWords(dv, pos, isValid === null ? VALID_UNCHECKED : isValid ? VALID_TRUE : VALID_FALSE)
}

/** " producerId: … position: " */
function writeRun(
  dv: DataView,
  pos: number,
  v: BatchView,
  attributes: number,
  pid: number | bigint,
  epoch: number,
  leaderEpoch: number,
): number {
  pos = putWords(dv, pos, K5)
  pos = putI64Words(dv, pos, pid)
  pos = putWords(dv, pos, K6)
  pos = putIntWords(dv, pos, epoch)
  pos = putWords(dv, pos, K7)
  pos = putIntWords(dv, pos, leaderEpoch)
  const f =
    ((attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0 ? 1 : 0) | ((attributes & L.CONTROL_FLAG_MASK) !== 0 ? 2 : 0)
  if ((attributes & L.DELETE_HORIZON_FLAG_MASK) === 0) return putWords(dv, pos, FLAGS_NO_HORIZON[f]!)
  pos = putWords(dv, pos, FLAGS_HORIZON[f]!)
  pos = putI64Words(dv, pos, v.int64(L.BASE_TIMESTAMP_OFFSET))
  return putWords(dv, pos, HORIZON_END)
}
