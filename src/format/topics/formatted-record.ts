// What an internal-topic formatter gives the dump for one record: kafka-dump-log's key and payload
// text for the chosen release, the same decoded values as JSON values for `--json`, and a finding
// when the record could not be decoded (unknown type or version, malformed bytes).
import type { FindingCode } from '../../analysis/findings.js'
import type { JsonValue } from './kafka-json.js'

export interface RecordFinding {
  code: Extract<FindingCode, 'UNKNOWN_RECORD_TYPE' | 'UNKNOWN_RECORD_VERSION' | 'BAD_INTERNAL_RECORD'>
  message: string
  /** absolute byte position of the fault (-1 inside a compressed batch) */
  position: number
}

export interface FormattedRecord {
  key?: string
  payload?: string
  /** a record Kafka refuses to decode at all (3.9 aborts the dump; tsdump prints it as the key) */
  error?: string
  /** `--json`: the decoded key / payload as JSON values (absent when not decoded) */
  keyJson?: JsonValue
  payloadJson?: JsonValue
  finding?: RecordFinding
}

/** Where a record's key and value start in the file, for findings (-1 when unknown). */
export interface RecordPositions {
  key: number
  value: number
}
export const NO_POSITIONS: RecordPositions = { key: -1, value: -1 }

export function unknownVersion(message: string, version: number, release: string, position: number): RecordFinding {
  return {
    code: 'UNKNOWN_RECORD_VERSION',
    message: `${message} version ${version} is not defined in Kafka ${release}; read with the fields of the versions it is in, as Kafka does`,
    position,
  }
}
