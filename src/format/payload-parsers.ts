// Key/payload rendering for --print-data-log: plain decoders, or Kafka's internal-topic parsers.
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

const registry = new Map<string, PayloadParserFn>()

/** Internal-topic parsers register themselves here (offsets, transaction-log, cluster-metadata). */
export function registerPayloadParser (name: string, fn: PayloadParserFn): void {
  registry.set(name, fn)
}

export function getPayloadParser (name: string): PayloadParserFn | undefined {
  return registry.get(name)
}
