// --cluster-metadata-decoder text: kafka-dump-log prints only a payload,
// {"type":"<MetadataRecordType>","version":<v>,"data":<json>}, or `Error at <offset>, skipping. <message>`.
import { DecodeError } from '../decode/errors.js'
import { decodeMetadataRecord } from '../decode/metadata-records.js'
import type { MetadataValue } from '../decode/metadata-records.js'

function json (v: MetadataValue): string {
  if (v === null) return 'null'
  if (typeof v === 'bigint') return v.toString()
  if (Buffer.isBuffer(v)) return JSON.stringify(v.toString('base64'))
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'string') return JSON.stringify(v)
  if (Array.isArray(v)) return `[${v.map(json).join(',')}]`
  return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${json(x)}`).join(',')}}`
}

export function formatClusterMetadataRecord (value: Buffer | null, offset: bigint): string {
  if (value === null) return `Error at ${offset}, skipping. the record has no value`
  try {
    const r = decodeMetadataRecord(value)
    return `{"type":${JSON.stringify(r.type)},"version":${r.version},"data":${r.data === null ? 'null' : json(r.data)}}`
  } catch (e) {
    if (e instanceof DecodeError) return `Error at ${offset}, skipping. ${e.message}`
    throw e
  }
}
