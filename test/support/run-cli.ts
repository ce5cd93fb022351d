// Runs the CLI in-process with captured output (commander's exitOverride keeps the process alive).
import { StringWriter } from '../../src/format/writer.js'
import type { CommandContext } from '../../src/commands/context.js'
import { main } from '../../src/cli/main.js'

export interface CliResult {
  code: number
  stdout: string
  stderr: string
}

/**
 * The tests' clock, where a command judges age (lso, cleanup, report) and no --now is given: after every fixture
 * was written, and never the machine's, so that no test depends on when or where it runs.
 */
export const TEST_NOW = Date.parse('2027-06-01T00:00:00Z')

export async function runCli(
  argv: string[],
  opts: { colorLevel?: 0 | 1 | 2 | 3; now?: number; cwd?: string } = {},
): Promise<CliResult> {
  const stdout = new StringWriter()
  const stderr = new StringWriter()
  const ctx: CommandContext = {
    stdout,
    stderr,
    colorLevel: opts.colorLevel ?? 0,
    stderrIsTTY: false,
    env: {},
    now: () => opts.now ?? TEST_NOW,
  }
  const before = process.cwd()
  if (opts.cwd !== undefined) process.chdir(opts.cwd)
  try {
    const code = await main(argv, ctx)
    return { code, stdout: stdout.text, stderr: stderr.text }
  } finally {
    if (opts.cwd !== undefined) process.chdir(before)
  }
}
