// The linter holds STYLE's rules that a lint can hold: biome.jsonc's rules, run on the tree by `npm run lint`
// (part of `npm test`), must reject a Buffer#slice and a node:fs import outside io/ and cli/ (Biome runs the
// repository's configuration in a copy of its layout in a temp dir), and the tree must pass them and be formatted
// as Biome formats it (`biome ci` checks both; `npx biome format --write .` formats).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './support/paths.js'

const biome = path.join(REPO_ROOT, 'node_modules', '@biomejs', 'biome', 'bin', 'biome')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-lint-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

let n = 0
function lint(file: string, text: string): { code: number | null; out: string } {
  const dir = path.join(tmp, String(n++))
  fs.mkdirSync(path.join(dir, path.dirname(file)), { recursive: true })
  fs.cpSync(path.join(REPO_ROOT, 'lint'), path.join(dir, 'lint'), { recursive: true })
  fs.copyFileSync(path.join(REPO_ROOT, 'biome.jsonc'), path.join(dir, 'biome.jsonc'))
  fs.writeFileSync(path.join(dir, file), text)
  const r = spawnSync(process.execPath, [biome, 'lint', '--colors=off', '--vcs-enabled=false', file], {
    cwd: dir,
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout + r.stderr }
}

describe('biome: STYLE rules held by the linter', () => {
  it('Buffer#slice is rejected, subarray and a string slice are not', () => {
    const bad = lint(
      'src/decode/x.ts',
      "export const a = (buf: Buffer): Buffer => buf.slice(1)\nexport const b = Buffer.from('ab').slice(1)\n",
    )
    expect(bad.out.match(/use subarray/g)?.length, bad.out).toBe(2)
    expect(bad.code).not.toBe(0)
    const good = lint(
      'src/decode/x.ts',
      "export const a = (buf: Buffer): Buffer => buf.subarray(1)\nexport const s = 'abc'.slice(1)\n",
    )
    expect(good.out).not.toContain('use subarray')
    expect(good.code, good.out).toBe(0)
  })

  it('node:fs is rejected outside io/ and cli/, allowed in them', () => {
    const text = "import * as fs from 'node:fs'\nexport const n = (p: string): number => fs.statSync(p).size\n"
    for (const dir of ['decode', 'analysis', 'commands', 'format', 'scan']) {
      const r = lint(`src/${dir}/x.ts`, text)
      expect(r.out, dir).toContain('noRestrictedImports')
      expect(r.code, dir).not.toBe(0)
    }
    for (const dir of ['io', 'cli']) expect(lint(`src/${dir}/x.ts`, text).code, dir).toBe(0)
  })

  it('the tree passes `npm run lint`', () => {
    const r = spawnSync(process.execPath, [biome, 'ci', '--colors=off'], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    })
    expect(r.status, r.stdout + r.stderr).toBe(0)
  })
})
