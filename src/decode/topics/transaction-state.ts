// __transaction_state records (TransactionLogKey / TransactionLogValue, generated from
// transaction-coordinator's definitions): key type 0 = {transactionalId}, value v0-1 (flexible 1+)
// with tagged fields previousProducerId (0), nextProducerId (1), clientTransactionVersion (2) and
// nextProducerEpoch (3, KIP-939).
import { ByteReader } from '../../bytes/byte-reader.js'
import { decodeCoordinatorRecord } from '../protocol/coordinator-serde.js'
import type { CoordinatorRecord } from '../protocol/coordinator-serde.js'
import { readMessage, SchemaReadError } from '../protocol/reader.js'
import { schemasFor } from '../protocol/registry.js'
import type { KafkaRelease, SchemaStruct } from '../protocol/types.js'
import { atLeast, inRange } from '../protocol/types.js'
import * as table from '../protocol/generated/transaction-state-messages.js'

/** TransactionState ids (transaction-coordinator TransactionState.java) */
export const TRANSACTION_STATES = [
  'Empty',
  'Ongoing',
  'PrepareCommit',
  'PrepareAbort',
  'CompleteCommit',
  'CompleteAbort',
  'Dead',
  'PrepareEpochFence',
] as const

export function transactionStateName(status: number): string {
  return TRANSACTION_STATES[status] ?? `Unknown(${status})`
}

export interface TransactionLogKey {
  version: number
  transactionalId: string | null
}

export interface TransactionLogValue {
  version: number
  producerId: bigint
  previousProducerId: bigint
  nextProducerId: bigint
  producerEpoch: number
  nextProducerEpoch: number
  transactionTimeoutMs: number
  transactionStatus: number
  transactionPartitions: Array<{ topic: string; partitionIds: number[] }> | null
  transactionLastUpdateTimestampMs: bigint
  transactionStartTimestampMs: bigint
  clientTransactionVersion: number
}

const schemas = (release: KafkaRelease) => schemasFor(table, release)

/** Decode as Kafka `release` does (coordinator serde); @throws UnknownRecordTypeError, SchemaReadError */
export function decodeTransactionLogRecord(
  key: Buffer,
  value: Buffer | null,
  release: KafkaRelease = '4.4',
  keyPosition = 0,
  valuePosition = 0,
): CoordinatorRecord {
  return decodeCoordinatorRecord(
    schemas(release),
    key,
    value,
    { checkValueVersion: atLeast(release, '4.1') },
    keyPosition,
    valuePosition,
  )
}

/** transactionalId is null when the key type is not 0 (3.9's UnknownKey). @throws DecodeError */
export function decodeTransactionLogKey(key: Buffer, position = 0): TransactionLogKey {
  const r = new ByteReader(key, position)
  const version = r.readInt16('version')
  if (version !== 0) return { version, transactionalId: null }
  const def = schemas('4.4').coordinator.get(0)![0]
  return { version, transactionalId: readMessage(r, def, 0).transactionalId as string }
}

/**
 * The transactionalId of the key at buf[at, at + length) (null: a key of another type), read in place for the
 * coordinator's records as they stream past; decodeTransactionLogKey decides whatever is not a plain v0 key (and throws
 * where it throws). @throws DecodeError
 */
export function transactionalIdAt(buf: Buffer, at: number, length: number, position = 0): string | null {
  if (length >= 4) {
    if (buf.readInt16BE(at) !== 0) return null
    const n = buf.readInt16BE(at + 2)
    if (n >= 0 && n <= length - 4) return buf.toString('utf8', at + 4, at + 4 + n)
  }
  return decodeTransactionLogKey(buf.subarray(at, at + length), position).transactionalId
}

/** The value with every field, tagged ones at their defaults when absent. @throws DecodeError for malformed values and unknown versions */
export function decodeTransactionLogValue(value: Buffer, position = 0): TransactionLogValue {
  const def = schemas('4.4').coordinator.get(0)![1]
  const r = new ByteReader(value, position)
  const version = r.readInt16('version')
  if (!inRange(def.validVersions, version))
    throw new SchemaReadError(
      `Unknown version ${version} from the transaction log message value`,
      position,
      `Unknown version ${version} from the transaction log message value`,
      'version',
    )
  return transactionLogValue(version, readMessage(r, def, version))
}

export function transactionLogValue(version: number, d: SchemaStruct): TransactionLogValue {
  return {
    version,
    producerId: d.producerId as bigint,
    previousProducerId: (d.previousProducerId as bigint | undefined) ?? -1n,
    nextProducerId: (d.nextProducerId as bigint | undefined) ?? -1n,
    producerEpoch: d.producerEpoch as number,
    nextProducerEpoch: (d.nextProducerEpoch as number | undefined) ?? -1,
    transactionTimeoutMs: d.transactionTimeoutMs as number,
    transactionStatus: d.transactionStatus as number,
    transactionPartitions: d.transactionPartitions as TransactionLogValue['transactionPartitions'],
    transactionLastUpdateTimestampMs: d.transactionLastUpdateTimestampMs as bigint,
    transactionStartTimestampMs: d.transactionStartTimestampMs as bigint,
    clientTransactionVersion: (d.clientTransactionVersion as number | undefined) ?? 0,
  }
}
