// How keys and values are printed (kafka-dump-log --key-decoder-class / --value-decoder-class, and more).
import { decodeJavaUtf8 } from '../bytes/java-utf8.js'
export const DECODER_NAMES = ['string', 'hex', 'base64', 'int32', 'int64', 'json'] as const
export type DecoderName = (typeof DECODER_NAMES)[number]

/** Kafka's built-in decoder classes map onto ours (org.apache.kafka.tools.api.* and the pre-3.8 kafka.serializer.*). */
export function decoderFromKafkaClass(cls: string): DecoderName | undefined {
  const simple = cls.slice(cls.lastIndexOf('.') + 1)
  switch (simple) {
    case 'StringDecoder':
      return 'string'
    case 'IntegerDecoder':
      return 'int32'
    case 'LongDecoder':
      return 'int64'
    case 'DefaultDecoder':
      return 'hex'
    default:
      return undefined
  }
}

/** Render bytes with a decoder. 'string' is Java's StringDecoder, malformed UTF-8 replaced as Java replaces it. */
export function decodeValue(b: Buffer, how: DecoderName): string {
  switch (how) {
    case 'string':
      return decodeJavaUtf8(b)
    case 'hex':
      return b.toString('hex')
    case 'base64':
      return b.toString('base64')
    case 'int32':
      return b.length === 4 ? String(b.readInt32BE(0)) : `<${b.length} bytes, not an int32: ${b.toString('hex')}>`
    case 'int64':
      return b.length === 8 ? b.readBigInt64BE(0).toString() : `<${b.length} bytes, not an int64: ${b.toString('hex')}>`
    case 'json': {
      const s = decodeJavaUtf8(b)
      try {
        return JSON.stringify(JSON.parse(s))
      } catch {
        return s
      }
    }
  }
}

/**
 * `--key-decoder json` / `--value-decoder json` in JSON output: the bytes as a JSON value (an object in the
 * NDJSON line, not JSON text in a string); undefined when they are not JSON.
 */
export function jsonValueOf(b: Buffer | null, how: DecoderName): unknown {
  if (b === null || how !== 'json') return undefined
  try {
    return JSON.parse(decodeJavaUtf8(b)) as unknown
  } catch {
    return undefined
  }
}
