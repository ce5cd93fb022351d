// Entry point: builds the context from the process, runs the program, and is the only place that decides
// the exit code. No exception escapes as a stack trace: a bug is reported in one line with a hint.
import { CommanderError } from 'commander'
import type { CommandContext } from '../commands/context.js'
import type { Writer } from '../format/writer.js'
import { FdWriter } from './fd-writer.js'
import { buildProgram } from './program.js'
import { exitCodeOf, finding } from '../analysis/findings.js'
import { formatFinding } from '../format/finding-text.js'
import { hoistSubcommand } from './argv-order.js'
import { expandAbbreviations, KAFKA_DUMP_LOG } from './commands/kafka-dump-log.js'
import { sameTerminal, StatusLine } from './status-line.js'
import { isTerminal } from './terminal.js'

function colorLevel(env: Record<string, string | undefined>, isTTY: boolean, argv: string[]): 0 | 1 | 2 | 3 {
  if (argv.includes('--no-color') || argv.includes('--compat') || argv.includes('--json')) return 0
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return 0
  if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== '0') return 1
  if (!isTTY || env.TERM === 'dumb') return 0
  return 1
}

export function processContext(argv: string[]): CommandContext {
  const env = process.env
  const stdout = new FdWriter(1)
  const stderr = new FdWriter(2, 64 * 1024, true)
  const ctx: CommandContext = {
    stdout,
    stderr,
    colorLevel: colorLevel(env, isTerminal(1), argv),
    stderrIsTTY: isTerminal(2),
    stdinIsTTY: isTerminal(0),
    env,
    now: () => Date.now(),
    // asked only when help is written: process.stdout costs a start-up its tty stream
    terminalColumns: (fd) => (isTerminal(fd) ? (fd === 1 ? process.stdout : process.stderr).columns : undefined),
  }
  if (ctx.stderrIsTTY) {
    // the progress line is erased before any finding, and before any batch line when stdout is the same terminal
    const status = new StatusLine(2)
    ctx.status = status
    stderr.beforeWrite = () => status.clear()
    if (sameTerminal(1, 2, isTerminal)) stdout.beforeWrite = () => status.clear()
  }
  return ctx
}

/** Run tsdump with `argv` (without node and script); resolves to the exit code. */
export async function main(argv: string[], ctx: CommandContext = processContext(argv)): Promise<number> {
  let code = 0
  const setExit = (c: number): void => {
    code = Math.max(code, c)
  }
  const program = buildProgram(ctx, setExit)
  if (argv.length === 0) {
    // clig.dev: no arguments shows the help; on stderr with exit 2, because no input is a usage error in a script
    program.outputHelp({ error: true })
    flushAll(ctx.stdout, ctx.stderr)
    return 2
  }
  try {
    let args = hoistSubcommand(argv, program)
    const kdl = program.commands.find((c) => c.name() === KAFKA_DUMP_LOG)
    if (args[0] === KAFKA_DUMP_LOG && kdl !== undefined)
      args = [KAFKA_DUMP_LOG, ...expandAbbreviations(args.slice(1), kdl)]
    await program.parseAsync(args, { from: 'user' })
  } catch (e) {
    if (e instanceof CommanderError) {
      // help and version are successes; everything else commander rejects is a usage error
      code = e.exitCode === 0 || e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? 0 : 2
    } else {
      const err = e as Error
      ctx.stderr.write(`tsdump: internal error: ${err.message} (please report this with the input that caused it)\n`)
      if (ctx.env.TSDUMP_DEBUG !== undefined) ctx.stderr.write(`${err.stack ?? ''}\n`)
      code = Math.max(code, 2)
    }
  }
  flushAll(ctx.stdout, ctx.stderr)
  ctx.status?.close?.()
  return reportOutputFailure(ctx, code)
}

/**
 * A failed write on stdout is its own clear case (exit 2), in the one finding format, naming the output
 * and never the input. EPIPE is not a failure: `| head` closing the pipe is normal. A failed stderr
 * cannot be reported anywhere; the exit code still tells.
 */
function reportOutputFailure(ctx: CommandContext, code: number): number {
  const err = ctx.stdout.failure
  if (err === undefined) return code
  const f = finding('OUTPUT_WRITE_FAILED', `write failed: ${err.message}`, { file: '<stdout>' })
  try {
    ctx.stderr.write(formatFinding(f) + '\n')
    ctx.stderr.flush()
  } catch {
    /* nothing more can be said */
  }
  return Math.max(code, exitCodeOf(f))
}

function flushAll(...ws: Writer[]): void {
  for (const w of ws) {
    try {
      w.flush()
    } catch {
      /* nothing more can be said */
    }
  }
}
