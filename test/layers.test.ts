// The layer rule is checked, not just written down: dependency-cruiser with the repository's config over
// src/ must report no violation, and the same config must reject a wrong-way type-only import.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { createRequire } from 'node:module'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from './support/paths.js'

const depcruise = path.join(REPO_ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs')
const config = path.join(REPO_ROOT, '.dependency-cruiser.cjs')

function cruise(cwd: string): { code: number | null; out: string } {
  const r = spawnSync(process.execPath, [depcruise, 'src', '--config', config, '--output-type', 'err'], {
    cwd,
    encoding: 'utf8',
  })
  return { code: r.status, out: r.stdout + r.stderr }
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-layers-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('layers: bytes -> decode -> analysis -> format -> commands -> cli; io and scan', () => {
  it('every folder of src/ is a layer of the rule', () => {
    const rules = (createRequire(import.meta.url)(config) as { forbidden: Array<{ name: string }> }).forbidden.map(
      (r) => r.name,
    )
    const folders = fs
      .readdirSync(path.join(REPO_ROOT, 'src'), { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
    expect(folders.length).toBeGreaterThan(6)
    for (const f of folders)
      expect(rules, `src/${f}/ has no layer rule in .dependency-cruiser.cjs`).toContain(`${f}-imports-only-below`)
  })

  it('src/ has no wrong-way import', () => {
    const r = cruise(REPO_ROOT)
    expect(r.out).toContain('no dependency violations')
    expect(r.code).toBe(0)
  })

  it('a type-only import from decode into cli fails the check', () => {
    fs.mkdirSync(path.join(tmp, 'src', 'decode'), { recursive: true })
    fs.mkdirSync(path.join(tmp, 'src', 'cli'), { recursive: true })
    fs.writeFileSync(
      path.join(tmp, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
        include: ['src'],
      }),
    )
    fs.writeFileSync(path.join(tmp, 'src', 'cli', 'context.ts'), 'export interface Ctx { n: number }\n')
    fs.writeFileSync(
      path.join(tmp, 'src', 'decode', 'x.ts'),
      "import type { Ctx } from '../cli/context.js'\nexport const f = (c: Ctx): number => c.n\n",
    )
    const r = cruise(tmp)
    expect(r.out).toContain('decode-imports-only-below')
    expect(r.code).not.toBe(0)
  })

  it('format importing the partition scan fails the check (scan is above analysis and io, beside format)', () => {
    const dir = path.join(tmp, 'scan')
    fs.mkdirSync(path.join(dir, 'src', 'scan'), { recursive: true })
    fs.mkdirSync(path.join(dir, 'src', 'format'), { recursive: true })
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true },
        include: ['src'],
      }),
    )
    fs.writeFileSync(path.join(dir, 'src', 'scan', 'scan.ts'), 'export const scanned = 1\n')
    fs.writeFileSync(
      path.join(dir, 'src', 'format', 'x.ts'),
      "import { scanned } from '../scan/scan.js'\nexport const f = (): number => scanned\n",
    )
    const r = cruise(dir)
    expect(r.out).toContain('format-imports-only-below')
    expect(r.code).not.toBe(0)
  })

  it('a node:fs import outside io/ and cli/ fails the check', () => {
    const dir = path.join(tmp, 'fs')
    fs.mkdirSync(path.join(dir, 'src', 'commands'), { recursive: true })
    fs.writeFileSync(
      path.join(dir, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, types: ['node'] },
        include: ['src'],
      }),
    )
    fs.writeFileSync(
      path.join(dir, 'src', 'commands', 'x.ts'),
      "import * as fs from 'node:fs'\nexport const names = (d: string): string[] => fs.readdirSync(d)\n",
    )
    const r = cruise(dir)
    expect(r.out).toContain('fs-only-in-io-and-cli')
    expect(r.code).not.toBe(0)
  })
})

/** every .ts file under `dir` */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name))
}

describe('the layout stays navigable', () => {
  it('no src/ file is over 400 lines (house rule: small files named for what they hold)', () => {
    const long = sources(path.join(REPO_ROOT, 'src'))
      .filter((f) => !f.includes(`${path.sep}generated${path.sep}`))
      .map((f) => ({ f: path.relative(REPO_ROOT, f), lines: fs.readFileSync(f, 'utf8').split('\n').length - 1 }))
      .filter((x) => x.lines > 400)
    expect(long).toEqual([])
  })

  it('src/commands/ holds the commands: at most 20 files directly in it (internals and workers have folders)', () => {
    const direct = fs
      .readdirSync(path.join(REPO_ROOT, 'src', 'commands'), { withFileTypes: true })
      .filter((e) => e.isFile())
    expect(direct.length).toBeLessThanOrEqual(20)
  })
})
