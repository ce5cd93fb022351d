// `tsdump kafka-dump-log <kafka-dump-log.sh's options>`: a script that calls kafka-dump-log.sh calls this
// instead, unchanged. The dump with --compat implied, taking exactly the tool's options (DumpLogSegments'
// DumpLogSegmentsOptions), under their names and, as jopt-simple accepts them, any unambiguous prefix.
import { Option } from 'commander'
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import { toDumpOptions } from './dump.js'

export const KAFKA_DUMP_LOG = 'kafka-dump-log'

/** DumpLogSegments' options (DumpLogSegmentsOptions), as the dump declares them */
const TOOL_OPTIONS = [
  '--files',
  '--deep-iteration',
  '--print-data-log',
  '--skip-record-metadata',
  '--max-bytes',
  '--verify-index-only',
  '--index-sanity-check',
  '--max-message-size',
  '--key-decoder-class',
  '--value-decoder-class',
  '--offsets-decoder',
  '--transaction-log-decoder',
  '--cluster-metadata-decoder',
  '--remote-log-metadata-decoder',
  '--share-group-state-decoder',
  '--kafka-version',
]

/** `dump` must be registered first: its declarations of the tool's options are copied (--files made required, as the tool has it) */
export function registerKafkaDumpLog(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const cmd = program
    .command(KAFKA_DUMP_LOG)
    .description("kafka-dump-log.sh's command line, its exact text (tsdump dump --compat)")
  const dump = program.commands.find((c) => c.name() === 'dump')
  for (const long of TOOL_OPTIONS) {
    const o = dump?.options.find((x) => x.long === long)
    if (o === undefined) throw new Error(`the dump has no ${long} to copy`)
    const copy = new Option(o.flags, o.description)
    if (o.parseArg !== undefined) copy.argParser(o.parseArg)
    cmd.addOption(long === '--files' ? copy.makeOptionMandatory() : copy)
  }
  cmd
    .addHelpText(
      'after',
      `
Example:
  $ tsdump kafka-dump-log --deep-iteration --files 00000000000000000000.log

The text on stdout is kafka-dump-log.sh's; the exit status is tsdump's: 1 when the data has problems
(kafka-dump-log.sh exits 0 there), 2 for a usage error or an unreadable file.`,
    )
    .action(async (flags: Parameters<typeof toDumpOptions>[1], c: Command) => {
      const o = toDumpOptions([], { ...flags, compat: true })
      if (o.paths.length === 0) c.error('error: --files names no file', { exitCode: 2, code: 'tsdump.noInput' })
      setExit(await (await import('../../commands/dump.js')).runDump(o, ctx))
    })
}

/**
 * kafka-dump-log.sh's parser (jopt-simple) takes any unambiguous prefix of an option (`--deep` for
 * --deep-iteration): expanded here to the full name, the rest left to commander.
 */
export function expandAbbreviations(args: readonly string[], command: Command): string[] {
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
