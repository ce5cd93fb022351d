// What kafka-dump-log prints differently in each Kafka release, 3.9 to 4.4, for everything but the
// internal-topic decoders (--offsets-decoder, --transaction-log-decoder, --cluster-metadata-decoder,
// --share-group-state-decoder, --remote-log-metadata-decoder have their own tables).
// One field per row of docs/kafka-versions.md. Each was read in that release's DumpLogSegments and confirmed
// by running the release's own tool (3.9.1, 4.0.2, 4.1.2, 4.2.2, 4.3.1, 4.4.0) over the 3.9.1 broker fixtures
// and the corpus (scripts/kafka/dump-releases.mjs, dump-release-cases.mjs). Pure data. The release list
// itself lives in decode/protocol/types.ts, the lowest layer that needs it (the schema tables are per release).
import type { KafkaRelease } from '../decode/protocol/types.js'
import { KAFKA_RELEASES } from '../decode/protocol/types.js'

export { KAFKA_RELEASES }
export type { KafkaRelease }
export const DEFAULT_KAFKA_RELEASE: KafkaRelease = '4.4'

export interface TextVariant {
  release: KafkaRelease
  /** the patch release whose kafka-dump-log output this row set was checked against */
  checkedWith: string
  /** main class in stack traces: DumpLogSegments moved from Scala (core) to Java (tools) in 4.3, KAFKA-14579 */
  dumpLogSegmentsClass: 'kafka.tools.DumpLogSegments' | 'org.apache.kafka.tools.DumpLogSegments'

  // --- record lines
  /**
   * LEADER_CHANGE control record: ` LeaderChange: {json}` (LeaderChangeMessageJsonConverter) from 4.1,
   * KAFKA-19069 (#19729); before, ` controlType: LEADER_CHANGE(2)`.
   */
  leaderChangeAsJson: boolean
  /**
   * Legacy (magic 0/1) record lines end `isValid: B crc: C}`: a stray `}` from a Scala interpolation typo,
   * gone in the 4.3 Java port (KAFKA-14579, #21223; test testLegacyRecordBatchOutputFormat).
   */
  legacyCrcStrayBrace: boolean
  /**
   * With --skip-record-metadata, a record without a key prints its payload as `| payload: ` from 4.3 (the Java
   * port passes the `| ` prefix on to the payload, KAFKA-14579); 3.9-4.2 print ` payload: ` (no pipe).
   */
  skipMetadataPayloadPipe: boolean

  // --- producer snapshots (.snapshot)
  /**
   * 3.9-4.2 print `lastTimestamp: T ` (trailing space) when the entry has no batch metadata; 4.3+ print the
   * space only before `firstSequence:` (KAFKA-14579). With batch metadata the text is the same in all.
   */
  snapshotLineTrailingSpace: boolean

  // --- transaction index (.txnindex)
  /**
   * How the entry version is read. 3.9-4.3: AbortedTxn.version() reads the FIRST BYTE of the int16 (0x0001
   * prints `version: 0`; 0x0100 fails "Unexpected aborted transaction version 1 in transaction index <path>,
   * current version is 0"). 4.4: the generated AbortedTxn (KAFKA-19562, #21577) reads the int16 and prints
   * the constant `version: 0`; any non-zero version fails "Unexpected aborted transaction version <int16> in
   * transaction index <path>, supported version range is 0 to 0". Exit 1 with a stack trace in both.
   */
  txnIndexVersion: 'first-byte' | 'int16'

  // --- stderr reports printed after all files (DumpLogSegments.main)
  /**
   * Header of the time-index "offset not found" block: 3.9-4.2 `The following indexed offsets are not found
   * in the log.`; 4.3+ `The following indexed offsets are not found in :<absolute path>` (MINOR #21538).
   */
  timeIndexNotFoundNamesFile: boolean
  /**
   * Non-consecutive offsets (deep iteration). 3.9-4.2 never compare a file's first record and list pairs newest
   * first (Scala List prepend). 4.3+ start from -1, so any file whose first record is not offset 0 reports
   * `  -1 is followed by <first offset>`, and list pairs ascending (TreeMap) (KAFKA-14579; no test covers it).
   */
  nonConsecutiveFromMinusOne: boolean
  nonConsecutiveOrder: 'newest-first' | 'ascending'
  /**
   * Offset-index mismatches: both list them by index offset descending; 3.9-4.2 keep a repeated index offset
   * once per entry (List prepend), 4.3+ keep it once with the last log offset seen (TreeMap reverseOrder).
   */
  indexMismatchRepeats: 'kept' | 'collapsed'
  /**
   * Order of the files within each stderr block is hash-map iteration order of their absolute paths:
   * scala.collection.mutable.HashMap in 3.9-4.2, java.util.HashMap in 4.3+ (seen to differ with three files
   * in one run: compacted-0 00..00.log/00..40.log); format/report-order.ts reproduces both. Only matters with
   * several files in one run.
   */
  reportFileOrder: 'scala-mutable-hashmap' | 'java-util-hashmap'

