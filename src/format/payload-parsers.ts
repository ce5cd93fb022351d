// Key/payload rendering for --print-data-log: plain decoders, or Kafka's internal-topic parsers.
import type { FormattedRecord } from '../decode/internal-topics.js'
import type { DecoderName } from './value-decoders.js'
import { decodeValue } from './value-decoders.js'

export interface ParsedPayload { key?: string, payload?: string }
export type PayloadParserFn = (key: Buffer | null, value: Buffer | null, offset: bigint) => ParsedPayload

/** DecoderMessageParser: absent key or value is simply not printed */
export function decoderParser (keyDecoder: DecoderName, valueDecoder: DecoderName): PayloadParserFn {
  return (key, value) => {
    const out: ParsedPayload = {}
    if (key !== null) out.key = decodeValue(key, keyDecoder)
    if (value !== null) out.payload = decodeValue(value, valueDecoder)
    return out
  }
}

// Kafka aborts the whole run on a record without a key; tsdump prints the reason in the key position instead.
function toParsed (r: FormattedRecord): ParsedPayload {
  const out: ParsedPayload = {}
  if (r.error !== undefined) out.key = r.error
  else if (r.key !== undefined) out.key = r.key
  if (r.payload !== undefined) out.payload = r.payload
  return out
}

/**
 * The internal-topic parsers behind --transaction-log-decoder / --offsets-decoder / --cluster-metadata-decoder,
 * loaded only when asked for (they are large and most dumps never use them). A new internal-topic parser is one entry here.
 */
const registry = new Map<string, () => Promise<PayloadParserFn>>([
  ['transaction-log', async () => {
    const { formatTransactionLogRecord } = await import('../decode/internal-topics.js')
    return (k, v, o) => toParsed(formatTransactionLogRecord(k, v, o))
  }],
  ['offsets', async () => {
    const { formatOffsetsRecord } = await import('../decode/internal-topics.js')
    return (k, v, o) => toParsed(formatOffsetsRecord(k, v, o))
  }],
  ['cluster-metadata', async () => {
    const { formatClusterMetadataRecord } = await import('./metadata-text.js')
    return (_k, v, o) => ({ payload: formatClusterMetadataRecord(v, o) })
  }],
])

export async function getPayloadParser (name: string): Promise<PayloadParserFn | undefined> {
  const load = registry.get(name)
  return load === undefined ? undefined : await load()
}
