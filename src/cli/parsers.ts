// Wires the internal-topic payload parsers into the dump's --offsets-decoder / --transaction-log-decoder /
// --cluster-metadata-decoder options.
import type { FormattedRecord } from '../decode/internal-topics.js'
import type { ParsedPayload } from '../format/payload-parsers.js'
import { registerPayloadParser } from '../format/payload-parsers.js'

let done = false

// Kafka aborts the whole run on a record without a key; tsdump prints the reason in the key position instead.
function toParsed (r: FormattedRecord): ParsedPayload {
  const out: ParsedPayload = {}
  if (r.error !== undefined) out.key = r.error
  else if (r.key !== undefined) out.key = r.key
  if (r.payload !== undefined) out.payload = r.payload
  return out
}

export function registerBuiltinParsers (): void {
  if (done) return
  done = true
  registerPayloadParser('transaction-log', async () => {
    const { formatTransactionLogRecord } = await import('../decode/internal-topics.js')
    return (k, v, o) => toParsed(formatTransactionLogRecord(k, v, o))
  })
  registerPayloadParser('offsets', async () => {
    const { formatOffsetsRecord } = await import('../decode/internal-topics.js')
    return (k, v, o) => toParsed(formatOffsetsRecord(k, v, o))
  })
  registerPayloadParser('cluster-metadata', async () => {
    const { formatClusterMetadataRecord } = await import('../format/metadata-text.js')
    return (_k, v, o) => ({ payload: formatClusterMetadataRecord(v, o) })
  })
}
