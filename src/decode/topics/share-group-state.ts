// __share_group_state records (KIP-932): type 0 ShareSnapshot, type 1 ShareUpdate, generated from the
// share coordinator's definitions. The value schema of 4.0 (early access) differs from 4.1+ at the same
// version 0 (SnapshotEpoch uint16 -> int32, CreateTimestamp/WriteTimestamp added) and 4.2 added the
// tagged DeliveryCompleteCount, so bytes are read with the definitions of the release that wrote them.
import { decodeCoordinatorRecord } from '../protocol/coordinator-serde.js'
import type { CoordinatorRecord, SerdeOptions } from '../protocol/coordinator-serde.js'
import { schemasFor } from '../protocol/registry.js'
import type { KafkaRelease } from '../protocol/types.js'
import * as table from '../protocol/generated/share-group-state-messages.js'

/** @throws UnknownRecordTypeError, SchemaReadError */
export function decodeShareGroupStateRecord(
  key: Buffer,
  value: Buffer | null,
  release: KafkaRelease = '4.4',
  opts: SerdeOptions = { checkValueVersion: true },
  keyPosition = 0,
  valuePosition = 0,
): CoordinatorRecord {
  return decodeCoordinatorRecord(schemasFor(table, release), key, value, opts, keyPosition, valuePosition)
}
