// Control records (Kafka ControlRecordType, EndTransactionMarker, ControlRecordUtils).
//   key:   version int16 | ControlRecordTypeSchema {type int16}   (types: 0 ABORT, 1 COMMIT, 2 LEADER_CHANGE,
//                                                3 SNAPSHOT_HEADER, 4 SNAPSHOT_FOOTER, 5 KRAFT_VERSION, 6 KRAFT_VOTERS)
//   value of ABORT/COMMIT: version int16 | EndTxnMarker {coordinatorEpoch int32}
//   value of types 2-6: the KRaft messages below
// The messages are read by the schema reader from kafka-clients' definitions; the checks before it are
// Kafka's own (ControlRecordType.parse, EndTransactionMarker.deserialize). A key version above the
// highest known is read as the highest, as Kafka does. Markers are recognised by parsing the type field,
// never by comparing key bytes; decode/control-fast.ts is the COMMIT/ABORT fast path, tested against this.
import { ByteReader } from '../bytes/byte-reader.js'
import { DecodeError } from './errors.js'
import { readMessage } from './protocol/reader.js'
import { schemasFor } from './protocol/registry.js'
import type { MessageDef, SchemaStruct } from './protocol/types.js'
import * as controlTable from './protocol/generated/control-messages.js'

export const CONTROL_TYPES = [
  'ABORT',
  'COMMIT',
  'LEADER_CHANGE',
  'SNAPSHOT_HEADER',
  'SNAPSHOT_FOOTER',
  'KRAFT_VERSION',
  'KRAFT_VOTERS',
] as const
export type KnownControlType = (typeof CONTROL_TYPES)[number]

export interface ControlKey {
  version: number
  type: number
}

export function controlTypeName(type: number): string {
  return CONTROL_TYPES[type] ?? `UNKNOWN(${type})`
}

/** @throws DecodeError BAD_CONTROL_RECORD when the key is missing, short or has a negative version */
export function decodeControlKey(key: Buffer | null, position: number): ControlKey {
  if (key === null || key.length < 4) {
    throw new DecodeError(
      'BAD_CONTROL_RECORD',
      `control record key is ${key === null ? 'null' : `${key.length} bytes`}, expected at least 4`,
      position,
      { field: 'key' },
    )
  }
  const version = key.readInt16BE(0)
  if (version < 0) {
    throw new DecodeError('BAD_CONTROL_RECORD', `control record key version ${version} is negative`, position, {
      field: 'key',
    })
  }
  return {
    version,
    type: readMessage(new ByteReader(key, position, 2), message('ControlRecordTypeSchema'), 0).type as number,
  }
}

export interface EndTxnMarker {
  version: number
  coordinatorEpoch: number
}

/** @throws DecodeError BAD_CONTROL_RECORD when the value is shorter than 6 bytes */
export function decodeEndTxnMarker(value: Buffer | null, position: number): EndTxnMarker {
  if (value === null || value.length < 6) {
    throw new DecodeError(
      'BAD_CONTROL_RECORD',
      `end transaction marker value is ${value === null ? 'null' : `${value.length} bytes`}, expected at least 6`,
      position,
      { field: 'value' },
    )
  }
  const version = value.readInt16BE(0)
  if (version < 0) {
    throw new DecodeError('BAD_CONTROL_RECORD', `end transaction marker version ${version} is negative`, position, {
      field: 'value',
    })
  }
  return {
    version,
    coordinatorEpoch: readMessage(new ByteReader(value, position, 2), message('EndTxnMarker'), 0)
      .coordinatorEpoch as number,
  }
}

function message(name: string): MessageDef {
  const def = schemasFor(controlTable, '4.4').byName.get(name)
  if (def === undefined) throw new Error(`generated control table lacks ${name}`) // a generation defect, not bad input
  return def
}

// ---- KRaft control values: flexible messages of kafka-clients (generated definitions) ----

/** control type -> the message its value holds (ControlRecordUtils) */
const KRAFT_VALUE_MESSAGES: Readonly<Record<number, string>> = {
  2: 'LeaderChangeMessage',
  3: 'SnapshotHeaderRecord',
  4: 'SnapshotFooterRecord',
  5: 'KRaftVersionRecord',
  6: 'VotersRecord',
}

/**
 * JSON-ready object for a KRaft control record value, as Kafka's generated JsonConverters write it.
 * ControlRecordUtils reads every one at its *_CURRENT_VERSION, 0 in every release; the leading int16 is
 * the message's own Version field.
 * @throws DecodeError BAD_CONTROL_RECORD / BAD_RECORD with the position of the fault
 */
export function decodeKraftControlValue(type: number, value: Buffer | null, position: number): SchemaStruct {
  if (value === null)
    throw new DecodeError('BAD_CONTROL_RECORD', 'control record value is null', position, { field: 'value' })
  const name = KRAFT_VALUE_MESSAGES[type]
  if (name === undefined)
    throw new DecodeError('BAD_CONTROL_RECORD', `control type ${type} has no known value schema`, position)
  return readMessage(new ByteReader(value, position), message(name), 0)
}
