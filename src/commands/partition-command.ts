// What every partition command (reconcile, txns, lso, report) does with the paths it could not use and
// with its exit code, so that they all answer alike.
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE, exitCodeFor } from '../analysis/findings.js'
import { formatFinding } from '../format/finding-text.js'
import type { CommandContext } from './context.js'

/** exit code of a partition command: unusable input 2, else the findings' rule (plus `extra`) */
export function partitionExitCode (unusable: readonly Finding[], findings: readonly Finding[], extra = 0): number {
  return unusable.length > 0 ? EXIT_USAGE : Math.max(extra, exitCodeFor(findings))
}

/** in the one finding format (`tsdump: error: <path>: position 0: … [UNREADABLE]`), as `dump` prints them */
export function writeUnusable (unusable: readonly Finding[], ctx: CommandContext): void {
  for (const u of unusable) ctx.stderr.write(formatFinding(u) + '\n')
}
