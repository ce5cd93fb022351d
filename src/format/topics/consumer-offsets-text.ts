// kafka-dump-log `--offsets-decoder` text for each Kafka release. The differences between releases
// are the rows of VARIANTS; everything else is the decoded record (decode/topics/consumer-offsets.ts)
// written as Kafka's generated JsonConverters write it.
import { decodeGroupRecord } from '../../decode/topics/consumer-offsets.js'
import type { KafkaRelease } from '../../decode/protocol/types.js'
import { formatCoordinatorRecord, unknownType } from './coordinator-text.js'
import type { FormattedRecord, RecordPositions } from './formatted-record.js'
import { NO_POSITIONS } from './formatted-record.js'

interface OffsetsVariant {
  /** highest record type the release's parser prints (Infinity: every type its definitions have) */
  maxType: number
  missingKey: (offset: bigint) => string
  /** a value version outside validVersions is UnknownRecordVersionException */
  checkValueVersion: boolean
}

const OLD_MISSING_KEY = (o: bigint): string =>
  `Failed to decode message at offset ${o} using offset topic decoder (message had a missing key)`
const NEW_MISSING_KEY = (o: bigint): string =>
  `Failed to decode message at offset ${o} using the specified decoder (message had a missing key)`

const VARIANTS: Readonly<Record<KafkaRelease, OffsetsVariant>> = {
  // KAFKA-16470 (KIP-848): the hand-written parser knows types 0-8
  '3.9': { maxType: 8, missingKey: OLD_MISSING_KEY, checkValueVersion: false },
  // KAFKA-16733 (share groups 9-15), KAFKA-18234 (regular expression 16)
  '4.0': { maxType: 16, missingKey: OLD_MISSING_KEY, checkValueVersion: false },
  // KAFKA-18457 / KAFKA-18616: generated CoordinatorRecordJsonConverters, every type, one missing-key text;
  // KAFKA-18672: unknown value versions are reported
  '4.1': { maxType: Infinity, missingKey: NEW_MISSING_KEY, checkValueVersion: true },
  '4.2': { maxType: Infinity, missingKey: NEW_MISSING_KEY, checkValueVersion: true },
  '4.3': { maxType: Infinity, missingKey: NEW_MISSING_KEY, checkValueVersion: true },
  '4.4': { maxType: Infinity, missingKey: NEW_MISSING_KEY, checkValueVersion: true },
}

export function formatOffsetsRecord(
  key: Buffer | null,
  value: Buffer | null,
  offset: bigint,
  release: KafkaRelease = '3.9',
  at: RecordPositions = NO_POSITIONS,
): FormattedRecord {
  const v = VARIANTS[release]
  if (key === null) return { error: v.missingKey(offset) }
  // the parser reads the key's type first and knows nothing of the value of a type beyond its own (3.9 on a 4.4 share-group record)
  if (key.length >= 2 && key.readInt16BE(0) > v.maxType) return unknownType(key.readInt16BE(0), offset, at.key)
  return formatCoordinatorRecord(
    () => decodeGroupRecord(key, value, release, { checkValueVersion: v.checkValueVersion }, at.key, at.value),
    offset,
    { release, knows: (t) => t <= v.maxType, valueVersionField: 'version' },
    at.key,
  )
}