  // --- file names and options
  /**
   * A file name without a dot: 3.9-4.2 crash (StringIndexOutOfBoundsException, exit 1) after `Dumping <f>`;
   * 4.3+ print `Ignoring unknown file <f>` on stderr and go on (exit 0) (MINOR #21538).
   */
  noDotFileName: 'crash' | 'ignore'
  /** --share-group-state-decoder exists from 4.0 (KAFKA-17633, #17467); 3.9: UnrecognizedOptionException, exit 1 */
  shareGroupStateDecoderOption: boolean
  /**
   * 3.9 maps kafka.serializer.{String,Long,Integer,Default}Decoder to org.apache.kafka.tools.api.* and prints
   * `kafka.serializer.StringDecoder is deprecated. Please use org.apache.kafka.tools.api.StringDecoder instead`
   * on stdout before `Log starting offset`. Removed in 4.0 (KAFKA-14705, #17420): ClassNotFoundException.
   */
  legacyDecoderClasses: boolean
  /**
   * An unloadable --key/--value-decoder-class: 3.9-4.2 `Exception in thread "main"
   * java.lang.ClassNotFoundException: <class>`; 4.3+ `java.lang.RuntimeException: Failed to load decoder class`
   * caused by it (Utils.newInstance, KAFKA-14579). Exit 1 in all, after the first .log/.checkpoint file's `Dumping` line.
   */
  decoderClassNotFound: 'ClassNotFoundException' | 'RuntimeException'
  /** --help text of --skip-record-metadata (MINOR #20291, 4.2); behaviour unchanged */
  skipRecordMetadataHelp: string
}

const SKIP_HELP_OLD = 'Whether to skip printing metadata for each record.'
const SKIP_HELP_NEW = 'Skip metadata when printing records. This flag also skips control records.'

const V3_9: TextVariant = {
  release: '3.9',
  checkedWith: '3.9.1',
  dumpLogSegmentsClass: 'kafka.tools.DumpLogSegments',
  leaderChangeAsJson: false,
  legacyCrcStrayBrace: true,
  skipMetadataPayloadPipe: false,
  snapshotLineTrailingSpace: true,
  txnIndexVersion: 'first-byte',
  timeIndexNotFoundNamesFile: false,
  nonConsecutiveFromMinusOne: false,
  nonConsecutiveOrder: 'newest-first',
  indexMismatchRepeats: 'kept',
  reportFileOrder: 'scala-mutable-hashmap',
  noDotFileName: 'crash',
  shareGroupStateDecoderOption: false,
  legacyDecoderClasses: true,
  decoderClassNotFound: 'ClassNotFoundException',
  skipRecordMetadataHelp: SKIP_HELP_OLD,
}

const V4_0: TextVariant = {
  ...V3_9,
  release: '4.0',
  checkedWith: '4.0.2',
  shareGroupStateDecoderOption: true,
  legacyDecoderClasses: false,
}
const V4_1: TextVariant = { ...V4_0, release: '4.1', checkedWith: '4.1.2', leaderChangeAsJson: true }
const V4_2: TextVariant = { ...V4_1, release: '4.2', checkedWith: '4.2.2', skipRecordMetadataHelp: SKIP_HELP_NEW }
const V4_3: TextVariant = {
  ...V4_2,
  release: '4.3',
  checkedWith: '4.3.1',
  dumpLogSegmentsClass: 'org.apache.kafka.tools.DumpLogSegments',
  legacyCrcStrayBrace: false,
  skipMetadataPayloadPipe: true,
  snapshotLineTrailingSpace: false,
  timeIndexNotFoundNamesFile: true,
  nonConsecutiveFromMinusOne: true,
  nonConsecutiveOrder: 'ascending',
  indexMismatchRepeats: 'collapsed',
  reportFileOrder: 'java-util-hashmap',
  noDotFileName: 'ignore',
  decoderClassNotFound: 'RuntimeException',
}
const V4_4: TextVariant = { ...V4_3, release: '4.4', checkedWith: '4.4.0', txnIndexVersion: 'int16' }

export const TEXT_VARIANTS: Readonly<Record<KafkaRelease, Readonly<TextVariant>>> = {
  '3.9': V3_9,
  '4.0': V4_0,
  '4.1': V4_1,
  '4.2': V4_2,
  '4.3': V4_3,
  '4.4': V4_4,
}

/**
 * The release a `--kafka-version` value names: `4.4`, `4.4.0`, `4.4.1`, `3.9.1` (any patch release of a
 * supported minor). undefined for anything else, e.g. `4`, `4.5`, `3.8.0`, `4.4.0-rc1`.
 */
export function parseKafkaRelease(value: string | undefined): KafkaRelease | undefined {
  if (value === undefined) return DEFAULT_KAFKA_RELEASE
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(value.trim())
  if (m === null) return undefined
  const minor = `${Number(m[1])}.${Number(m[2])}`
  return (KAFKA_RELEASES as readonly string[]).includes(minor) ? (minor as KafkaRelease) : undefined
}

export function textVariant(release: KafkaRelease = DEFAULT_KAFKA_RELEASE): Readonly<TextVariant> {
  return TEXT_VARIANTS[release]
}
