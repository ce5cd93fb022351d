// Declares the commands. Actions only translate options and call run*() functions.
import { Command } from 'commander'
import type { CommandContext } from '../commands/context.js'
import { registerCleanup } from './commands/cleanup.js'
import { registerDoctor } from './commands/doctor.js'
import { registerDump } from './commands/dump.js'
import { registerLso } from './commands/lso.js'
import { registerReconcile } from './commands/reconcile.js'
import { registerReplicas } from './commands/replicas.js'
import { registerRemote } from './commands/remote.js'
import { registerReport } from './commands/report.js'
import { registerTxns } from './commands/txns.js'
import { VERSION } from '../io/package-version.js'
import { registerTransactions } from './commands/transactions.js'
import { registerKafkaDumpLog } from './commands/kafka-dump-log.js'
import { fitHelp } from './help-format.js'
import { registerExport } from './commands/export.js'

/** commander's `error: ...` in tsdump's one error format (`tsdump: error: ...`, as every finding) */
function usageError(s: string, write: (s: string) => void): void {
  write(s.replace(/^error: /, 'tsdump: error: '))
}

export function buildProgram(ctx: CommandContext, setExit: (code: number) => void): Command {
  const output = {
    stdout: (s: string) => ctx.stdout.write(s),
    stderr: (s: string) => ctx.stderr.write(s),
    outputError: usageError,
  }
  const width = (fd: 1 | 2) => (): number => ctx.terminalColumns?.(fd) ?? 80
  const program = fitHelp(new Command('tsdump'), output, width(1), width(2))
    .description(
      'Inspect Apache Kafka log segments without a JVM: a kafka-dump-log compatible dump that understands transactions.',
    )
    .version(VERSION)
    .enablePositionalOptions()
    .showHelpAfterError('(run tsdump --help for usage)')
    .exitOverride()
    .addHelpText(
      'after',
      `
Without a command, tsdump dumps (tsdump dump --help lists the options).

Examples:
  $ tsdump orders-11-0/                         # every file of a partition, COMMIT/ABORT named
  $ tsdump --control-only orders-11-0/          # only the control batches
  $ tsdump --compat --deep-iteration --files 00000000000000000000.log   # kafka-dump-log's exact text
  $ tsdump --json orders-11-0/ | jq -c 'select(.type=="batch")'
  $ ssh broker cat .../00000000000000000000.log | tsdump -   # a segment from stdin
  $ tsdump reconcile /var/lib/kafka/data         # read_committed vs read_uncommitted, per partition and topic
  $ tsdump txns orders-11-0/                     # the transaction timeline
  $ tsdump lso /var/lib/kafka/data               # who holds the last stable offset, and the abort command
  $ tsdump report /var/lib/kafka/data -o r.html  # all of it as one offline HTML page
  $ tsdump replicas b1/data b2/data b3/data      # do the replicas agree? what did an election lose
  $ tsdump kafka-dump-log --deep-iteration --files 00000000000000000000.log   # as kafka-dump-log.sh
  $ tsdump doctor /var/lib/kafka/data            # every check, ranked by harm, with what to do

Options may come before the command (tsdump --json reconcile DIR). Without arguments tsdump prints
this help on stderr and exits 2.
Exit status: 0 clean, 1 problems found in the data, 2 usage error or unreadable input.`,
    )
  registerDump(program, ctx, setExit)
  registerReconcile(program, ctx, setExit)
  registerTxns(program, ctx, setExit)
  registerTransactions(program, ctx, setExit)
  registerLso(program, ctx, setExit)
  registerReport(program, ctx, setExit)
  registerReplicas(program, ctx, setExit)
  registerCleanup(program, ctx, setExit)
  registerRemote(program, ctx, setExit)
  registerDoctor(program, ctx, setExit)
  registerExport(program, ctx, setExit)
  registerKafkaDumpLog(program, ctx, setExit)
  for (const c of program.commands) fitHelp(c.exitOverride(), output, width(1), width(2))
  return program
}
