import type { RangeSpec } from '../../analysis/range-filter.js'
import type { KafkaRelease } from '../../format/kafka-versions.js'
import { DEFAULT_KAFKA_RELEASE } from '../../format/kafka-versions.js'
import type { DecoderName } from '../../format/value-decoders.js'
import type { RemoteInput } from '../../io/remote/spec.js'

export type PayloadParser =
  | 'default'
  | 'offsets'
  | 'transaction-log'
  | 'cluster-metadata'
  | 'remote-log-metadata'
  | 'share-group-state'

export interface DumpOptions {
  paths: string[]
  /** --remote-storage: each partition's remote .log segments dumped before its local files */
  remote?: RemoteInput
  /** exactly kafka-dump-log's text of `kafkaVersion`: no colour, no extra fields, no summary */
  compat: boolean
  /** --kafka-version: the release whose kafka-dump-log text (compat), conventions and internal-topic schemas apply */
  kafkaVersion: KafkaRelease
  json: boolean
  deep: boolean
  printData: boolean
  skipRecordMetadata: boolean
  maxBytes?: number
  verifyIndexOnly: boolean
  indexSanityCheck: boolean
  maxMessageSize: number
  keyDecoder: DecoderName
  valueDecoder: DecoderName
  parser: PayloadParser
  controlOnly: boolean
  summary: boolean
  verifyCrc: boolean
  window?: number
  maxBatchBytes?: number
  maxDecompressed?: number
  resync: boolean
  progress: boolean
  /** worker threads for large .log files (commands/workers/dump-pool.ts); undefined: the default (available cores, capped) */
  threads?: number
  /**
   * --start-offset/--end-offset, --from-time/--to-time, --producer-id, --transactional-id (resolved to producer ids):
   * only .log segments, and in them the batches in range (analysis/range-filter.ts), read from where the indexes say
   * (commands/dump/seek.ts); --threads does not apply
   */
  filter?: RangeSpec
  /**
   * --isolation-level: only the batches a consumer of that level receives (commands/dump/isolation.ts); .log
   * segments of partition directories only, one thread
   */
  isolationLevel?: 'read_committed' | 'read_uncommitted'
}

/**
 * Not user options: the switch with which tests run the general path alone, to compare it with the fast
 * paths (docs/architecture.md, the fast/general contract). Passed apart from DumpOptions on purpose.
 */
export interface DumpInternals {
  /** false runs every record through the general decoder */
  fastPaths?: boolean
  /** parallel dump: files from this size use workers (default MIN_PARALLEL_BYTES), so tests can use small fixtures */
  parallelMinBytes?: number
  /** parallel dump: input bytes per range handed to a worker (default RANGE_BYTES) */
  rangeBytes?: number
  /** parallel dump: told how many ranges a file was cut into (tests check that the workers ran) */
  onRanges?: (count: number) => void
}

export const DEFAULT_DUMP_OPTIONS: DumpOptions = {
  paths: [],
  compat: false,
  kafkaVersion: DEFAULT_KAFKA_RELEASE,
  json: false,
  deep: false,
  printData: false,
  skipRecordMetadata: false,
  verifyIndexOnly: false,
  indexSanityCheck: false,
  maxMessageSize: 5 * 1024 * 1024,
  keyDecoder: 'string',
  valueDecoder: 'string',
  parser: 'default',
  controlOnly: false,
  summary: true,
  verifyCrc: true,
  resync: true,
  progress: true,
}
