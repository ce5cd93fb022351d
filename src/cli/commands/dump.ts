// The default command: a kafka-dump-log compatible dump.
import * as fs from 'node:fs'
import { Option } from 'commander'
import type { Command } from 'commander'
import { DEFAULT_DUMP_OPTIONS } from '../../commands/dump/dump-options.js'
import type { DumpOptions, PayloadParser } from '../../commands/dump/dump-options.js'
import type { DecoderName } from '../../format/value-decoders.js'
import type { CommandContext } from '../../commands/context.js'
import type { KafkaRelease } from '../../format/kafka-versions.js'
import { DEFAULT_KAFKA_RELEASE } from '../../format/kafka-versions.js'
import { parseDecoder, parseKafkaVersion, parseSize, parseThreads, remoteOf, addRemoteOptions } from '../options.js'
import type { RawFilterFlags } from '../options.js'
import { addFilterOptions, asUsageError, FILTER_HELP, filterFromFlags } from '../filter-options.js'
import { suggestSubcommand } from '../suggest.js'

const EXAMPLES = `
Paths: .log .index .timeindex .txnindex .snapshot and KRaft .checkpoint files, partition
directories (orders-11-0/: all files in offset order) or a broker log directory (every partition).

Examples:
  $ tsdump orders-11-0/00000000000000000000.log          # one line per batch, COMMIT/ABORT named
  $ tsdump --control-only orders-11-0/                    # only control batches: which are COMMIT, which ABORT
  $ tsdump --deep-iteration --print-data-log 00000000000000000000.log
  $ tsdump --compat --files 00000000000000000000.log      # byte-for-byte kafka-dump-log 4.4 output
  $ tsdump --compat --kafka-version 3.9 --files 00000000000000000000.log   # ... of Kafka 3.9
  $ tsdump --json /var/lib/kafka/data/orders-11-0 | jq 'select(.type=="batch")'
  $ tsdump --verify-index-only orders-11-0/00000000000000000000.index
  $ ssh broker cat /var/lib/kafka/data/orders-0/00000000000000000000.log | tsdump -   # from stdin
  $ tsdump reconcile orders-11-0 orders-11-1 orders-11-2  # read_committed vs read_uncommitted
  $ tsdump lso /var/lib/kafka/data                         # who holds the last stable offset
  $ tsdump --start-offset 7 --end-offset 15 orders-11-0/   # batches overlapping 7..15
  $ tsdump --deep-iteration --from-time 2026-11-29T15:42Z --to-time 2026-11-29T15:43Z orders-11-0/
  $ tsdump --transactional-id tx-rw-1 orders-11-0/        # its producer, via __transaction_state

Exit status: 0 clean, 1 problems found in the data (CRC, truncation, index mismatch...),
2 usage error or unreadable input. Colour only on a terminal; NO_COLOR is honoured.
${FILTER_HELP}
  A filtered dump reads .log segments only: it leaves unread the segments out of range (by their
  names, or a .timeindex older than --from-time) and starts inside a segment where its .index /
  .timeindex say (checked against the batch there). It prints whole batches that overlap the range,
  as a fetch returns them; with --deep-iteration / --print-data-log only the records inside it. The
  summary counts the batches printed. --threads is ignored with a filter.`

interface RawDumpFlags extends RawFilterFlags {
  files?: string
  compat?: boolean
  kafkaVersion?: KafkaRelease
  json?: boolean
  deepIteration?: boolean
  printDataLog?: boolean
  skipRecordMetadata?: boolean
  maxBytes?: number
  verifyIndexOnly?: boolean
  indexSanityCheck?: boolean
  maxMessageSize?: number
  keyDecoder?: DecoderName
  valueDecoder?: DecoderName
  keyDecoderClass?: DecoderName | true
  valueDecoderClass?: DecoderName | true
  offsetsDecoder?: boolean
  transactionLogDecoder?: boolean
  clusterMetadataDecoder?: boolean
  remoteLogMetadataDecoder?: boolean
  shareGroupStateDecoder?: boolean
  controlOnly?: boolean
  summary?: boolean
  crc?: boolean
  window?: number
  maxBatchBytes?: number
  maxDecompressedBytes?: number
  resync?: boolean
  progress?: boolean
  threads?: number
  remoteStorage?: string
  isolationLevel?: 'read_committed' | 'read_uncommitted'
}

