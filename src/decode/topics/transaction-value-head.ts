// A __transaction_state value's head read in place, for the coordinator's records as the partition scan streams them
// (scan/transaction-state-read.ts): millions of them, of which the timeout rule reads the state, the epoch and the start
// time, and only a PrepareAbort whole. Building every value with the general reader (decode/protocol/reader.ts) was most
// of `lso`'s time on a busy broker's log dir (bench/RESULTS.md). The general decoder stays the judge: this walk takes a
// value only where it reads it without an error and gives the same fields (test/decode/transaction-value-head.test.ts).
import { bigInt64At } from '../../bytes/int64.js'
import type { TransactionLogValue } from './transaction-state.js'

/** What the coordinator's timeout rule reads of every value as the records stream past (analysis/transaction-join/timed-out.ts) */
export interface TransactionValueHead {
  transactionStatus: number
  producerEpoch: number
  transactionTimeoutMs: number
  /**
   * where transactionStartTimestampMs is in the buffer (read it when it is needed: a BigInt is made per read);
   * transactionLastUpdateTimestampMs is the 8 bytes before it
   */
  startTimestampAt: number
}

// the walk's cursor (module state: one walk at a time, nothing allocated per value)
let p = 0
let lim = 0
let bad = false

/** Kafka's ByteUtils.readUnsignedVarint at p (at most 5 bytes); sets `bad` when it runs out or is longer */
function uvarint(b: Buffer): number {
  let v = 0
  for (let i = 0; i < 5; i++) {
    if (p >= lim) {
      bad = true
      return 0
    }
    const x = b[p++]!
    v += (x & 0x7f) * 2 ** (7 * i)
    if ((x & 0x80) === 0) return v
  }
  bad = true
  return 0
}

/** `n` more bytes fit; else `bad` */
function skip(n: number): void {
  if (n < 0 || n > lim - p) bad = true
  else p += n
}

/**
 * Told each entry of the partition list as the walk passes it: its topic is b[topicAt, topicEnd), its `n` partition
 * ids the int32s from idsAt. The walk may still refuse the value after it (readTransactionValueHead returns false).
 */
export type PartitionEntryVisitor = (b: Buffer, topicAt: number, topicEnd: number, idsAt: number, n: number) => void

/** S0 of the definition (topic, partitionIds), flexible or not; told to `visit` when given */
function partitionEntry(b: Buffer, flexible: boolean, visit?: PartitionEntryVisitor): void {
  let topicAt = p
  let topicEnd = p
  let n: number
  if (flexible) {
    const s = uvarint(b) - 1
    topicAt = p
    skip(s)
    topicEnd = p
    if (bad) return
    n = uvarint(b) - 1
    if (bad || n < 0 || n > lim - p) {
      bad = true
      return
    }
  } else {
    if (lim - p < 2) {
      bad = true
      return
    }
    const s = b.readInt16BE(p)
    p += 2
    topicAt = p
    skip(s)
    topicEnd = p
    if (bad || lim - p < 4) {
      bad = true
      return
    }
    n = b.readInt32BE(p)
    p += 4
  }
  const ids = p
  skip(n < 0 ? -1 : 4 * n)
  if (flexible) skipTagged(b)
  if (!bad) visit?.(b, topicAt, topicEnd, ids, n)
}

/** a struct's tagged fields, none of them known (S0 has none) */
function skipTagged(b: Buffer): void {
  const count = bad ? 0 : uvarint(b)
  for (let i = 0; i < count && !bad; i++) {
    uvarint(b)
    if (!bad) skip(uvarint(b))
  }
}

/** what readTransactionValueHead reads besides the head when asked: the rest of the value (reset at each read) */
export interface TransactionValueRest {
  /** each entry of the partition list, as the walk passes it */
  entry?: PartitionEntryVisitor
  /** the partition list is null (a negative count) */
  nullPartitions: boolean
  previousProducerId: bigint
  nextProducerId: bigint
  clientTransactionVersion: number
  nextProducerEpoch: number
}

/** a rest to read into, its entries told to `entry` */
export function transactionValueRest(entry?: PartitionEntryVisitor): TransactionValueRest {
  return {
    ...(entry !== undefined ? { entry } : {}),
    nullPartitions: false,
    previousProducerId: -1n,
    nextProducerId: -1n,
    clientTransactionVersion: 0,
    nextProducerEpoch: -1,
  }
}

/**
 * TransactionLogValue v0 or v1 at buf[at, at + length) (transaction-coordinator's TransactionLogValue.json: producerId,
 * producerEpoch, transactionTimeoutMs, transactionStatus at fixed places, then the partition list and the two
 * timestamps, then v1's tagged fields), walked in place and checked without building the value: its head into
 * `into`. False when the walk does not take it as a plain value (an unknown version, a length that does not fit, a
 * known tagged field of another size, a varint of more than 5 bytes): decodeTransactionLogValue then decides, and
 * throws where it should. Where this returns true, decodeTransactionLogValue reads the same value without an error
 * (test/decode/transaction-value-head.test.ts).
 */
