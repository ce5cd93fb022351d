// A __transaction_state value's head read in place, for the coordinator's records as the partition scan streams them
// (scan/transaction-state-read.ts): millions of them, of which the timeout rule reads the state, the epoch and the start
// time, and only a PrepareAbort whole. Building every value with the general reader (decode/protocol/reader.ts) was most
// of `lso`'s time on a busy broker's log dir (bench/RESULTS.md). The general decoder stays the judge: this walk takes a
// value only where it reads it without an error and gives the same fields (test/decode/transaction-value-head.test.ts).
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

/** S0 of the definition (topic, partitionIds), flexible or not */
function partitionEntry(b: Buffer, flexible: boolean): void {
  if (flexible) {
    skip(uvarint(b) - 1)
    if (bad) return
    const n = uvarint(b) - 1
    if (bad || n < 0 || n > lim - p) {
      bad = true
      return
    }
    skip(4 * n)
    skipTagged(b)
    return
  }
  if (lim - p < 2) {
    bad = true
    return
  }
  const s = b.readInt16BE(p)
  p += 2
  skip(s)
  if (bad || lim - p < 4) {
    bad = true
    return
  }
  const n = b.readInt32BE(p)
  p += 4
  skip(n < 0 ? -1 : 4 * n)
}

/** a struct's tagged fields, none of them known (S0 has none) */
function skipTagged(b: Buffer): void {
  const count = bad ? 0 : uvarint(b)
  for (let i = 0; i < count && !bad; i++) {
    uvarint(b)
    if (!bad) skip(uvarint(b))
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
export function readTransactionValueHead(buf: Buffer, at: number, length: number, into: TransactionValueHead): boolean {
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
  for (let i = 0; i < n && !bad; i++) partitionEntry(buf, flexible)
  if (bad || lim - p < 16) return false
  const startAt = p + 8
  p += 16
  if (flexible) {
    const count = uvarint(buf)
    for (let i = 0; i < count && !bad; i++) {
      const tag = uvarint(buf)
      const size = bad ? 0 : uvarint(buf)
      // previousProducerId (0) and nextProducerId (1) are int64s, clientTransactionVersion (2) and nextProducerEpoch (3) int16s
      if (!bad && tag <= 3 && size !== (tag <= 1 ? 8 : 2)) return false
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
