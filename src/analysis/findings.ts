// Findings: problems and notes about the data, reported instead of thrown (STYLE §1a).

export type Severity = 'error' | 'warning' | 'info'

export interface Finding {
  severity: Severity
  /** stable code, e.g. TXNINDEX_MISSING_ENTRY */
  code: string
  file?: string
  /** absolute byte position in `file` */
  position?: number
  message: string
}

/** Findings of severity error make the commands exit 1. */
export function hasErrors (findings: readonly Finding[]): boolean {
  return findings.some((f) => f.severity === 'error')
}
