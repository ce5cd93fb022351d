// Key/payload rendering for --print-data-log: plain decoders, or Kafka's internal-topic parsers.
import type { DecoderName } from './value-decoders.js'
import { decodeValue } from './value-decoders.js'

import type { RecordFinding } from './topics/formatted-record.js'
import type { JsonValue } from './topics/kafka-json.js'

/** key/payload text; internal-topic parsers also give the decoded values for --json and a finding */
export interface ParsedPayload { key?: string, payload?: string, keyJson?: JsonValue, payloadJson?: JsonValue, finding?: RecordFinding }
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

const registry = new Map<string, () => Promise<PayloadParserFn>>()

/** Internal-topic parsers (offsets, transaction-log, cluster-metadata) register loaders here; they load when used. */
export function registerPayloadParser (name: string, load: () => Promise<PayloadParserFn>): void {
  registry.set(name, load)
}

export async function getPayloadParser (name: string): Promise<PayloadParserFn | undefined> {
  const load = registry.get(name)
  return load === undefined ? undefined : await load()
}
