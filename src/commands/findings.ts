// A finding is one problem (or notable fact) in the input, always with the file and, where it applies,
// the byte position. The exit code follows the catalogue's one rule (analysis/findings.ts exitCodeOf).
import * as path from 'node:path'
import { toJson } from '../format/json-int64.js'
import { parsePartitionDirName } from '../io/segment-names.js'
import type { CliContext } from './context.js'
import type { Finding } from '../analysis/findings.js'
import type { FindingCode } from '../analysis/findings.js'
import { EXIT_OK, exitCodeOf, finding } from '../analysis/findings.js'
import { FindingThrottle, formatFinding } from '../format/finding-text.js'

/** The codes for input that cannot be used at all. */
export type UnreadableCode = Extract<FindingCode, 'UNREADABLE' | 'NOT_REGULAR_FILE' | 'FILE_TOO_LARGE' | 'FILE_CHANGED'>

export type { Finding, Severity } from '../analysis/findings.js'

export class FindingLog {
  readonly all: Finding[] = []
  exitCode = EXIT_OK
  private readonly throttle = new FindingThrottle()

  /** `stderrLines` false: a dump worker's log, whose stderr lines the main thread's log throttles per file (absorb) */
  constructor (private readonly ctx: CliContext, private readonly json: boolean, private readonly stderrLines = true) {}

  add (f: Finding): void {
    if (this.json) this.ctx.stdout.write(toJson({ type: 'finding', ...f, ...(f.file !== undefined ? partitionOf(f.file) : {}) }) + '\n')
    if (this.stderrLines) this.absorb(f)
    else { this.all.push(f); this.exitCode = Math.max(this.exitCode, exitCodeOf(f)) }
  }

  /** a finding whose JSON line is written already (by a dump worker, in its output): counted, and its stderr line throttled */
  absorb (f: Finding): void {
    this.all.push(f)
    this.exitCode = Math.max(this.exitCode, exitCodeOf(f))
    const line = this.throttle.line(f)
    if (line !== null) this.ctx.stderr.write(line + '\n')
  }

  /** at the end of each file: the repeats held back, or their count */
  endFile (): void {
    for (const l of this.throttle.drain()) this.ctx.stderr.write(l + '\n')
  }

  /** unreadable input: exit 2 (UNREADABLE, or the io/ InputError's own code) */
  unusable (file: string, message: string, code: UnreadableCode = 'UNREADABLE', position?: number): void {
    this.add(finding(code, message, { file, position }))
  }
}

export { formatFinding }

/** topic and partition of the partition directory a file is in (`<topic>-<partition>`), or nothing */
export function partitionOf (file: string): { topic: string, partition: number } | Record<string, never> {
  return parsePartitionDirName(path.basename(path.dirname(path.resolve(file)))) ?? {}
}
