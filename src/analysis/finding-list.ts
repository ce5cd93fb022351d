// A partition's findings, bounded: the first MAX_LISTED_PER_CODE findings of each code are kept, the
// rest only counted: a finding per repeated event (a duplicate marker per transaction) would grow with the
// data (bench/RESULTS.md, "Figures behind choices in the code"). reconcile, txns and lso build their report
// at the end of the partition, so what they keep has to be bounded by the codes, not by the data.
//
// Why 100: enough to see the pattern and to locate the first occurrences (the text printer shows 5 of a
// code and a count anyway); at ~250-400 bytes a finding, 100 of each of the catalogue's ~65 codes is at most
// about 2.5 MiB per partition, and a report's JSON stays readable.
import type { Finding, FindingCode } from './findings.js'
import { FINDING_SEVERITY } from './findings.js'
import { groupedCount } from './count-text.js'

export const MAX_LISTED_PER_CODE = 100

/** code -> how many findings of it were counted but not listed; only codes with some */
export type OmittedFindings = Partial<Record<FindingCode, number>>

/** where an analysis step puts its findings: one by one, or (after listing some of a code) only counted */
export interface FindingSink {
  push: (f: Finding) => void
  /** `n` more of `code`, not listed: only after findings of `code` were pushed */
  count: (code: FindingCode, n: number) => void
}

/**
 * Invariant: a code is counted in `omitted` only once `max` (≥ 1) findings of it are listed, so the exit
 * code of the listed findings (analysis/findings.ts exitCodeFor) is the exit code of them all.
 */
export class FindingList implements FindingSink {
  readonly listed: Finding[] = []
  readonly omitted: OmittedFindings = {}
  private readonly perCode = new Map<FindingCode, number>()

  constructor(private readonly max = MAX_LISTED_PER_CODE) {
    if (!(max >= 1)) throw new RangeError(`FindingList keeps at least one finding per code, not ${max}`)
  }

  push(f: Finding): void {
    const n = this.perCode.get(f.code) ?? 0
    if (n < this.max) {
      this.perCode.set(f.code, n + 1)
      this.listed.push(f)
    } else {
      this.omitted[f.code] = (this.omitted[f.code] ?? 0) + 1
    }
  }

  /** whether the next finding of `code` would be listed (else push only counts it) */
  listing(code: FindingCode): boolean {
    return (this.perCode.get(code) ?? 0) < this.max
  }

  count(code: FindingCode, n: number): void {
    if (n > 0) this.omitted[code] = (this.omitted[code] ?? 0) + n
  }

  /** another list's findings (in its order, under this list's bound) and its counts (a FindingList, or a report's two fields) */
  absorb(other: { readonly listed: readonly Finding[]; readonly omitted: OmittedFindings } | readonly Finding[]): void {
    if (!('listed' in other)) {
      for (const f of other) this.push(f)
      return
    }
    for (const f of other.listed) this.push(f)
    for (const [code, n] of Object.entries(other.omitted) as Array<[FindingCode, number]>) this.count(code, n)
  }
}

/** One finding standing for the `n` findings of `code` a partition's report only counted (text printers, the HTML report). */
export function omittedFinding(code: FindingCode, n: number, partition: string): Finding {
  return {
    severity: FINDING_SEVERITY[code],
    code,
    partition,
    message: `... and ${groupedCount(n)} more ${code} not listed (a partition's report keeps the first ${MAX_LISTED_PER_CODE} findings of each code; --json counts the rest in omittedFindings)`,
  } as Finding
}

/** omittedFinding for each code counted, in the order counted */
export function omittedFindings(omitted: OmittedFindings, partition: string): Finding[] {
  return (Object.entries(omitted) as Array<[FindingCode, number]>).map(([code, n]) =>
    omittedFinding(code, n, partition),
  )
}
