// One run of `txns --json` written as bytes into the output buffer. A partition of small transactions has
// millions of runs and each is about 350 bytes of JSON: built as strings (an object and JSON.stringify,
// or template text) they were most of the command's CPU and garbage (bench/RESULTS.md, txns). The field
// order and values are those of the README's `txns --json`; int64 values follow json-int64.ts (a number
// while exact, else a string). Control runs, rare and with a free-text type, are written as text.
import type { TimelineRun } from '../analysis/timeline.js'
import type { InferredTxnVersion, MarkerType } from '../analysis/transactions.js'
import type { TransactionOutcome } from '../analysis/partition-transaction.js'
import { inferTransactionVersion } from '../analysis/transactions.js'
import type { AsciiWords } from './ascii.js'
import { asciiWords, putAscii, putIntWords, putWords, viewOf, WORD_SLACK } from './ascii.js'
import { jsonInt64 } from './txn-json.js'
import type { Writer } from './writer.js'

const W = asciiWords
const K = {
  plain: W('{"kind":"plain","firstOffset":'),
  lastOffset: W(',"lastOffset":'),
  lastDataOffset: W(',"lastDataOffset":'),
  producerId: W(',"producerId":'),
  producerEpoch: W(',"producerEpoch":'),
  plainTail: W(',"transactional":false,"records":'),
  batches: W(',"batches":'),
  close: W('}'),
  txn: W('{"kind":"transaction","firstOffset":'),
  emptyTxn: W('{"kind":"empty-transaction","firstOffset":'),
  txnRecords: W(',"transactional":true,"records":'),
  outcome: W(',"outcome":'),
  marker: W(',"marker":{"offset":'),
  markerType: W(',"type":'),
  markerEpoch: W(',"producerEpoch":'),
  markerCoordinatorEpoch: W(',"coordinatorEpoch":'),
  noMarker: W(',"marker":null'),
  coordinatorEpoch: W(',"coordinatorEpoch":'),
  firstTimestamp: W(',"firstTimestamp":'),
  lastTimestamp: W(',"lastTimestamp":'),
  seeded: W(',"seeded":'),
  interleaved: W(',"interleaved":'),
  version: W(',"transactionVersion":'),
  listed: W(',"listed":'),
  null: W('null'),
  true: W('true'),
  false: W('false'),
  comma: W(','),
}
/** the string values a run can hold (its outcome, marker type, transaction version and listing), as their JSON text */
const QUOTED: Record<TransactionOutcome | MarkerType | InferredTxnVersion | 'early' | 'end', AsciiWords> = {
  committed: W('"committed"'),
  aborted: W('"aborted"'),
  open: W('"open"'),
  unknown: W('"unknown"'),
  COMMIT: W('"COMMIT"'),
  ABORT: W('"ABORT"'),
  '2': W('"2"'),
  '2 or timeout abort': W('"2 or timeout abort"'),
  '0/1': W('"0/1"'),
  early: W('"early"'),
  end: W('"end"'),
}

/** the most a transaction or plain run takes: its constant text (about 330 bytes) plus ten int64 values and three epochs */
const MAX_RUN_BYTES = 768

function putJsonInt64(dv: DataView, buf: Buffer, pos: number, v: bigint | null): number {
  if (v === null) return putWords(dv, pos, K.null)
  const j = jsonInt64(v)
  if (typeof j === 'number') return putIntWords(dv, pos, j)
  // beyond ±(2^53 - 1): the decimal string, quoted
  dv.setUint8(pos, 34)
  pos = putAscii(buf, pos + 1, j)
  dv.setUint8(pos, 34)
  return pos + 1
}

function putNum(dv: DataView, pos: number, v: number | null): number {
  return v === null || !Number.isFinite(v) ? putWords(dv, pos, K.null) : putIntWords(dv, pos, v)
}