export function readTransactionValueHead(
  buf: Buffer,
  at: number,
  length: number,
  into: TransactionValueHead,
  rest?: TransactionValueRest,
): boolean {
  if (commonHead(buf, at, length, into)) {
    if (rest !== undefined) commonRest(buf, at, rest)
    return true
  }
  p = at
  lim = at + length
  bad = false
  if (length < 17) return false
  const version = buf.readInt16BE(p)
  if (version !== 0 && version !== 1) return false
  const flexible = version === 1
  const epoch = buf.readInt16BE(p + 10)
  const status = buf.readInt8(p + 16)
  p += 17
  let n: number
  if (flexible) n = uvarint(buf) - 1
  else if (lim - p < 4) return false
  else {
    n = buf.readInt32BE(p)
    p += 4
  }
  // a negative count is a null list (nullable in every version)
  if (bad || n > lim - p) return false
  if (rest !== undefined) {
    rest.nullPartitions = n < 0
    rest.previousProducerId = -1n
    rest.nextProducerId = -1n
    rest.clientTransactionVersion = 0
    rest.nextProducerEpoch = -1
  }
  for (let i = 0; i < n && !bad; i++) partitionEntry(buf, flexible, rest?.entry)
  if (bad || lim - p < 16) return false
  const startAt = p + 8
  p += 16
  if (flexible) {
    let seen = 0
    const count = uvarint(buf)
    for (let i = 0; i < count && !bad; i++) {
      const tag = uvarint(buf)
      const size = bad ? 0 : uvarint(buf)
      // previousProducerId (0) and nextProducerId (1) are int64s, clientTransactionVersion (2) and nextProducerEpoch
      // (3) int16s; a known tag twice is left to the general decoder
      if (!bad && tag <= 3 && (size !== (tag <= 1 ? 8 : 2) || (seen & (1 << tag)) !== 0)) return false
      if (tag <= 3) seen |= 1 << tag
      if (!bad && rest !== undefined && tag <= 3 && lim - p >= size) tagged(buf, tag, rest)
      skip(size)
    }
    if (bad) return false
  }
  into.transactionStatus = status
  into.producerEpoch = epoch
  into.transactionTimeoutMs = buf.readInt32BE(at + 12)
  into.startTimestampAt = startAt
  return true
}

/**
 * readTransactionValueHead's walk of the values a coordinator writes alone (commonHead): true where it took the value,
 * which readTransactionValueRest may then read on from; false: readTransactionValueHead decides
 */
export function readCommonValueHead(b: Buffer, at: number, length: number, into: TransactionValueHead): boolean {
  return commonHead(b, at, length, into)
}

/** the rest of a value readCommonValueHead took (nothing checked again: the head walk checked it) */
export function readCommonValueRest(b: Buffer, at: number, rest: TransactionValueRest): void {
  commonRest(b, at, rest)
}

/**
 * readTransactionValueHead for the values a coordinator writes (every varint one byte, the partition entries without
 * tagged fields), walked with locals only: the walk above, which takes any value, was 40% of the time `lso` spends
 * on each coordinator record. True only where that walk takes the value and reads the same head; false declines
 * (the walk above then decides).
 */
function commonHead(b: Buffer, at: number, length: number, into: TransactionValueHead): boolean {
  const lim = at + length
  if (length < 34) return false
  const version = (b[at]! << 8) | b[at + 1]!
  if (version > 1) return false
  const flexible = version === 1
  let q = at + 17
  let n: number
  if (flexible) {
    const x = b[q++]!
    if (x >= 0x80) return false
    n = x - 1
  } else {
    n = int32At(b, q)
    q += 4
  }
  if (n > lim - q) return false
  for (let i = 0; i < n; i++) {
    if (flexible) {
      // topic (compact string), partition ids (compact array of int32), no tagged fields
      const s = q < lim ? b[q++]! : 0
      if (s === 0 || s >= 0x80 || s - 1 >= lim - q) return false
      q += s - 1
      const c = b[q++]!
      if (c === 0 || c >= 0x80 || 4 * (c - 1) >= lim - q) return false
      q += 4 * (c - 1)
      if (b[q++] !== 0) return false
    } else {
      if (lim - q < 6) return false
      const s = (((b[q]! << 8) | b[q + 1]!) << 16) >> 16
      q += 2
      if (s < 0 || s > lim - q - 4) return false
      q += s
      const c = int32At(b, q)
      q += 4
      if (c < 0 || 4 * c > lim - q) return false
      q += 4 * c
    }
  }
  if (lim - q < 16) return false
  const startAt = q + 8
  q += 16
  if (flexible) {
    // tagged fields: the known ones (0-3) at their sizes, each once
    if (q >= lim) return false
    const count = b[q++]!
    if (count >= 0x80) return false
    let seen = 0
    for (let i = 0; i < count; i++) {
      if (lim - q < 2) return false
      const tag = b[q]!
      const size = b[q + 1]!
      q += 2
      if (tag >= 0x80 || size >= 0x80 || size > lim - q) return false
      if (tag <= 3) {
        if (size !== (tag <= 1 ? 8 : 2) || (seen & (1 << tag)) !== 0) return false
        seen |= 1 << tag
      }
      q += size
    }
  }
  into.transactionStatus = (b[at + 16]! << 24) >> 24
  into.producerEpoch = (((b[at + 10]! << 8) | b[at + 11]!) << 16) >> 16
  into.transactionTimeoutMs = int32At(b, at + 12)
  into.startTimestampAt = startAt
  return true
}