export function toDumpOptions(paths: string[], f: RawDumpFlags): DumpOptions {
  const files = f.files === undefined ? [] : f.files.split(',').filter((s) => s !== '')
  const parser: PayloadParser =
    f.offsetsDecoder === true
      ? 'offsets'
      : f.transactionLogDecoder === true
        ? 'transaction-log'
        : f.clusterMetadataDecoder === true
          ? 'cluster-metadata'
          : f.remoteLogMetadataDecoder === true
            ? 'remote-log-metadata'
            : f.shareGroupStateDecoder === true
              ? 'share-group-state'
              : 'default'
  const keyClass = f.keyDecoderClass === true ? 'string' : f.keyDecoderClass
  const valueClass = f.valueDecoderClass === true ? 'string' : f.valueDecoderClass
  // kafka-dump-log: any decoder option implies printing data, and printing data implies deep iteration.
  const printData =
    f.printDataLog === true ||
    parser !== 'default' ||
    f.keyDecoderClass !== undefined ||
    f.valueDecoderClass !== undefined ||
    (f.keyDecoder !== undefined && f.keyDecoder !== 'string') ||
    (f.valueDecoder !== undefined && f.valueDecoder !== 'string')
  const o: DumpOptions = {
    ...DEFAULT_DUMP_OPTIONS,
    paths: [...files, ...paths],
    compat: f.compat === true,
    kafkaVersion: f.kafkaVersion ?? DEFAULT_KAFKA_RELEASE,
    json: f.json === true,
    deep: f.deepIteration === true || printData,
    printData,
    skipRecordMetadata: f.skipRecordMetadata === true,
    verifyIndexOnly: f.verifyIndexOnly === true,
    indexSanityCheck: f.indexSanityCheck === true,
    keyDecoder: f.keyDecoder ?? keyClass ?? 'string',
    valueDecoder: f.valueDecoder ?? valueClass ?? 'string',
    parser,
    controlOnly: f.controlOnly === true,
    summary: f.summary !== false,
    verifyCrc: f.crc !== false,
    resync: f.resync !== false,
    progress: f.progress !== false,
  }
  if (f.maxMessageSize !== undefined) o.maxMessageSize = f.maxMessageSize
  // --max-bytes 2147483647 is kafka-dump-log's default, i.e. "no limit" (and keeps the trailing-bytes line)
  if (f.maxBytes !== undefined && f.maxBytes !== 2147483647) o.maxBytes = f.maxBytes
  if (f.window !== undefined) o.window = f.window
  if (f.threads !== undefined) o.threads = f.threads
  if (f.remoteStorage !== undefined) o.remote = remoteOf(f)
  if (f.isolationLevel !== undefined) o.isolationLevel = f.isolationLevel
  if (f.maxBatchBytes !== undefined) o.maxBatchBytes = f.maxBatchBytes
  if (f.maxDecompressedBytes !== undefined) o.maxDecompressed = f.maxDecompressedBytes
  return o
}