/** Writes `r` (after a comma unless `first`): what JSON.stringify writes for the run's object. */
export function writeRunJson(w: Writer, r: TimelineRun, first: boolean): void {
  if (r.kind === 'control') {
    w.write(
      `${first ? '' : ','}{"kind":"control","offset":${JSON.stringify(jsonInt64(r.firstOffset))},"type":${JSON.stringify(r.typeName)},"producerId":${JSON.stringify(jsonInt64(r.producerId))}}`,
    )
    return
  }
  const at = w.reserve(MAX_RUN_BYTES + WORD_SLACK)
  const buf = w.buffer
  const dv = viewOf(buf)
  let pos = first ? at : putWords(dv, at, K.comma)
  if (r.kind === 'plain') {
    pos = putJsonInt64(dv, buf, putWords(dv, pos, K.plain), r.firstOffset)
    pos = putJsonInt64(dv, buf, putWords(dv, pos, K.lastOffset), r.lastOffset)
    pos = putJsonInt64(dv, buf, putWords(dv, pos, K.producerId), r.producerId)
    pos = putNum(dv, putWords(dv, pos, K.producerEpoch), r.producerEpoch)
    pos = putNum(dv, putWords(dv, pos, K.plainTail), r.records)
    pos = putNum(dv, putWords(dv, pos, K.batches), r.batches)
  } else {
    const t = r.txn
    pos = putJsonInt64(dv, buf, putWords(dv, pos, t.empty ? K.emptyTxn : K.txn), t.firstOffset)
    pos = putJsonInt64(dv, buf, putWords(dv, pos, K.lastDataOffset), t.lastDataOffset)
    pos = putJsonInt64(dv, buf, putWords(dv, pos, K.producerId), t.producerId)
    pos = putNum(dv, putWords(dv, pos, K.producerEpoch), t.producerEpoch)
    pos = putNum(dv, putWords(dv, pos, K.txnRecords), t.records)
    pos = putNum(dv, putWords(dv, pos, K.batches), t.batches)
    pos = putWords(dv, putWords(dv, pos, K.outcome), QUOTED[t.outcome])
    const m = t.marker
    if (m === null) pos = putWords(dv, pos, K.noMarker)
    else {
      pos = putJsonInt64(dv, buf, putWords(dv, pos, K.marker), m.offset)
      pos = putWords(dv, putWords(dv, pos, K.markerType), QUOTED[m.type])
      pos = putNum(dv, putWords(dv, pos, K.markerEpoch), t.markerEpoch)
      pos = putWords(dv, putNum(dv, putWords(dv, pos, K.markerCoordinatorEpoch), t.coordinatorEpoch), K.close)
    }
    pos = putNum(dv, putWords(dv, pos, K.coordinatorEpoch), t.coordinatorEpoch)
    pos = putJsonInt64(dv, buf, putWords(dv, pos, K.firstTimestamp), t.firstTimestamp)
    pos = putJsonInt64(dv, buf, putWords(dv, pos, K.lastTimestamp), t.lastTimestamp)
    pos = putWords(dv, putWords(dv, pos, K.seeded), t.seeded ? K.true : K.false)
    pos = putWords(dv, putWords(dv, pos, K.interleaved), r.interleaved ? K.true : K.false)
    // '2' | '2 or timeout abort' | '0/1' | null (analysis/transactions.ts inferTransactionVersion)
    const version = inferTransactionVersion(t)
    pos = putWords(dv, putWords(dv, pos, K.version), version === null ? K.null : QUOTED[version])
    if (r.listed !== undefined) pos = putWords(dv, putWords(dv, pos, K.listed), QUOTED[r.listed])
    if (t.damage !== undefined) {
      // rare (damaged logs only) and holding a path of any length: written as text after the fixed part
      w.commit(pos)
      w.write(`,"damage":${JSON.stringify({ file: t.damage.file, position: t.damage.position })}}`)
      return
    }
  }
  w.commit(putWords(dv, pos, K.close))
}
