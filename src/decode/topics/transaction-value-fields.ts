// A __transaction_state value's every field read in place, for `transactions`, which cuts each transactional id's
// records into episodes as the partition scan streams them (scan/transactions-collect.ts): a million records,
// each of which the general reader (decode/protocol/reader.ts) built as a struct, its partition list as objects,
// then converted again. This walk fills one reused object, the partitions as `topic-partition` labels of a table
// kept per topic. The general decoder stays the judge: the walk takes a value only where it reads it without an
// error and gives the same fields (test/decode/transaction-value-fields.test.ts); elsewhere it refuses and the
// caller decodes it with decodeTransactionLogValue.
import type { AsciiIntern } from '../../bytes/ascii-intern.js'

/** TransactionLogValue (transaction-coordinator's TransactionLogValue.json), tagged fields at their defaults when absent */
export interface TransactionValueFields {
  producerId: bigint
  previousProducerId: bigint
  nextProducerId: bigint
  producerEpoch: number
  transactionTimeoutMs: number
  transactionStatus: number
  /** `topic-partition` of each entry of transactionPartitions, in the value's order (null: a null list) */
  partitions: string[] | null
  transactionLastUpdateTimestampMs: bigint
  transactionStartTimestampMs: bigint
  clientTransactionVersion: number
}

/** an empty set of fields to read into */
export function transactionValueFields(): TransactionValueFields {
  return {
    producerId: -1n,
    previousProducerId: -1n,
    nextProducerId: -1n,
    producerEpoch: -1,
    transactionTimeoutMs: 0,
    transactionStatus: -1,
    partitions: null,
    transactionLastUpdateTimestampMs: -1n,
    transactionStartTimestampMs: -1n,
    clientTransactionVersion: 0,
  }
}

/** the `topic-partition` labels of each topic seen, so that the same partition is one string (a few per topic) */
export class PartitionLabels {
  private readonly byTopic = new Map<string, string[]>()
  label(topic: string, partition: number): string {
    if (partition < 0 || partition > 4095) return `${topic}-${partition}`
    let l = this.byTopic.get(topic)
    if (l === undefined) {
      l = []
      this.byTopic.set(topic, l)
    }
    return (l[partition] ??= `${topic}-${partition}`)
  }
}

// the walk's cursor (module state: one walk at a time)
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

/** S0 of the definition (topic, partitionIds; flexible: its tagged fields, none known), each id's label to `out` */
function partitionEntry(
  b: Buffer,
  flexible: boolean,
  out: string[],
  intern: AsciiIntern,
  labels: PartitionLabels,
): void {
  let len: number
  if (flexible) len = uvarint(b) - 1
  else if (lim - p < 2) len = -1
  else {
    len = b.readInt16BE(p)
    p += 2
  }
  // a null or cut topic: the general decoder fails (topic is not nullable) or says how
  if (bad || len < 0 || len > lim - p) {
    bad = true
    return
  }
  const topic = intern.get(b, p, len)
  p += len
  let n: number
  if (flexible) n = uvarint(b) - 1
  else if (lim - p < 4) n = -1
  else {
    n = b.readInt32BE(p)
    p += 4
  }
  if (bad || n < 0 || 4 * n > lim - p) {
    bad = true
    return
  }
  for (let i = 0; i < n; i++) out.push(labels.label(topic, b.readInt32BE(p + 4 * i)))
  p += 4 * n
  if (!flexible) return
  const count = uvarint(b)
  for (let i = 0; i < count && !bad; i++) {
    uvarint(b)
    const size = bad ? 0 : uvarint(b)
    if (!bad && size > lim - p) bad = true
    else p += size
  }
}

/**
 * TransactionLogValue v0 or v1 at buf[at, at + length) into `into`; false when the walk does not take it as a plain
 * value (an unknown version, a length that does not fit, a null where none may be, a known tagged field of another
 * size or twice): decodeTransactionLogValue then decides, and throws where it should. Where this returns true,
 * decodeTransactionLogValue reads the same value without an error.
 */
export function readTransactionValueFields(
  buf: Buffer,
  at: number,
  length: number,
  into: TransactionValueFields,
  intern: AsciiIntern,
  labels: PartitionLabels,
): boolean {
  p = at
  lim = at + length
  bad = false
  if (length < 17) return false
  const version = buf.readInt16BE(p)
  if (version !== 0 && version !== 1) return false
  const flexible = version === 1
  let n: number
  p += 17
  if (flexible) n = uvarint(buf) - 1
  else if (lim - p < 4) return false
  else {
    n = buf.readInt32BE(p)
    p += 4
  }
  // a negative count is a null list (nullable in every version)
  if (bad || n > lim - p) return false
  const partitions: string[] | null = n < 0 ? null : []
  for (let i = 0; i < n && !bad; i++) partitionEntry(buf, flexible, partitions!, intern, labels)
  if (bad || lim - p < 16) return false
  const times = p
  p += 16
  let previous = -1n
  let next = -1n
  let client = 0
  if (flexible) {
    let seen = 0
    const count = uvarint(buf)
    for (let i = 0; i < count && !bad; i++) {
      const tag = uvarint(buf)
      const size = bad ? 0 : uvarint(buf)
      if (bad || size > lim - p) return false
      if (tag <= 3) {
        // previousProducerId (0) and nextProducerId (1) are int64s, nextProducerEpoch (3) and clientTransactionVersion (2) int16s
        if (size !== (tag <= 1 ? 8 : 2) || (seen & (1 << tag)) !== 0) return false
        seen |= 1 << tag
        if (tag === 0) previous = buf.readBigInt64BE(p)
        else if (tag === 1) next = buf.readBigInt64BE(p)
        else if (tag === 2) client = buf.readInt16BE(p)
      }
      p += size
    }
    if (bad) return false
  }
  into.producerId = buf.readBigInt64BE(at + 2)
  into.producerEpoch = buf.readInt16BE(at + 10)
  into.transactionTimeoutMs = buf.readInt32BE(at + 12)
  into.transactionStatus = buf.readInt8(at + 16)
  into.partitions = partitions
  into.transactionLastUpdateTimestampMs = buf.readBigInt64BE(times)
  into.transactionStartTimestampMs = buf.readBigInt64BE(times + 8)
  into.previousProducerId = previous
  into.nextProducerId = next
  into.clientTransactionVersion = client
  return true
}
