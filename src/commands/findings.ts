// A finding is one problem (or notable fact) in the input, always with the file and, where it applies,
// the byte position. Findings decide the exit code: error/warning → 1; info → 0.
import { toJson } from '../format/json-int64.js'
import type { CliContext } from '../cli/context.js'
import type { Finding } from '../analysis/findings.js'
import { formatFinding } from '../format/finding-text.js'

export type { Finding, Severity } from '../analysis/findings.js'

export const EXIT_OK = 0
export const EXIT_FINDINGS = 1
export const EXIT_USAGE = 2

export class FindingLog {
  readonly all: Finding[] = []
  exitCode = EXIT_OK

  constructor (private readonly ctx: CliContext, private readonly json: boolean) {}

  add (f: Finding): void {
    this.all.push(f)
    if (f.severity !== 'info') this.exitCode = Math.max(this.exitCode, EXIT_FINDINGS)
    if (this.json) this.ctx.stdout.write(toJson({ type: 'finding', ...f }) + '\n')
    this.ctx.stderr.write(formatFinding(f) + '\n')
  }

  /** unreadable input or bad usage: exit 2 */
  unusable (file: string, message: string, code = 'UNREADABLE', position?: number): void {
    this.exitCode = Math.max(this.exitCode, EXIT_USAGE)
    const f: Finding = { severity: 'error', code, file, message, ...(position !== undefined ? { position } : {}) }
    this.all.push(f)
    if (this.json) this.ctx.stdout.write(toJson({ type: 'finding', ...f }) + '\n')
    this.ctx.stderr.write(formatFinding(f) + '\n')
  }
}

export { formatFinding }
