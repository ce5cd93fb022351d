// What every partition command (reconcile, txns, lso, report) does with the paths it could not use and
// with its exit code, so that they all answer alike.
import type { Finding } from '../analysis/findings.js'
import { EXIT_FINDINGS, EXIT_USAGE, exitCodeFor } from '../analysis/findings.js'
import { formatFinding } from '../format/finding-text.js'
import type { CommandContext } from './context.js'

/**
 * exit code of a partition command: a path that cannot be used 2 (nothing is answered then); else the command
 * answered, and a file in it that could not be read (a FIFO where a .txnindex should be, a sparse 3 GiB
 * .snapshot) is a finding like any other: at most 1 (docs/findings.md, the exit rule)
 */
export function partitionExitCode(
  unusable: readonly Finding[],
  findings: readonly Finding[],
  extra = 0,
  unreadable: readonly Finding[] = [],
): number {
  return unusable.length > 0
    ? EXIT_USAGE
    : Math.max(extra, Math.min(exitCodeFor([...findings, ...unreadable]), EXIT_FINDINGS))
}

/** in the one finding format (`tsdump: error: <path>: position 0: … [UNREADABLE]`), as `dump` prints them */
export function writeUnusable(unusable: readonly Finding[], ctx: CommandContext): void {
  for (const u of unusable) ctx.stderr.write(formatFinding(u) + '\n')
}
