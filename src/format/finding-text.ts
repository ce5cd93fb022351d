// The one stderr line format of a finding, shared by every command:
//   tsdump: <severity>: <file>: position <byte>: <message> [<CODE>]
import type { Finding } from '../analysis/findings.js'
import { groupedCount } from '../analysis/count-text.js'
import type { Writer } from './writer.js'

//   (a partition-level finding: `tsdump: <severity>: <topic-partition>: offsets <first>..<last>: <message> [<CODE>]`)
export function formatFinding(f: Finding): string {
  return `tsdump: ${f.severity}: ${findingPlace(f)}${messageAfterPlace(f)} [${f.code}]`
}

/** the message, less the partition label it opens with when the place already names that partition */
export function messageAfterPlace(f: Finding): string {
  const placed = f.partition !== undefined && (f.file === undefined || f.position === undefined)
  return placed && f.message.startsWith(`${f.partition}: `) ? f.message.slice(f.partition!.length + 2) : f.message
}

/** `<file>: position <byte>: `, `<topic-partition>: offsets <first>..<last>: ` or both (a file without a position) */
export function findingPlace(f: Finding): string {
  const offsets = f.firstOffset !== undefined ? `offsets ${f.firstOffset}..${f.lastOffset ?? f.firstOffset}: ` : ''
  if (f.file !== undefined && f.position !== undefined) return `${f.file}: position ${f.position}: `
  if (f.file !== undefined) return `${f.file}: ${f.partition !== undefined ? `${f.partition}: ${offsets}` : ''}`
  return f.partition !== undefined ? `${f.partition}: ${offsets}` : ''
}

/** up to this many findings of one code in one file are all printed; more become the first one and a count */
export const REPEATS_SHOWN = 5

/**
 * Repeated findings, throttled (OFFSETS_NOT_INCREASING once printed 1,023 lines for one file): per file and
 * code, the first finding is printed at once; the next ones are held, and printed by drain() when there were
 * at most REPEATS_SHOWN in all, else replaced by one line with the count. Only the stderr text is throttled:
 * the JSON output keeps every finding.
 */
export class FindingThrottle {
  private readonly seen = new Map<string, { first: Finding; n: number; held: string[] }>()

  /** the line to print for `f` now, or null (held or counted) */
  line(f: Finding): string | null {
    const key = `${f.file ?? f.partition ?? ''}\u0000${f.code}`
    let s = this.seen.get(key)
    if (s === undefined) {
      s = { first: f, n: 0, held: [] }
      this.seen.set(key, s)
    }
    s.n++
    if (s.n === 1) return formatFinding(f)
    if (s.n <= REPEATS_SHOWN) s.held.push(formatFinding(f))
    else s.held.length = 0
    return null
  }

  /** the held lines, or a count line where there were too many; call at the end of a file or run */
  drain(): string[] {
    const out: string[] = []
    for (const { first, n, held } of this.seen.values()) {
      if (n <= REPEATS_SHOWN) {
        out.push(...held)
        continue
      }
      const { position: _p, ...rest } = first
      out.push(
        formatFinding({
          ...rest,
          message: `${groupedCount(n - 1)} more like the one above (${groupedCount(n)} in all; --json lists each)`,
        } as Finding),
      )
    }
    this.seen.clear()
    return out
  }
}

/** A list of findings as stderr lines, repeats throttled (FindingThrottle). */
export function formatFindingList(findings: readonly Finding[]): string {
  const t = new FindingThrottle()
  let out = ''
  for (const f of findings) {
    const l = t.line(f)
    if (l !== null) out += l + '\n'
  }
  for (const l of t.drain()) out += l + '\n'
  return out
}

/** A printer's stderr lines of findings, as they occur: throttled per file and code (FindingThrottle), drained per file. */
export class FindingLines {
  private readonly throttle = new FindingThrottle()

  constructor(private readonly stderr: Writer) {}

  write(f: Finding): void {
    const line = this.throttle.line(f)
    if (line !== null) this.stderr.write(line + '\n')
  }

  drain(): void {
    for (const l of this.throttle.drain()) this.stderr.write(l + '\n')
  }
}