/**
 * The rest of a value commonHead took, read into `rest` by a second walk of the same bytes (which commonHead
 * checked: nothing is checked again): the walk above, which `transactions` used for every coordinator record's
 * partitions and tagged fields, was a third of its cost per record
 */
function commonRest(b: Buffer, at: number, rest: TransactionValueRest): void {
  const flexible = b[at + 1] === 1
  let q = at + 17
  let n: number
  if (flexible) n = b[q++]! - 1
  else {
    n = int32At(b, q)
    q += 4
  }
  rest.nullPartitions = n < 0
  rest.previousProducerId = -1n
  rest.nextProducerId = -1n
  rest.clientTransactionVersion = 0
  rest.nextProducerEpoch = -1
  const visit = rest.entry
  for (let i = 0; i < n; i++) {
    let topicAt: number
    let c: number
    if (flexible) {
      const s = b[q++]!
      topicAt = q
      q += s - 1
      c = b[q++]! - 1
    } else {
      const s = (b[q]! << 8) | b[q + 1]!
      topicAt = q + 2
      q = topicAt + s
      c = int32At(b, q)
      q += 4
    }
    const topicEnd = flexible ? q - 1 : q - 4
    visit?.(b, topicAt, topicEnd, q, c)
    q += 4 * c
    // (a flexible entry's empty tagged fields)
    if (flexible) q++
  }
  q += 16
  if (!flexible) return
  const count = b[q++]!
  for (let i = 0; i < count; i++) {
    const tag = b[q]!
    const size = b[q + 1]!
    q += 2
    if (tag === 0) rest.previousProducerId = bigInt64At(b, q)
    else if (tag === 1) rest.nextProducerId = bigInt64At(b, q)
    else if (tag === 2) rest.clientTransactionVersion = b.readInt16BE(q)
    else if (tag === 3) rest.nextProducerEpoch = b.readInt16BE(q)
    q += size
  }
}

/** the big-endian int32 at b[q], which the caller has bounds-checked (Buffer.readInt32BE validates its argument at each call) */
function int32At(b: Buffer, q: number): number {
  return (b[q]! << 24) | (b[q + 1]! << 16) | (b[q + 2]! << 8) | b[q + 3]!
}

/** a known tagged field of v1 at p (its size checked) into `rest` */
function tagged(b: Buffer, tag: number, rest: TransactionValueRest): void {
  if (tag === 0) rest.previousProducerId = b.readBigInt64BE(p)
  else if (tag === 1) rest.nextProducerId = b.readBigInt64BE(p)
  else if (tag === 2) rest.clientTransactionVersion = b.readInt16BE(p)
  else rest.nextProducerEpoch = b.readInt16BE(p)
}

type TopicPartitions = { topic: string; partitionIds: number[] }

const HEAD: TransactionValueHead = {
  transactionStatus: 0,
  producerEpoch: 0,
  transactionTimeoutMs: 0,
  startTimestampAt: 0,
}

/**
 * The whole TransactionLogValue at buf[at, at + length) read by the same walk, as decodeTransactionLogValue reads it
 * (the tagged fields at their defaults when absent), or null where the walk does not take it (the general decoder
 * then decides): for the readers that need every record whole (transactions' join of the coordinator's episodes)
 * without the general protocol reader's cost per field (test/decode/transaction-value-head.test.ts)
 */
export function readTransactionValue(buf: Buffer, at: number, length: number): TransactionLogValue | null {
  const partitions: TopicPartitions[] = []
  const rest = transactionValueRest((b, topicAt, topicEnd, idsAt, n) => {
    const partitionIds: number[] = []
    for (let i = 0; i < n; i++) partitionIds.push(b.readInt32BE(idsAt + 4 * i))
    partitions.push({ topic: b.toString('utf8', topicAt, topicEnd), partitionIds })
  })
  if (!readTransactionValueHead(buf, at, length, HEAD, rest)) return null
  return {
    version: buf.readInt16BE(at),
    producerId: buf.readBigInt64BE(at + 2),
    previousProducerId: rest.previousProducerId,
    nextProducerId: rest.nextProducerId,
    producerEpoch: HEAD.producerEpoch,
    nextProducerEpoch: rest.nextProducerEpoch,
    transactionTimeoutMs: HEAD.transactionTimeoutMs,
    transactionStatus: HEAD.transactionStatus,
    transactionPartitions: rest.nullPartitions ? null : partitions,
    transactionLastUpdateTimestampMs: buf.readBigInt64BE(HEAD.startTimestampAt - 8),
    transactionStartTimestampMs: buf.readBigInt64BE(HEAD.startTimestampAt),
    clientTransactionVersion: rest.clientTransactionVersion,
  }
}
