// kafka-dump-log `--transaction-log-decoder` text for each Kafka release:
//   3.9, 4.0  TransactionLog.formatRecordKeyAndValue: transaction_metadata::transactionalId=<id> and
//             producerId:..,producerEpoch:..,state=..,partitions=[..],txnLastUpdateTimestamp=..,txnTimeoutMs=..
//   4.1+      CoordinatorRecordMessageParser JSON (KAFKA-18616), transactionStatus a number;
//   4.4       transactionStatus the state name (KAFKA-20712), the id as a string when it has no state.
import { DecodeError } from '../../decode/errors.js'
import type { SchemaStruct } from '../../decode/protocol/types.js'
import type { KafkaRelease } from '../../decode/protocol/types.js'
import { UnknownRecordTypeError } from '../../decode/protocol/coordinator-serde.js'
import {
  decodeTransactionLogRecord,
  TRANSACTION_STATES,
  transactionLogValue,
} from '../../decode/topics/transaction-state.js'
import { schemaJsonValue } from './kafka-json.js'
import { formatCoordinatorRecord } from './coordinator-text.js'
import type { FormattedRecord, RecordPositions } from './formatted-record.js'
import { NO_POSITIONS } from './formatted-record.js'
import { scalaHashSetOrder } from './scala-hash-set.js'

interface TxnVariant {
  style: 'text' | 'json'
  statusName: boolean
}

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

function statusNames(data: SchemaStruct): SchemaStruct {
  // an id with no state prints as its number, but as a JSON string (the TextNode replacing the number)
  const id = data.transactionStatus as number
  return { ...data, transactionStatus: TRANSACTION_STATES[id] ?? String(id) }
}

export function formatTransactionLogRecord(
  key: Buffer | null,
  value: Buffer | null,
  offset: bigint,
  release: KafkaRelease = '3.9',
  at: RecordPositions = NO_POSITIONS,
): FormattedRecord {
  const v = VARIANTS[release]
  if (v.style === 'json') {
    if (key === null)
      return {
        error: `Failed to decode message at offset ${offset} using the specified decoder (message had a missing key)`,
      }
    const variant = {
      release,
      knows: () => true,
      valueVersionField: 'version',
      ...(v.statusName ? { valueData: statusNames } : {}),
    }
    return formatCoordinatorRecord(
      () => decodeTransactionLogRecord(key, value, release, at.key, at.value),
      offset,
      variant,
      at.key,
    )
  }
  return formatText(key, value, offset, at, release)
}

/** 3.9/4.0 text from one decode; --json gets the same {type, data} / {version, data} values as 4.1+ */
function formatText(
  key: Buffer | null,
  value: Buffer | null,
  offset: bigint,
  at: RecordPositions,
  release: KafkaRelease,
): FormattedRecord {
  if (key === null)
    return {
      error: `Failed to decode message at offset ${offset} using the transaction log decoder (message had a missing key)`,
    }
  try {
    const rec = decodeTransactionLogRecord(key, value, release, at.key, at.value)
    const keyText = `transaction_metadata::transactionalId=${rec.key.transactionalId as string}`
    const keyJson = { type: '0', data: schemaJsonValue(rec.key) }
    if (rec.value === null) return { key: keyText, keyJson, payload: '<DELETE>', payloadJson: null }
    if (rec.unknownVersion)
      throw new DecodeError(
        'BAD_RECORD',
        `Unknown version ${rec.value.version} from the transaction log message value`,
        at.value,
        { field: 'version' },
      )
    const d = transactionLogValue(rec.value.version, rec.value.data)
    const state = TRANSACTION_STATES[d.transactionStatus]
    if (state === undefined)
      throw new DecodeError('BAD_RECORD', `Unknown transaction state id ${d.transactionStatus}`, at.value, {
        field: 'transactionStatus',
      })
    // TransactionMetadata's topicPartitions is a Scala mutable.HashSet: its iteration order, and empty when Empty
    const tps =
      state === 'Empty'
        ? []
        : scalaHashSetOrder(
            (d.transactionPartitions ?? []).flatMap((t) =>
              t.partitionIds.map((partition) => ({ topic: t.topic, partition })),
            ),
          )
    const payload =
      `producerId:${d.producerId},producerEpoch:${d.producerEpoch},state=${state},` +
      `partitions=[${tps.map((t) => `${t.topic}-${t.partition}`).join(',')}],` +
      `txnLastUpdateTimestamp=${d.transactionLastUpdateTimestampMs},txnTimeoutMs=${d.transactionTimeoutMs}`
    const out: FormattedRecord = {
      key: keyText,
      keyJson,
      payload,
      payloadJson: { version: String(d.version), data: schemaJsonValue(rec.value.data) },
    }
    // Kafka 3.9/4.0 stop the whole dump with a NullPointerException here; tsdump prints the record and says so
    if (d.transactionPartitions === null)
      out.finding = {
        code: 'BAD_INTERNAL_RECORD',
        message: 'transactionPartitions is null (Kafka 3.9/4.0 abort the dump on this record)',
        position: at.value,
      }
    return out
  } catch (e) {
    // TransactionLog.readTxnRecordKey: a key version other than 0 is an UnknownKey, printed without a value
    if (e instanceof UnknownRecordTypeError) return { key: `unknown::version=${e.recordType}` }
    if (e instanceof DecodeError)
      return {
        error: `Error at offset ${offset}: ${e.message}`,
        finding: { code: 'BAD_INTERNAL_RECORD', message: e.message, position: e.position },
      }
    throw e
  }
}
