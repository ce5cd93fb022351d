// Every example in README.md runs as written after its first commands (npm ci, then the alias it gives):
// each fenced block of `$ ` commands runs in bash, in a temp dir that has the repository's fixtures/ (so
// that an example writing a file writes it there), with `tsdump` defined as the alias defines it; no
// command may be missing (127) or a usage error (2), and the output the block shows must be in what it
// printed, line by line in order (`...` in a shown line stands for text left out).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

const README = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-readme-'))
fs.symlinkSync(path.join(REPO_ROOT, 'fixtures'), path.join(tmp, 'fixtures'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

interface Block {
  line: number
  commands: string[]
  shown: string[]
}

/** README's fenced blocks with `$ ` commands: the commands (continuation lines joined) and the lines shown */
function blocks(): Block[] {
  const out: Block[] = []
  const lines = README.split('\n')
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue
    const start = i + 1
    let j = start
    while (j < lines.length && !lines[j]!.startsWith('```')) j++
    const body = lines.slice(start, j)
    i = j
    if (!body.some((l) => l.startsWith('$ '))) continue
    const b: Block = { line: start + 1, commands: [], shown: [] }
    for (let k = 0; k < body.length; k++) {
      if (!body[k]!.startsWith('$ ')) {
        if (body[k]!.trim() !== '') b.shown.push(body[k]!)
        continue
      }
      let cmd = body[k]!.slice(2)
      while (cmd.endsWith('\\') && k + 1 < body.length) cmd = `${cmd.slice(0, -1)} ${body[++k]!.trim()}`
      b.commands.push(cmd)
    }
    out.push(b)
  }
  return out
}

/** the alias README's first commands define, as a shell function with the same effect */
function tsdumpDefinition(): string {
  const m = /^alias tsdump="node \$PWD\/bin\/tsdump\.js"/m.exec(README)
  expect(m, 'README defines tsdump with an alias in its first commands').not.toBeNull()
  return `tsdump () { node ${JSON.stringify(path.join(REPO_ROOT, 'bin', 'tsdump.js'))} "$@"; }`
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
/** a shown line as a pattern: `...` is text left out, runs of spaces may differ */
const pattern = (l: string): RegExp =>
  new RegExp(
    `^${l
      .trim()
      .split('...')
      .map((p) => escapeRegExp(p).replace(/ +/g, ' +'))
      .join('.*')}$`,
  )

const all = blocks()

describe('README examples', () => {
  it('has its examples as $ blocks, none with npx (19-90 s a first run) or a bare tsdump outside them', () => {
    expect(all.length).toBeGreaterThan(8)
    for (const b of all) for (const c of b.commands) expect(c, `README line ${b.line}`).not.toMatch(/\bnpx tsdump\b/)
  })

  for (const b of all) {
    it(`the block at README line ${b.line} runs as written: ${b.commands[0]}`, () => {
      const rcFile = path.join(tmp, `rc-${b.line}`)
      const script = [
        tsdumpDefinition(),
        ...b.commands.map((c) => `${c}\necho "$?" >> ${JSON.stringify(rcFile)}`),
      ].join('\n')
      const r = spawnSync('bash', ['-c', script], {
        cwd: tmp,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1' },
        maxBuffer: 1 << 28,
        timeout: 120_000,
      })
      const rcs = fs.readFileSync(rcFile, 'utf8').trim().split('\n').map(Number)
      expect(rcs.length).toBe(b.commands.length)
      rcs.forEach((rc, k) => expect(rc, `${b.commands[k]}\n${r.stderr}`).not.toBe(127))
      rcs.forEach((rc, k) => expect(rc, `${b.commands[k]}\n${r.stderr}`).not.toBe(2))
      const got = `${r.stdout}\n${r.stderr}`.split('\n').map((l) => l.trimEnd())
      let at = 0
      for (const s of b.shown) {
        const p = pattern(s)
        const found = got.findIndex((l, k) => k >= at && p.test(l.trim()))
        expect(found, `README line ${b.line}: shown line not printed (in order): ${s}`).toBeGreaterThanOrEqual(0)
        at = found + 1
      }
    }, 180_000)
  }
})
