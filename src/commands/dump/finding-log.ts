// A finding is one problem (or notable fact) in the input, always with the file and, where it applies,
// the byte position. The dump hands each one to its printer the moment it is found (format/printer.ts
// FindingPrinter: the stderr line, the JSON object) and keeps only counts: memory does not grow with the
// findings (1 M bad-CRC batches held 541 MiB when every finding was kept until exit). The exit code
// follows the catalogue's one rule (analysis/findings.ts exitCodeOf).
import * as path from 'node:path'
import { parsePartitionDirName } from '../../io/segment-names.js'
import type { Finding } from '../../analysis/findings.js'
import type { FindingCode } from '../../analysis/findings.js'
import { EXIT_OK, exitCodeOf, finding, UNREADABLE_CODES } from '../../analysis/findings.js'
import type { FindingPrinter, FindingWhere } from '../../format/printer.js'
import { REPEATS_SHOWN } from '../../format/finding-text.js'

/** The codes for input that cannot be used at all. */
export type UnreadableCode = Extract<
  FindingCode,
  | 'UNREADABLE'
  | 'NOT_REGULAR_FILE'
  | 'FILE_TOO_LARGE'
  | 'FILE_CHANGED'
  | 'REMOTE_UNREADABLE'
  | 'REMOTE_LAYOUT_UNKNOWN'
  | 'REMOTE_KEY_UNUSABLE'
  | 'REMOTE_CHUNK_UNREADABLE'
>

export type { Finding, Severity } from '../../analysis/findings.js'

export class FindingLog {
  exitCode = EXIT_OK
  /** findings per code so far (a code's severity is fixed by the catalogue) */
  readonly counts = new Map<FindingCode, number>()
  /**
   * A dump worker's log: the findings of the range it is dumping, posted to the main thread, which throttles
   * their stderr lines per file (absorb). Bounded by the range; null in the main thread, which keeps none.
   */
  readonly forwarded: Finding[] | null
  /**
   * A dump worker's findings past the first FORWARDED_PER_CODE of a code (and file) in its range, as counts:
   * [index in `forwarded` of the last one sent, how many more]. The main thread prints at most REPEATS_SHOWN
   * lines of a code per file anyway, so the objects were only counted there; posting each one cost 40 MiB of
   * peak RSS and half the CPU on 1 M bad-CRC batches with 2 workers.
   */
  readonly repeats: Array<[number, number]> | null
  private readonly perCode: Map<string, { index: number; n: number; repeat: number }> | null
  private lastFile: string | undefined
  private lastWhere: FindingWhere = {}

  /** `worker`: the printer writes only the finding's JSON object (the main thread writes the lines) */
  constructor(
    private readonly printer: FindingPrinter,
    private readonly worker = false,
  ) {
    this.forwarded = worker ? [] : null
    this.repeats = worker ? [] : null
    this.perCode = worker ? new Map() : null
  }

  add(f: Finding): void {
    this.count(f)
    this.printer.finding(f, this.whereOf(f.file), this.worker ? 'object' : 'all')
    if (this.forwarded !== null) this.forward(f, this.forwarded)
  }

  /** a finding whose JSON object a dump worker wrote already (in its output): counted, and its stderr line throttled */
  absorb(f: Finding): void {
    this.count(f)
    this.printer.finding(f, {}, 'line')
  }

  /** a dump worker's range: its findings in order, then the repeats it sent as counts */
  absorbRange(findings: readonly Finding[], repeats: ReadonlyArray<readonly [number, number]>): void {
    for (const f of findings) this.absorb(f)
    for (const [index, n] of repeats) {
      const f = findings[index]!
      for (let k = 0; k < n; k++) this.absorb(f)
    }
  }

  private forward(f: Finding, to: Finding[]): void {
    const key = `${f.file ?? ''}\u0000${f.code}`
    let c = this.perCode!.get(key)
    if (c === undefined) {
      c = { index: -1, n: 0, repeat: -1 }
      this.perCode!.set(key, c)
    }
    if (++c.n <= FORWARDED_PER_CODE) {
      c.index = to.length
      to.push(f)
      return
    }
    if (c.repeat < 0) {
      c.repeat = this.repeats!.length
      this.repeats!.push([c.index, 0])
    }
    this.repeats![c.repeat]![1]++
  }

  /** at the end of each file: the repeats held back, or their count */
  endFile(): void {
    this.printer.findingsEnd()
  }

  /** unreadable input: exit 2 (UNREADABLE, or the io/ InputError's own code) */
  unusable(file: string, message: string, code: UnreadableCode = 'UNREADABLE', position?: number): void {
    this.add(finding(code, message, { file, position }))
  }

  /** findings so far of the codes for input that cannot be used (UNREADABLE_CODES) */
  unreadableCount(): number {
    let n = 0
    for (const [code, k] of this.counts) if (UNREADABLE_CODES.has(code)) n += k
    return n
  }

  private count(f: Finding): void {
    this.counts.set(f.code, (this.counts.get(f.code) ?? 0) + 1)
    this.exitCode = Math.max(this.exitCode, exitCodeOf(f))
  }

  /** findings come in runs from one file: its partition is worked out once per run */
  private whereOf(file: string | undefined): FindingWhere {
    if (file === undefined) return {}
    if (file !== this.lastFile) {
      this.lastFile = file
      this.lastWhere = partitionOf(file)
    }
    return this.lastWhere
  }
}

/** more findings of one code than the main thread's stderr throttle can show (REPEATS_SHOWN + 1): sent as a count */
const FORWARDED_PER_CODE = REPEATS_SHOWN + 1

/** topic and partition of the partition directory a file is in (`<topic>-<partition>`), or nothing */
export function partitionOf(file: string): { topic: string; partition: number } | Record<string, never> {
  return parsePartitionDirName(path.basename(path.dirname(path.resolve(file)))) ?? {}
}
