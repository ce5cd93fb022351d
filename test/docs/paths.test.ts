// The documents name files, and a file that moved leaves them naming nothing: every path the README and
// docs/*.md name (src/…, test/…, scripts/…, bench/…, fixtures/…, docs/…, or a src/ layer path such as
// `decode/frame-scanner.ts`) must exist, and docs/architecture.md must describe every folder of src/.
// bench/RESULTS*.md is left out: it records how the tree was when each figure was measured.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

const SRC = path.join(REPO_ROOT, 'src')
const layers = fs
  .readdirSync(SRC, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
const ROOTS = ['src', 'test', 'scripts', 'bench', 'fixtures', 'docs', 'bin', '.ci']

/** every folder under src/, relative to src/ (`decode`, `decode/codecs`, ...) */
function srcFolders(dir = SRC, rel = ''): string[] {
  const out: string[] = []
  for (const d of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!d.isDirectory()) continue
    const r = rel === '' ? d.name : `${rel}/${d.name}`
    out.push(r, ...srcFolders(path.join(dir, d.name), r))
  }
  return out
}

/** `a/{b,c}.ts` -> a/b.ts, a/c.ts */
function expand(p: string): string[] {
  const m = /\{([^{}]*)\}/.exec(p)
  if (m === null) return [p]
  return m[1]!.split(',').flatMap((alt) => expand(p.slice(0, m.index) + alt.trim() + p.slice(m.index + m[0].length)))
}

/** the repository paths a Markdown text names: words that start with a root folder or a src/ layer and look like a path */
export function namedPaths(text: string): string[] {
  const starts = [...ROOTS, ...layers].map((r) => r.replace('.', '\\.')).join('|')
  const re = new RegExp(`(?<![\\w./@:-])((?:${starts})/[\\w./{},<>*-]*)`, 'g')
  const out = new Set<string>()
  for (const m of text.matchAll(re)) {
    const p = m[1]!.replace(/[.,-]+$/, '')
    // placeholders and globs (`format/<topic>-text.ts`, `fixtures/*/`) name no one file
    if (/[<>*]/.test(p)) continue
    for (const e of expand(p)) out.add(e)
  }
  return [...out]
}

/** folders .gitignore lists (`bench/data/`): what a document names there is made by a command, not committed */
const ignored = fs
  .readFileSync(path.join(REPO_ROOT, '.gitignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim().replace(/^\//, ''))
  .filter((l) => l.endsWith('/') && !l.startsWith('#'))

function exists(p: string): boolean {
  if (ignored.some((d) => p.startsWith(d))) return true
  const first = p.split('/')[0]!
  const bases = ROOTS.includes(first) ? [REPO_ROOT] : [SRC, REPO_ROOT]
  // a module may be named without its extension (`io/discover`)
  return bases.some((b) => fs.existsSync(path.join(b, p)) || fs.existsSync(path.join(b, `${p}.ts`)))
}

const docs = [
  'README.md',
  'fixtures/README.md',
  ...fs
    .readdirSync(path.join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
]

describe('the documents name paths that exist', () => {
  it('finds the paths a text names', () => {
    expect(
      namedPaths('see `decode/frame-scanner.ts` and src/io/file-source.ts, test/docs/ and commands/{dump,lso}.ts.'),
    ).toEqual(['decode/frame-scanner.ts', 'src/io/file-source.ts', 'test/docs/', 'commands/dump.ts', 'commands/lso.ts'])
    expect(namedPaths('`format/<topic>-text.ts`, fixtures/*/dump-3.9.1/, https://example.org/src/x.ts')).toEqual([])
  })

  for (const doc of docs) {
    it(doc, () => {
      const missing = namedPaths(fs.readFileSync(path.join(REPO_ROOT, doc), 'utf8')).filter((p) => !exists(p))
      expect(missing, `${doc} names paths that do not exist`).toEqual([])
    })
  }

  it('docs/architecture.md describes every folder of src/', () => {
    const text = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8')
    const named = new Set(namedPaths(text).map((p) => p.replace(/^src\//, '').replace(/\/$/, '')))
    const undescribed = srcFolders().filter((f) => !named.has(f))
    expect(undescribed, 'src/ folders docs/architecture.md does not name').toEqual([])
  })
})
