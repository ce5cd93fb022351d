// Key/payload rendering for --print-data-log: plain decoders, or Kafka's internal-topic parsers.
import type { KafkaRelease } from '../decode/protocol/types.js'
import type { DecoderName } from './value-decoders.js'
import { decodeValue } from './value-decoders.js'

import type { FormattedRecord, RecordFinding } from './topics/formatted-record.js'
import type { JsonValue } from './topics/kafka-json.js'

/** key/payload text; internal-topic parsers also give the decoded values for --json and a finding */
export interface ParsedPayload {
  key?: string
  payload?: string
  keyJson?: JsonValue
  payloadJson?: JsonValue
  finding?: RecordFinding
}
/** `batchPosition`: the file position of the record's batch, where a finding about the record points */
export type PayloadParserFn = (
  key: Buffer | null,
  value: Buffer | null,
  offset: bigint,
  batchPosition: number,
) => ParsedPayload

/** DecoderMessageParser: absent key or value is simply not printed */
export function decoderParser(keyDecoder: DecoderName, valueDecoder: DecoderName): PayloadParserFn {
  return (key, value) => {
    const out: ParsedPayload = {}
    if (key !== null) out.key = decodeValue(key, keyDecoder)
    if (value !== null) out.payload = decodeValue(value, valueDecoder)
    return out
  }
}

// Kafka aborts the whole run on a record without a key; tsdump prints the reason in the key position instead.
function toParsed(r: FormattedRecord): ParsedPayload {
  const out: ParsedPayload = {}
  if (r.error !== undefined) out.key = r.error
  else if (r.key !== undefined) out.key = r.key
  if (r.payload !== undefined) out.payload = r.payload
  if (r.keyJson !== undefined) out.keyJson = r.keyJson
  if (r.payloadJson !== undefined) out.payloadJson = r.payloadJson
  if (r.finding !== undefined) out.finding = r.finding
  return out
}

/**
 * The internal-topic parsers behind --transaction-log-decoder / --offsets-decoder / --cluster-metadata-decoder /
 * --remote-log-metadata-decoder / --share-group-state-decoder, each printing the text of the given Kafka release,
 * loaded only when asked for (they are large and most dumps never use them). A new internal-topic parser is one entry here.
 */
const registry = new Map<string, (release: KafkaRelease) => Promise<PayloadParserFn>>([
  [
    'transaction-log',
    async (release) => {
      const { formatTransactionLogRecord } = await import('./topics/transaction-state-text.js')
      return (k, v, o) => toParsed(formatTransactionLogRecord(k, v, o, release))
    },
  ],
  [
    'offsets',
    async (release) => {
      const { formatOffsetsRecord } = await import('./topics/consumer-offsets-text.js')
      return (k, v, o) => toParsed(formatOffsetsRecord(k, v, o, release))
    },
  ],
  [
    'cluster-metadata',
    async (release) => {
      const { formatClusterMetadataRecord } = await import('./topics/cluster-metadata-text.js')
      return (_k, v, o) => toParsed(formatClusterMetadataRecord(v, o, release))
    },
  ],
  [
    'remote-log-metadata',
    async (release) => {
      const { formatRemoteLogMetadataRecord } = await import('./topics/remote-log-metadata-text.js')
      return (_k, v, o) => toParsed(formatRemoteLogMetadataRecord(v, o, release))
    },
  ],
  [
    'share-group-state',
    async (release) => {
      const { formatShareGroupStateRecord } = await import('./topics/share-group-state-text.js')
      return (k, v, o) => toParsed(formatShareGroupStateRecord(k, v, o, release))
    },
  ],
])

export async function getPayloadParser(name: string, release: KafkaRelease): Promise<PayloadParserFn | undefined> {
  const load = registry.get(name)
  return load === undefined ? undefined : await load(release)
}
