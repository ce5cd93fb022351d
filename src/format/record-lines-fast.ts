// Record lines of one uncompressed v2 data batch, written straight from the batch bytes: no KafkaRecord
// objects, no BigInts. The records are walked by decode/record-cursor.ts (the walk decodeRecords uses);
// this file only formats. It prints exactly what the general path (records.ts + record-line-ascii.ts)
// prints, and gives up (returns null, having committed nothing) on anything that path would report or
// treat specially: an offset or timestamp that is not an exact number (bytes/int64.ts), a timestampDelta
// past 2^48, a malformed record, a gap in offsets, a count that does not match. The caller then runs the
// general path for that batch.
import { exactSum } from '../bytes/int64.js'
import * as L from '../decode/layout.js'
import { incrementSequence } from '../decode/batch-header.js'
import { BatchView, recordsFit } from '../decode/batch-view.js'
import { DecodeError } from '../decode/errors.js'
import { RecordCursor } from '../decode/record-cursor.js'
import type { AsciiWords } from './ascii.js'
import { putBytes, putIntWords, putWords, viewOf } from './ascii.js'
import {
  K_APPEND,
  K_CREATE,
  K_HEADERKEYS,
  K_KEY,
  K_KEYSIZE,
  K_OFFSET,
  K_PAYLOAD,
  K_SEQUENCE,
  K_VALUESIZE,
  putUtf8,
} from './record-line-ascii.js'

/** payloadPipe: `|` before ` payload: ` when nothing precedes it on the line (kafka-dump-log 4.3+) */
export interface FastLinesOptions {
  printData: boolean
  skipRecordMetadata: boolean
  payloadPipe?: boolean
}

export interface FastLinesResult {
  /** end of what was written into `out` */
  end: number
  firstOffset: number
  lastOffset: number
}

/** upper bound of the bytes the lines of this batch can take */
export function fastLinesSize(batch: Buffer, count: number): number {
  return count * 200 + batch.length * 3 + 64
}

/**
 * Write the record lines of the complete, uncompressed, non-control v2 batch `b` into out[pos...].
 * @returns the result, or null when the general path must handle this batch
 */
export function writeRecordLinesFast(out: Buffer, pos: number, b: Buffer, o: FastLinesOptions): FastLinesResult | null {
  const v = view.of(b, 0)
  const count = v.recordsCount
  const end = b.length
  if (!recordsFit(count, end)) return null
  const baseOffset = v.int64(L.OFFSET_OFFSET)
  const baseTimestamp = v.int64(L.BASE_TIMESTAMP_OFFSET)
  const logAppendTime = (v.attributes & L.TIMESTAMP_TYPE_MASK) !== 0
  const maxTimestamp = v.int64(L.MAX_TIMESTAMP_OFFSET)
  if (typeof baseOffset !== 'number' || typeof baseTimestamp !== 'number' || typeof maxTimestamp !== 'number')
    return null
  const baseSequence = v.baseSequence
  const tsLabel = logAppendTime ? K_APPEND : K_CREATE
  const cur = cursor.at(b, L.RECORD_BATCH_OVERHEAD, end, 0)
  let prev = NaN
  let first = NaN
  // anything the walk would report is the general path's to report (it throws there too)
  try {
    for (let i = 0; i < count; i++) {
      cur.next(i)
      const tsDelta = cur.timestampDelta
      if (Number.isNaN(tsDelta)) return null
      const offset = baseOffset + cur.offsetDelta
      if (i === 0) first = offset
      else if (offset !== prev + 1) return null // gaps are recorded by the general path
      prev = offset
      const timestamp = logAppendTime ? maxTimestamp : baseTimestamp + tsDelta
      // both sums are exact unless they leave [-2^53, 2^53) (only the first offset needs its check: the rest follow it by one)
      if ((i === 0 && !exactSum(offset)) || !exactSum(timestamp)) return null
      pos = writeLine(
        out,
        pos,
        cur,
        o,
        offset,
        timestamp,
        tsLabel,
        baseSequence < 0 ? -1 : incrementSequence(baseSequence, cur.offsetDelta),
      )
    }
  } catch (e) {
    if (e instanceof DecodeError) return null
    throw e
  }
  if (cur.pos !== end || !exactSum(prev)) return null
  return { end: pos, firstOffset: first, lastOffset: prev }
}

const cursor = new RecordCursor()
const view = new BatchView()

function writeLine(
  out: Buffer,
  pos: number,
  cur: RecordCursor,
  o: FastLinesOptions,
  offset: number,
  timestamp: number,
  tsLabel: AsciiWords,
  sequence: number,
): number {
  const b = cur.buf
  let pipe = true
  if (!o.skipRecordMetadata) {
    // the word writers (ascii.ts): fastLinesSize leaves them their slack
    const dv = viewOf(out)
    pos = putWords(dv, pos, K_OFFSET)
    pos = putIntWords(dv, pos, offset)
    pos = putWords(dv, pos, tsLabel)
    pos = putIntWords(dv, pos, timestamp)
    pos = putWords(dv, pos, K_KEYSIZE)
    pos = putIntWords(dv, pos, cur.keyLength)
    pos = putWords(dv, pos, K_VALUESIZE)
    pos = putIntWords(dv, pos, cur.valueLength)
    pos = putWords(dv, pos, K_SEQUENCE)
    pos = putIntWords(dv, pos, sequence)
    pos = putWords(dv, pos, K_HEADERKEYS)
    cur.firstHeader()
    for (let h = 0; h < cur.headersCount; h++) {
      if (h > 0) out[pos++] = 44
      cur.nextHeader()
      pos = putUtf8(out, pos, b.subarray(cur.headerKeyAt, cur.headerKeyAt + cur.headerKeyLength))
    }
    out[pos++] = 93
    pipe = false
  }
  if (o.printData) {
    if (cur.keyLength >= 0) {
      if (pipe) {
        out[pos++] = 124
        pipe = false
      }
      out[pos++] = 32
      pos = putBytes(out, pos, K_KEY)
      pos = putUtf8(out, pos, b.subarray(cur.keyAt, cur.keyAt + cur.keyLength))
    }
    if (cur.valueLength >= 0) {
      if (pipe && o.payloadPipe === true) out[pos++] = 124
      pos = putBytes(out, pos, K_PAYLOAD)
      pos = putUtf8(out, pos, b.subarray(cur.valueAt, cur.valueAt + cur.valueLength))
    }
  }
  out[pos++] = 10
  return pos
}
