// A merge conflict resolved by hand once left a bare `=======` line in README.md: no document or source file keeps one.
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

describe('no merge conflict markers', () => {
  it('in any tracked text file but the fixtures', () => {
    const files = execFileSync('git', ['ls-files'], { cwd: REPO_ROOT, encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.(md|ts|mjs|js|json|java|sh|cjs)$/.test(f) && !f.startsWith('fixtures/'))
    expect(files.length).toBeGreaterThan(100)
    const bad: string[] = []
    for (const f of files) {
      const p = path.join(REPO_ROOT, f)
      if (!fs.existsSync(p)) continue
      fs.readFileSync(p, 'utf8')
        .split('\n')
        .forEach((l, i) => {
          if (/^(<<<<<<<|=======|>>>>>>>)( |$)/.test(l)) bad.push(`${f}:${i + 1}`)
        })
    }
    expect(bad).toEqual([])
  })
})
