// Every finding code tsdump can emit is explained in docs/findings.md, with the catalogue's severity,
// and the catalogue is the only place that decides exit codes.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { exitCodeFor, finding, FINDING_SEVERITY } from '../../src/analysis/findings.js'
import type { FindingCode } from '../../src/analysis/findings.js'
import { REPO_ROOT as repoRoot } from '../support/paths.js'

const doc = fs.readFileSync(path.join(repoRoot, 'docs', 'findings.md'), 'utf8')

/** code -> severity column of every table row whose first cell names codes (`A` / `B`) */
function documented(): Map<string, string> {
  const out = new Map<string, string>()
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim())
    if (cells.length < 4) continue
    for (const m of cells[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)) out.set(m[1]!, cells[2]!)
  }
  return out
}

describe('findings catalogue', () => {
  const docs = documented()
  it.each(Object.keys(FINDING_SEVERITY))('%s is in docs/findings.md with its severity', (code) => {
    expect(docs.has(code), `docs/findings.md has no row for ${code}`).toBe(true)
    expect(docs.get(code)).toBe(FINDING_SEVERITY[code as FindingCode])
  })

  it('documents no code that tsdump does not emit', () => {
    expect([...docs.keys()].filter((c) => !(c in FINDING_SEVERITY))).toEqual([])
  })

  it('one exit rule: unreadable input 2, errors and warnings 1, info 0', () => {
    expect(exitCodeFor([])).toBe(0)
    expect(exitCodeFor([finding('ZERO_TAIL', 'x')])).toBe(0)
    expect(exitCodeFor([finding('ZERO_TAIL', 'x'), finding('NO_SEGMENT', 'x')])).toBe(1)
    expect(exitCodeFor([finding('CRC_MISMATCH', 'x')])).toBe(1)
    expect(exitCodeFor([finding('CRC_MISMATCH', 'x'), finding('UNREADABLE', 'x')])).toBe(2)
    // the io/ refusals are unreadable input too, whichever command meets them
    for (const c of ['NOT_REGULAR_FILE', 'FILE_TOO_LARGE', 'FILE_CHANGED', 'OUTPUT_WRITE_FAILED'] as const)
      expect(exitCodeFor([finding(c, 'x')])).toBe(2)
  })
})
