// kafka-dump-log `--transaction-log-decoder` text for each Kafka release:
//   3.9, 4.0  TransactionLog.formatRecordKeyAndValue: transaction_metadata::transactionalId=<id> and
//             producerId:..,producerEpoch:..,state=..,partitions=[..],txnLastUpdateTimestamp=..,txnTimeoutMs=..
//   4.1+      CoordinatorRecordMessageParser JSON (KAFKA-18616), transactionStatus a number;
//   4.4       transactionStatus the state name (KAFKA-20712), the id as a string when it has no state.
import { DecodeError } from '../../decode/errors.js'
import type { SchemaStruct } from '../../decode/schema/types.js'
import type { KafkaRelease } from '../../decode/schema/types.js'
import { decodeTransactionLogKey, decodeTransactionLogRecord, decodeTransactionLogValue, TRANSACTION_STATES } from '../../decode/topics/transaction-state.js'
import { formatCoordinatorRecord } from './coordinator-text.js'
import type { FormattedRecord, RecordPositions } from './formatted-record.js'
import { NO_POSITIONS } from './formatted-record.js'
import { scalaHashSetOrder } from './scala-hash-set.js'

interface TxnVariant { style: 'text' | 'json', statusName: boolean }

const VARIANTS: Readonly<Record<KafkaRelease, TxnVariant>> = {
  '3.9': { style: 'text', statusName: false },
  '4.0': { style: 'text', statusName: false },
  // KAFKA-18616: the generated JSON converters replace TransactionLog.formatRecordKeyAndValue
  '4.1': { style: 'json', statusName: false },
  '4.2': { style: 'json', statusName: false },
  '4.3': { style: 'json', statusName: false },
  // KAFKA-20712: TransactionState.fromId(id).stateName()
  '4.4': { style: 'json', statusName: true },
}

function statusNames (data: SchemaStruct): SchemaStruct {
  // an id with no state prints as its number, but as a JSON string (the TextNode replacing the number)
  const id = data.transactionStatus as number
  return { ...data, transactionStatus: TRANSACTION_STATES[id] ?? String(id) }
}

export function formatTransactionLogRecord (key: Buffer | null, value: Buffer | null, offset: bigint, release: KafkaRelease = '3.9',
  at: RecordPositions = NO_POSITIONS): FormattedRecord {
  const v = VARIANTS[release]
  if (v.style === 'json') {
    if (key === null) return { error: `Failed to decode message at offset ${offset} using the specified decoder (message had a missing key)` }
    const variant = { release, knows: () => true, valueVersionField: 'version', ...(v.statusName ? { valueData: statusNames } : {}) }
    return formatCoordinatorRecord(() => decodeTransactionLogRecord(key, value, release, at.key, at.value), offset, variant, at.key)
  }
  const text = formatText(key, value, offset, at)
  if (key === null) return text
  // --json gets the same {type, data} / {version, data} values in every release
  const json = formatCoordinatorRecord(() => decodeTransactionLogRecord(key, value, release, at.key, at.value), offset, { release, knows: () => true, valueVersionField: 'version' }, at.key)
  if (json.keyJson !== undefined) text.keyJson = json.keyJson
  if (json.payloadJson !== undefined) text.payloadJson = json.payloadJson
  return text
}

function formatText (key: Buffer | null, value: Buffer | null, offset: bigint, at: RecordPositions): FormattedRecord {
  if (key === null) return { error: `Failed to decode message at offset ${offset} using the transaction log decoder (message had a missing key)` }
  try {
    const k = decodeTransactionLogKey(key, at.key)
    if (k.transactionalId === null) return { key: `unknown::version=${k.version}` }
    const keyText = `transaction_metadata::transactionalId=${k.transactionalId}`
    if (value === null) return { key: keyText, payload: '<DELETE>' }
    const d = decodeTransactionLogValue(value, at.value)
    const state = TRANSACTION_STATES[d.transactionStatus]
    if (state === undefined) throw new DecodeError('BAD_RECORD', `Unknown transaction state id ${d.transactionStatus}`, at.value, { field: 'transactionStatus' })
    // TransactionMetadata's topicPartitions is a Scala mutable.HashSet: its iteration order, and empty when Empty
    const tps = state === 'Empty' ? [] : scalaHashSetOrder((d.transactionPartitions ?? []).flatMap((t) => t.partitionIds.map((partition) => ({ topic: t.topic, partition }))))
    const payload = `producerId:${d.producerId},producerEpoch:${d.producerEpoch},state=${state},` +
      `partitions=[${tps.map((t) => `${t.topic}-${t.partition}`).join(',')}],` +
      `txnLastUpdateTimestamp=${d.transactionLastUpdateTimestampMs},txnTimeoutMs=${d.transactionTimeoutMs}`
    const out: FormattedRecord = { key: keyText, payload }
    // Kafka 3.9/4.0 stop the whole dump with a NullPointerException here; tsdump prints the record and says so
    if (d.transactionPartitions === null) out.finding = { code: 'BAD_INTERNAL_RECORD', message: 'transactionPartitions is null (Kafka 3.9/4.0 abort the dump on this record)', position: at.value }
    return out
  } catch (e) {
    if (e instanceof DecodeError) return { error: `Error at offset ${offset}: ${e.message}`, finding: { code: 'BAD_INTERNAL_RECORD', message: e.message, position: e.position } }
    throw e
  }
}
