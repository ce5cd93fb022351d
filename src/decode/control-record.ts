// Control records (Kafka ControlRecordType, EndTransactionMarker, ControlRecordUtils).
//   key:   version int16 | type int16          (types: 0 ABORT, 1 COMMIT, 2 LEADER_CHANGE, 3 SNAPSHOT_HEADER,
//                                                4 SNAPSHOT_FOOTER, 5 KRAFT_VERSION, 6 KRAFT_VOTERS)
//   value of ABORT/COMMIT: version int16 | coordinatorEpoch int32
// Markers are recognised by parsing the type field, never by comparing key bytes.
import { ByteReader } from '../bytes/byte-reader.js'
import { DecodeError } from './errors.js'

export const CONTROL_TYPES = ['ABORT', 'COMMIT', 'LEADER_CHANGE', 'SNAPSHOT_HEADER', 'SNAPSHOT_FOOTER', 'KRAFT_VERSION', 'KRAFT_VOTERS'] as const
export type KnownControlType = typeof CONTROL_TYPES[number]

export interface ControlKey { version: number, type: number }

export function controlTypeName (type: number): string {
  return CONTROL_TYPES[type] ?? `UNKNOWN(${type})`
}

/** @throws DecodeError BAD_CONTROL_RECORD when the key is missing, short or has a negative version */
export function decodeControlKey (key: Buffer | null, position: number): ControlKey {
  if (key === null || key.length < 4) {
    throw new DecodeError('BAD_CONTROL_RECORD',
      `control record key is ${key === null ? 'null' : `${key.length} bytes`}, expected at least 4`, position, { field: 'key' })
  }
  const version = key.readInt16BE(0)
  if (version < 0) {
    throw new DecodeError('BAD_CONTROL_RECORD', `control record key version ${version} is negative`, position, { field: 'key' })
  }
  return { version, type: key.readInt16BE(2) }
}

export interface EndTxnMarker { version: number, coordinatorEpoch: number }

/** @throws DecodeError BAD_CONTROL_RECORD when the value is shorter than 6 bytes */
export function decodeEndTxnMarker (value: Buffer | null, position: number): EndTxnMarker {
  if (value === null || value.length < 6) {
    throw new DecodeError('BAD_CONTROL_RECORD',
      `end transaction marker value is ${value === null ? 'null' : `${value.length} bytes`}, expected at least 6`,
      position, { field: 'value' })
  }
  const version = value.readInt16BE(0)
  if (version < 0) {
    throw new DecodeError('BAD_CONTROL_RECORD', `end transaction marker version ${version} is negative`, position, { field: 'value' })
  }
  return { version, coordinatorEpoch: value.readInt32BE(2) }
}

// ---- KRaft control values: flexible-version protocol messages, decoded with schema version 0 ----

function readTaggedFields (r: ByteReader): void {
  const n = r.readUnsignedVarint('taggedFields')
  for (let i = 0; i < n; i++) {
    r.readUnsignedVarint('tag')
    r.readBytes(r.readUnsignedVarint('tagSize'), 'tagData')
  }
}

function readCompactArray<T> (r: ByteReader, item: (r: ByteReader) => T, field: string): T[] | null {
  const n = r.readUnsignedVarint(field)
  if (n === 0) return null
  if (n - 1 > r.remaining) throw new DecodeError('BAD_LENGTH', `${field}: ${n - 1} elements in ${r.remaining} bytes`, r.absolute, { field })
  const out: T[] = []
  for (let i = 0; i < n - 1; i++) out.push(item(r))
  return out
}

function readCompactString (r: ByteReader, field: string): string | null {
  const n = r.readUnsignedVarint(field)
  if (n === 0) return null
  return r.readBytes(n - 1, field).toString('utf8')
}

function readUuid (r: ByteReader, field: string): string {
  return r.readBytes(16, field).toString('base64url')
}

/** JSON-ready object for a KRaft control record value, as Kafka's generated JsonConverters write it */
export function decodeKraftControlValue (type: number, value: Buffer | null, position: number): Record<string, unknown> {
  if (value === null) throw new DecodeError('BAD_CONTROL_RECORD', 'control record value is null', position, { field: 'value' })
  const r = new ByteReader(value, position)
  switch (type) {
    case 2: { // LeaderChangeMessage
      const version = r.readInt16('version')
      const leaderId = r.readInt32('leaderId')
      const voter = (x: ByteReader): Record<string, unknown> => { const voterId = x.readInt32('voterId'); readTaggedFields(x); return { voterId } }
      const voters = readCompactArray(r, voter, 'voters')
      const grantingVoters = readCompactArray(r, voter, 'grantingVoters')
      readTaggedFields(r)
      return { version, leaderId, voters, grantingVoters }
    }
    case 3: { // SnapshotHeaderRecord
      const version = r.readInt16('version')
      const lastContainedLogTimestamp = r.readInt64('lastContainedLogTimestamp')
      readTaggedFields(r)
      return { version, lastContainedLogTimestamp }
    }
    case 4: { // SnapshotFooterRecord
      const version = r.readInt16('version')
      readTaggedFields(r)
      return { version }
    }
    case 5: { // KRaftVersionRecord
      const version = r.readInt16('version')
      const kRaftVersion = r.readInt16('kRaftVersion')
      readTaggedFields(r)
      return { version, kRaftVersion }
    }
    case 6: { // VotersRecord
      const version = r.readInt16('version')
      const voters = readCompactArray(r, (x) => {
        const voterId = x.readInt32('voterId')
        const voterDirectoryId = readUuid(x, 'voterDirectoryId')
        const endpoints = readCompactArray(x, (y) => {
          const name = readCompactString(y, 'name')
          const host = readCompactString(y, 'host')
          const port = y.readUint16('port')
          readTaggedFields(y)
          return { name, host, port }
        }, 'endpoints')
        const minSupportedVersion = x.readInt16('minSupportedVersion')
        const maxSupportedVersion = x.readInt16('maxSupportedVersion')
        readTaggedFields(x)
        readTaggedFields(x)
        return { voterId, voterDirectoryId, endpoints, kRaftVersionFeature: { minSupportedVersion, maxSupportedVersion } }
      }, 'voters')
      readTaggedFields(r)
      return { version, voters }
    }
    default:
      throw new DecodeError('BAD_CONTROL_RECORD', `control type ${type} has no known value schema`, position)
  }
}