// Commands load their implementation on first use: start-up stays small for the command that runs.
export function registerDump(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = addFilterOptions(program.command('dump', { isDefault: true }), 'dump batches')
    .description('dump Kafka log segments, indexes and snapshots (kafka-dump-log compatible)')
    .argument('[path...]', 'files, partition directories or broker log directories')
    .option('--files <file1,file2,...>', 'comma-separated files, as kafka-dump-log takes them')
    .option('--deep-iteration', 'decode every record (decompressing)')
    .option('--print-data-log', 'print record keys and payloads (implies --deep-iteration)')
    .option('--skip-record-metadata', 'do not print record metadata (also hides control record details)')
    .option('--max-bytes <size>', 'read only the first N bytes of each log file', parseSize)
    .option('--verify-index-only', 'verify .index/.timeindex against the log without printing entries')
    .option('--index-sanity-check', "run the broker's index sanity check only")
    .option('--max-message-size <size>', 'largest batch expected at an index position', parseSize)
    .option('--key-decoder <name>', 'key rendering: string, hex, base64, int32, int64, json', parseDecoder)
    .option('--value-decoder <name>', 'value rendering: string, hex, base64, int32, int64, json', parseDecoder)
    .addOption(
      new Option('--key-decoder-class [class]', 'kafka-dump-log spelling of --key-decoder').argParser(parseDecoder),
    )
    .addOption(
      new Option('--value-decoder-class [class]', 'kafka-dump-log spelling of --value-decoder').argParser(parseDecoder),
    )
    .option('--offsets-decoder', 'decode __consumer_offsets records')
    .option('--transaction-log-decoder', 'decode __transaction_state records')
    .option('--cluster-metadata-decoder', 'decode KRaft __cluster_metadata records')
    .option('--remote-log-metadata-decoder', 'decode __remote_log_metadata records (tiered storage, KIP-405)')
    .option('--share-group-state-decoder', 'decode __share_group_state records (share groups, KIP-932)')
    .option('--control-only', 'print only control batches (COMMIT, ABORT, LEADER_CHANGE...)')
    .addOption(
      new Option(
        '--isolation-level <level>',
        'only the batches a consumer of this level receives (kcat -X isolation.level): no control batches; read_committed: below the LSO, no aborted ones',
      ).choices(['read_committed', 'read_uncommitted']),
    )
    .option('--compat', "exactly kafka-dump-log's text of --kafka-version: no colour, no extra fields, no summary")
    .option(
      '--kafka-version <release>',
      `Kafka release whose kafka-dump-log text, conventions and internal-topic schemas apply: 3.9, 4.0 ... 4.4 (default ${DEFAULT_KAFKA_RELEASE}; 4.4.0 etc. accepted)`,
      parseKafkaVersion,
    )
    .addOption(new Option('--json', 'NDJSON: one object per line with a "type" field').conflicts('compat'))
    .option('--no-summary', 'no per-file summary line')
    .option('--no-crc', 'do not verify batch CRCs (faster; isvalid prints "unchecked")')
    .option('--no-resync', 'stop at framing damage instead of searching for the next valid batch')
    .option('--no-progress', 'no progress line on stderr')
    .option('--window <size>', 'read window (default 8MiB)', parseSize)
    .option(
      '--threads <n>',
      'worker threads for large .log files (default: the available cores, at most 2, a memory bound; 1 = no workers)',
      parseThreads,
    )
  addRemoteOptions(command)
    .option('--max-batch-bytes <size>', 'larger entries are treated as corrupt (default 1GiB)', parseSize)
    .option('--max-decompressed-bytes <size>', "cap on one batch's decompressed size (default 256MiB)", parseSize)
    .option('--no-color', 'disable colour')
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], flags: RawDumpFlags, cmd: Command) => {
      const o = toDumpOptions(paths, flags)
      const first = paths[0]
      const meant =
        first === undefined
          ? undefined
          : suggestSubcommand(
              first,
              (cmd.parent?.commands ?? []).map((c) => c.name()),
            )
      if (meant !== undefined && !fs.existsSync(first!)) {
        cmd.error(`error: unknown command '${first!}' (did you mean ${meant}?)`, {
          exitCode: 2,
          code: 'tsdump.unknownCommand',
        })
      }
      if (o.paths.length === 0) {
        cmd.error('error: no input: give a file, a partition directory or --files', {
          exitCode: 2,
          code: 'tsdump.noInput',
        })
      }
      // --transactional-id is resolved by the dump, from the read that dumps the coordinator's partitions
      const filter = await filterFromFlags(flags, o.paths, cmd, { resolveId: false })
      if (filter !== undefined) o.filter = filter
      setExit(await asUsageError(cmd, async () => (await import('../../commands/dump.js')).runDump(o, ctx)))
    })
}
