// Wires the internal-topic formatters into the dump's --offsets-decoder / --transaction-log-decoder /
// --cluster-metadata-decoder / --remote-log-metadata-decoder / --share-group-state-decoder options.
// RELEASE is the Kafka release whose kafka-dump-log text they reproduce; the goldens are 3.9.1's.
// (When --kafka-version lands, it replaces this constant.)
import type { KafkaRelease } from '../decode/schema/types.js'
import type { ParsedPayload } from '../format/payload-parsers.js'
import { registerPayloadParser } from '../format/payload-parsers.js'
import type { FormattedRecord } from '../format/topics/formatted-record.js'

const RELEASE: KafkaRelease = '3.9'
let done = false

// Kafka aborts the whole run on a record without a key; tsdump prints the reason in the key position instead.
function toParsed (r: FormattedRecord): ParsedPayload {
  const out: ParsedPayload = {}
  if (r.error !== undefined) out.key = r.error
  else if (r.key !== undefined) out.key = r.key
  if (r.payload !== undefined) out.payload = r.payload
  if (r.keyJson !== undefined) out.keyJson = r.keyJson
  if (r.payloadJson !== undefined) out.payloadJson = r.payloadJson
  if (r.finding !== undefined) out.finding = r.finding
  return out
}

export function registerBuiltinParsers (release: KafkaRelease = RELEASE): void {
  if (done) return
  done = true
  registerPayloadParser('transaction-log', async () => {
    const { formatTransactionLogRecord } = await import('../format/topics/transaction-state.js')
    return (k, v, o) => toParsed(formatTransactionLogRecord(k, v, o, release))
  })
  registerPayloadParser('offsets', async () => {
    const { formatOffsetsRecord } = await import('../format/topics/consumer-offsets.js')
    return (k, v, o) => toParsed(formatOffsetsRecord(k, v, o, release))
  })
  registerPayloadParser('cluster-metadata', async () => {
    const { formatClusterMetadataRecord } = await import('../format/topics/cluster-metadata.js')
    return (_k, v, o) => toParsed(formatClusterMetadataRecord(v, o, release))
  })
  registerPayloadParser('remote-log-metadata', async () => {
    const { formatRemoteLogMetadataRecord } = await import('../format/topics/remote-log-metadata.js')
    return (_k, v, o) => toParsed(formatRemoteLogMetadataRecord(v, o, release))
  })
  registerPayloadParser('share-group-state', async () => {
    const { formatShareGroupStateRecord } = await import('../format/topics/share-group-state.js')
    return (k, v, o) => toParsed(formatShareGroupStateRecord(k, v, o, release))
  })
}
