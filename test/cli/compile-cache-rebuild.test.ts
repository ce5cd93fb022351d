// A rebuild in place of the same length must not run the old build's code from the code cache: V8 checks a
// cache against the source's length only, and a stale cache ran old code or crashed (exit 139). The install is a
// copy of bin/ with a bundle of our own; the second bundle has the first one's length and another answer.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-cache-'))
afterAll(() => fs.rmSync(root, { recursive: true, force: true }))

/** a bundle whose main prints `word`, padded with a comment to `length` bytes */
function bundle(word: string, length: number): string {
  // enough functions for the cache to hold compiled code worth reusing
  const body = `exports.main = async () => { process.stdout.write(${JSON.stringify(`${word}\n`)}); return 0 }\n`
  const pad = length - body.length - 6
  if (pad < 0) throw new Error('length too short')
  return `${body}/*${'x'.repeat(pad)}*/\n\n`
}

function run(install: string, cache: string): { out: string; status: number | null } {
  const r = spawnSync(process.execPath, [path.join(install, 'bin', 'tsdump.js'), 'dump', '--version'], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: cache },
  })
  return { out: r.stdout, status: r.status }
}

describe('the code cache after a rebuild in place', () => {
  it('runs the new build, not the cached one, when the bundle keeps its length', () => {
    const install = path.join(root, 'install')
    const cache = path.join(root, 'cache')
    fs.mkdirSync(path.join(install, 'dist', 'bundle'), { recursive: true })
    fs.mkdirSync(cache, { mode: 0o700 })
    fs.cpSync(path.join(REPO_ROOT, 'bin'), path.join(install, 'bin'), { recursive: true })
    const file = path.join(install, 'dist', 'bundle', 'tsdump.cjs')
    fs.writeFileSync(file, bundle('first build', 4096))
    expect(run(install, cache)).toEqual({ out: 'first build\n', status: 0 })
    const written = fs.readdirSync(path.join(cache, 'tsdump')).filter((f) => f.endsWith('.bin'))
    expect(written).toHaveLength(1)
    // the rebuild: same length, another answer, a later modification time
    fs.writeFileSync(file, bundle('second one!', 4096))
    const later = new Date(fs.statSync(file).mtimeMs + 2000)
    fs.utimesSync(file, later, later)
    expect(fs.statSync(file).size).toBe(4096)
    expect(run(install, cache)).toEqual({ out: 'second one!\n', status: 0 })
    // the first build's cache replaced, not kept beside the new one
    const now = fs.readdirSync(path.join(cache, 'tsdump')).filter((f) => f.endsWith('.bin'))
    expect(now).toHaveLength(1)
    expect(now[0]).not.toBe(written[0])
  })
})
