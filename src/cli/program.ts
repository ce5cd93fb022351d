// Declares the commands. Actions only translate options and call run*() functions.
import { Command } from 'commander'
import type { CliContext } from './context.js'
import { registerDump } from './commands/dump.js'
import { registerLso } from './commands/lso.js'
import { registerReconcile } from './commands/reconcile.js'
import { registerTxns } from './commands/txns.js'

export const VERSION = '0.1.0'

export function buildProgram (ctx: CliContext, setExit: (code: number) => void): Command {
  const program = new Command('tsdump')
    .description('Inspect Apache Kafka log segments without a JVM: a kafka-dump-log compatible dump that understands transactions.')
    .version(VERSION)
    .enablePositionalOptions()
    .showHelpAfterError('(run tsdump --help for usage)')
    .configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    })
    .exitOverride()
  registerDump(program, ctx, setExit)
  registerReconcile(program, ctx, setExit)
  registerTxns(program, ctx, setExit)
  registerLso(program, ctx, setExit)
  for (const c of program.commands) c.exitOverride().configureOutput({ writeOut: (s) => ctx.stdout.write(s), writeErr: (s) => ctx.stderr.write(s) })
  return program
}
