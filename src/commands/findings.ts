// A finding is one problem (or notable fact) in the input, always with the file and, where it applies,
// the byte position. The exit code follows the catalogue's one rule (analysis/findings.ts exitCodeOf).
import { toJson } from '../format/json-int64.js'
import type { CliContext } from './context.js'
import type { Finding } from '../analysis/findings.js'
import type { FindingCode } from '../analysis/findings.js'
import { EXIT_OK, exitCodeOf, finding } from '../analysis/findings.js'

/** The codes for input that cannot be used at all. */
export type UnreadableCode = Extract<FindingCode, 'UNREADABLE' | 'NOT_REGULAR_FILE' | 'FILE_TOO_LARGE' | 'FILE_CHANGED'>
import { formatFinding } from '../format/finding-text.js'

export type { Finding, Severity } from '../analysis/findings.js'

export class FindingLog {
  readonly all: Finding[] = []
  exitCode = EXIT_OK

  constructor (private readonly ctx: CliContext, private readonly json: boolean) {}

  add (f: Finding): void {
    this.all.push(f)
    this.exitCode = Math.max(this.exitCode, exitCodeOf(f))
    if (this.json) this.ctx.stdout.write(toJson({ type: 'finding', ...f }) + '\n')
    this.ctx.stderr.write(formatFinding(f) + '\n')
  }

  /** unreadable input: exit 2 (UNREADABLE, or the io/ InputError's own code) */
  unusable (file: string, message: string, code: UnreadableCode = 'UNREADABLE', position?: number): void {
    this.add(finding(code, message, { file, position }))
  }
}

export { formatFinding }
