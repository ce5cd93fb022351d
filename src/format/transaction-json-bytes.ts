// One transaction of `transactions --json` written as bytes into the output buffer: the object transactionJson
// (transactions-json.ts) makes, in its key order, without the object or JSON.stringify's string (at 100,000
// transactions those were most of --json's own CPU and garbage). int64 values follow json-int64.ts (a number while
// exact, else a string). A transaction with anything rarer (findings, damage, an open run's verdict, a string
// JSON would escape or that is not ASCII) is left to transactionJson: the caller writes it as text.
import { toNumber } from '../bytes/int64.js'
import { idFamily } from '../analysis/transaction-join/id-families.js'
import type { JoinedTransaction } from '../analysis/transaction-join/types.js'
import { intLength, putAscii, putInt, WORD_SLACK } from './ascii.js'
import type { Writer } from './writer.js'

/** the object as it is composed, reused from one transaction to the next */
let buf = Buffer.allocUnsafe(16 * 1024)
let pos = 0
/** false once a value only JSON.stringify writes was met */
let ok = true

function room(n: number): void {
  if (pos + n + WORD_SLACK <= buf.length) return
  // a copy: the scratch buffer doubled, what was written kept
  const b = Buffer.allocUnsafe(Math.max(2 * buf.length, pos + n + WORD_SLACK))
  buf.copy(b, 0, 0, pos)
  buf = b
}

/** ASCII text as it is (keys, punctuation) */
function raw(s: string): void {
  room(s.length)
  pos = putAscii(buf, pos, s)
}

/** a string as JSON writes it: printable ASCII other than `"` and `\` quoted as it is, anything else not here */
function str(s: string | null): void {
  if (s === null) {
    raw('null')
    return
  }
  room(s.length + 2)
  buf[pos++] = 34
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c < 0x20 || c > 0x7e || c === 34 || c === 92) {
      ok = false
      return
    }
    buf[pos++] = c
  }
  buf[pos++] = 34
}

/** a safe integer (an int32 field) */
function int(n: number | null): void {
  if (n === null) {
    raw('null')
    return
  }
  if (!Number.isSafeInteger(n)) {
    ok = false
    return
  }
  room(intLength(n))
  pos = putInt(buf, pos, n)
}

/** json-int64.ts' int64: a number while it is a safe integer, else its digits as a string */
function i64(v: bigint | null): void {
  if (v === null) {
    raw('null')
    return
  }
  const n = toNumber(v)
  if (Number.isSafeInteger(n)) {
    room(intLength(n))
    pos = putInt(buf, pos, n)
  } else raw(`"${v}"`)
}

function strings(l: readonly string[]): void {
  raw('[')
  for (let i = 0; i < l.length; i++) {
    if (i > 0) raw(',')
    str(l[i]!)
  }
  raw(']')
}

function family(id: string | null): void {
  if (id === null) {
    raw('null')
    return
  }
  const f = idFamily(id)
  raw('{"kind":')
  str(f.kind)
  raw(',"prefix":')
  str(f.prefix)
  if (f.kind === 'kafka-streams') {
    raw(',"processId":')
    str(f.processId)
    raw(',"thread":')
    int(f.thread)
  } else if (f.kind === 'flink-kafka-sink') {
    raw(',"subtask":')
    int(f.subtask)
    raw(',"counter":')
    int(f.counter)
  }
  raw('}')
}

function runs(t: JoinedTransaction): void {
  raw(',"partitions":[')
  for (let i = 0; i < t.runs.length; i++) {
    const r = t.runs[i]!
    if (r.damage !== undefined || r.verdict !== undefined) ok = false
    raw(i === 0 ? '{"topic":' : ',{"topic":')
    str(r.topic)
    raw(',"partition":')
    int(r.partition)
    raw(',"producerEpoch":')
    int(r.producerEpoch)
    raw(',"firstOffset":')
    i64(r.firstOffset)
    raw(',"lastDataOffset":')
    i64(r.lastDataOffset)
    raw(',"records":')
    int(r.records)
    raw(',"outcome":')
    str(r.outcome)
    const m = r.marker
    if (m === null) raw(',"marker":null}')
    else {
      raw(',"marker":{"offset":')
      i64(m.offset)
      raw(',"type":')
      str(m.type)
      raw(',"producerEpoch":')
      int(m.epoch)
      raw(',"coordinatorEpoch":')
      int(m.coordinatorEpoch)
      raw('}}')
    }
  }
  raw(']')
}

function commits(t: JoinedTransaction): void {
  raw(',"offsetCommits":[')
  for (let i = 0; i < t.offsetCommits.length; i++) {
    const c = t.offsetCommits[i]!
    raw(i === 0 ? '{"group":' : ',{"group":')
    str(c.group)
    raw(',"topic":')
    str(c.topic)
    raw(',"partition":')
    int(c.partition)
    raw(',"offset":')
    i64(c.offset)
    raw(',"metadata":')
    str(c.metadata)
    raw(',"committedBefore":')
    i64(c.committedBefore)
    raw(',"committedAfter":')
    i64(c.committedAfter)
    raw('}')
  }
  raw(']')
}

function coordinator(t: JoinedTransaction): void {
  raw(',"coordinator":[')
  const states = t.episode?.states ?? []
  for (let i = 0; i < states.length; i++) {
    const s = states[i]!
    raw(i === 0 ? '{"state":' : ',{"state":')
    str(s.state)
    raw(',"timestamp":')
    i64(s.timestamp)
    raw(',"partitions":')
    strings(s.partitions)
    raw(',"producerEpoch":')
    int(s.producerEpoch)
    raw('}')
  }
  raw(']')
}

/**
 * JSON.stringify(transactionJson(t)) written to `w`, after a comma unless `first`: true, or false with nothing
 * written when the transaction holds what only transactionJson writes
 */
export function writeTransactionJson(w: Writer, t: JoinedTransaction, first: boolean): boolean {
  if (t.findings.length > 0) return false
  pos = 0
  ok = true
  raw(first ? '{"transactionalId":' : ',{"transactionalId":')
  str(t.transactionalId)
  raw(',"producerId":')
  i64(t.producerId)
  raw(',"producerEpoch":')
  int(t.producerEpoch)
  raw(',"transactionVersion":')
  str(t.transactionVersion)
  raw(',"outcome":')
  str(t.outcome)
  raw(',"joinedBy":')
  str(t.joinedBy)
  raw(',"idFamily":')
  family(t.transactionalId)
  raw(',"firstTimestamp":')
  i64(t.firstTimestamp)
  raw(',"lastTimestamp":')
  i64(t.lastTimestamp)
  runs(t)
  commits(t)
  coordinator(t)
  raw(',"abortedBy":')
  str(t.abortCause?.by ?? null)
  raw(',"transactionDeadline":')
  i64(t.abortCause === null ? null : t.abortCause.deadline)
  raw(',"partitionsNotRead":')
  strings(t.notRead)
  raw(',"findings":[]}')
  if (!ok) return false
  const at = w.reserve(pos)
  buf.copy(w.buffer, at, 0, pos)
  w.commit(at + pos)
  return true
}
