// A __transaction_state value's every field read in place, for `transactions`, which cuts each transactional id's
// records into episodes as the partition scan streams them (scan/transactions-collect.ts): a million records,
// each of which the general reader (decode/protocol/reader.ts) built as a struct, its partition list as objects,
// then converted again. The head walk (transaction-value-head.ts, lso's) fills one reused object here, the
// partitions as `topic-partition` labels of a table kept per topic. The general decoder stays the judge: the walk
// takes a value only where it reads it without an error and gives the same fields
// (test/decode/transaction-value-fields.test.ts); elsewhere it refuses and the caller decodes it with
// decodeTransactionLogValue.
import type { AsciiIntern } from '../../bytes/ascii-intern.js'
import { bigInt64At } from '../../bytes/int64.js'
import type { TransactionValueHead, TransactionValueRest } from './transaction-value-head.js'
import { readCommonValueRest, readTransactionValueHead, transactionValueRest } from './transaction-value-head.js'

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

/** partitions above this are labelled anew each time (a label table per topic holds up to this many) */
const MAX_LABELLED = 4095

/** the `topic-partition` labels of each topic seen, so that the same partition is one string (a few per topic) */
export class PartitionLabels {
  private readonly byTopic = new Map<string, string[]>()
  label(topic: string, partition: number): string {
    if (partition < 0 || partition > MAX_LABELLED) return `${topic}-${partition}`
    const l = this.of(topic)
    return (l[partition] ??= `${topic}-${partition}`)
  }

  /** the table of `topic`'s labels by partition (up to MAX_LABELLED), filled as they are made */
  of(topic: string): string[] {
    let l = this.byTopic.get(topic)
    if (l === undefined) {
      l = []
      this.byTopic.set(topic, l)
    }
    return l
  }
}

/** what readTransactionValueFields walks with: the head walk's rest, its partition entries as labels into `partitions` */
export class FieldsWalk {
  private partitions: string[] = []
  readonly head: TransactionValueHead = {
    transactionStatus: 0,
    producerEpoch: 0,
    transactionTimeoutMs: 0,
    startTimestampAt: 0,
  }
  readonly rest: TransactionValueRest

  constructor(intern: AsciiIntern, labels: PartitionLabels) {
    this.rest = transactionValueRest((b, topicAt, topicEnd, idsAt, n) => {
      const topic = intern.get(b, topicAt, topicEnd - topicAt)
      // the topic's labels looked up once per entry, each id read byte by byte (the walk checked they are there;
      // Buffer.readInt32BE validates its argument at each call)
      const l = labels.of(topic)
      for (let i = 0; i < n; i++) {
        const q = idsAt + 4 * i
        const p = (b[q]! << 24) | (b[q + 1]! << 16) | (b[q + 2]! << 8) | b[q + 3]!
        this.partitions.push(p < 0 || p > MAX_LABELLED ? `${topic}-${p}` : (l[p] ??= `${topic}-${p}`))
      }
    })
  }

  /** a new list for the next value's entries; the one filled so far */
  take(): string[] {
    const l = this.partitions
    this.partitions = []
    return l
  }
}

/**
 * TransactionLogValue v0 or v1 at buf[at, at + length) into `into`, by the head walk of transaction-value-head.ts
 * (one walk of the format for lso's heads and this): false where that walk does not take it as a plain value;
 * decodeTransactionLogValue then decides, and throws where it should. Where this returns true,
 * decodeTransactionLogValue reads the same value without an error. `head`: what readCommonValueHead read of this
 * same value (the coordinator's reader walks every head for its timeout rule): the head is not walked again.
 */
export function readTransactionValueFields(
  buf: Buffer,
  at: number,
  length: number,
  into: TransactionValueFields,
  walk: FieldsWalk,
  head: TransactionValueHead | null = null,
): boolean {
  walk.take()
  let ok = true
  if (head === null) ok = readTransactionValueHead(buf, at, length, walk.head, walk.rest)
  else readCommonValueRest(buf, at, walk.rest)
  const partitions = walk.take()
  if (!ok) return false
  const h = head ?? walk.head
  const r = walk.rest
  into.producerId = bigInt64At(buf, at + 2)
  into.producerEpoch = h.producerEpoch
  into.transactionTimeoutMs = h.transactionTimeoutMs
  into.transactionStatus = h.transactionStatus
  into.partitions = r.nullPartitions ? null : partitions
  into.transactionLastUpdateTimestampMs = bigInt64At(buf, h.startTimestampAt - 8)
  into.transactionStartTimestampMs = bigInt64At(buf, h.startTimestampAt)
  into.previousProducerId = r.previousProducerId
  into.nextProducerId = r.nextProducerId
  into.clientTransactionVersion = r.clientTransactionVersion
  return true
}
