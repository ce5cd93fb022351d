// `tsdump kafka-dump-log <kafka-dump-log.sh's options>`: a script that calls kafka-dump-log.sh calls this
// instead, unchanged. The dump with --compat implied, taking exactly the tool's options (DumpLogSegments'
// DumpLogSegmentsOptions), under their names and, as jopt-simple accepts them, any unambiguous prefix.
import { Option } from 'commander'
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import { DEFAULT_KAFKA_RELEASE } from '../../format/kafka-versions.js'
import { parseDecoder, parseKafkaVersion, parseSize } from '../options.js'
import { toDumpOptions } from './dump.js'

export const KAFKA_DUMP_LOG = 'kafka-dump-log'

export function registerKafkaDumpLog (program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  program.command(KAFKA_DUMP_LOG)
    .description('kafka-dump-log.sh\'s command line, its exact text (tsdump dump --compat)')
    .requiredOption('--files <file1,file2,...>', 'comma-separated data and index files to dump')
    .option('--deep-iteration', 'decode every record')
    .option('--print-data-log', 'print record keys and payloads (implies --deep-iteration)')
    .option('--skip-record-metadata', 'do not print record metadata')
    .option('--max-bytes <size>', 'read only the first N bytes of each log file', parseSize)
    .option('--verify-index-only', 'verify the index without printing its entries')
    .option('--index-sanity-check', 'run the broker\'s index sanity check only')
    .option('--max-message-size <size>', 'largest batch expected at an index position', parseSize)
    .addOption(new Option('--key-decoder-class [class]', 'key decoder (kafka.serializer.StringDecoder ...)').argParser(parseDecoder))
    .addOption(new Option('--value-decoder-class [class]', 'value decoder').argParser(parseDecoder))
    .option('--offsets-decoder', 'decode __consumer_offsets records')
    .option('--transaction-log-decoder', 'decode __transaction_state records')
    .option('--cluster-metadata-decoder', 'decode KRaft __cluster_metadata records')
    .option('--remote-log-metadata-decoder', 'decode __remote_log_metadata records')
    .option('--share-group-state-decoder', 'decode __share_group_state records')
    .option('--kafka-version <release>', `the release whose text to give (tsdump's; default ${DEFAULT_KAFKA_RELEASE})`, parseKafkaVersion)
    .addHelpText('after', `
Example:
  $ tsdump kafka-dump-log --deep-iteration --files 00000000000000000000.log

The text on stdout is kafka-dump-log.sh's; the exit status is tsdump's: 1 when the data has problems
(kafka-dump-log.sh exits 0 there), 2 for a usage error or an unreadable file.`)
    .action(async (flags: Parameters<typeof toDumpOptions>[1], cmd: Command) => {
      const o = toDumpOptions([], { ...flags, compat: true })
      if (o.paths.length === 0) cmd.error('error: --files names no file', { exitCode: 2, code: 'tsdump.noInput' })
      setExit(await (await import('../../commands/dump.js')).runDump(o, ctx))
    })
}

/**
 * kafka-dump-log.sh's parser (jopt-simple) takes any unambiguous prefix of an option (`--deep` for
 * --deep-iteration): expanded here to the full name, the rest left to commander.
 */
export function expandAbbreviations (args: readonly string[], command: Command): string[] {
  const longs = command.options.map((o) => o.long).filter((l): l is string => l !== undefined)
  return args.map((a) => {
    if (!a.startsWith('--') || a === '--') return a
    const eq = a.indexOf('=')
    const name = eq < 0 ? a : a.slice(0, eq)
    if (longs.includes(name)) return a
    const matches = longs.filter((l) => l.startsWith(name))
    return matches.length === 1 ? matches[0]! + (eq < 0 ? '' : a.slice(eq)) : a
  })
}
