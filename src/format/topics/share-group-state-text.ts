// kafka-dump-log `--share-group-state-decoder` text (4.0+, KAFKA-17633) for each Kafka release.
import { decodeShareGroupStateRecord } from '../../decode/topics/share-group-state.js'
import type { KafkaRelease } from '../../decode/protocol/types.js'
import { formatCoordinatorRecord } from './coordinator-text.js'
import type { FormattedRecord, RecordPositions } from './formatted-record.js'
import { NO_POSITIONS } from './formatted-record.js'

interface ShareVariant {
  valueVersionField: string
  missingKey: (offset: bigint) => string
  checkValueVersion: boolean
}

const V40: ShareVariant = {
  // 4.0's hand-written ShareGroupStateMessageParser wrote the value version under "type" too
  valueVersionField: 'type',
  missingKey: (o) =>
    `Failed to decode message at offset ${o} using share group state topic decoder (message had a missing key)`,
  checkValueVersion: false,
}
// KAFKA-18616: CoordinatorRecordMessageParser, shared with the offsets and transaction-log parsers
const V41: ShareVariant = {
  valueVersionField: 'version',
  missingKey: (o) => `Failed to decode message at offset ${o} using the specified decoder (message had a missing key)`,
  checkValueVersion: true,
}

/** 3.9 has no --share-group-state-decoder; its row is 4.0's so a 3.9 caller still gets text */
const VARIANTS: Readonly<Record<KafkaRelease, ShareVariant>> = {
  '3.9': V40,
  '4.0': V40,
  '4.1': V41,
  '4.2': V41,
  '4.3': V41,
  '4.4': V41,
}

export function formatShareGroupStateRecord(
  key: Buffer | null,
  value: Buffer | null,
  offset: bigint,
  release: KafkaRelease = '4.4',
  at: RecordPositions = NO_POSITIONS,
): FormattedRecord {
  const v = VARIANTS[release]
  if (key === null) return { error: v.missingKey(offset) }
  const schemaRelease = release === '3.9' ? '4.0' : release
  return formatCoordinatorRecord(
    () =>
      decodeShareGroupStateRecord(
        key,
        value,
        schemaRelease,
        { checkValueVersion: v.checkValueVersion },
        at.key,
        at.value,
      ),
    offset,
    { release, knows: () => true, valueVersionField: v.valueVersionField },
    at.key,
  )
}
