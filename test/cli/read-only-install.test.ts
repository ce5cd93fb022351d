// tsdump writes nothing into its own installation at run time: an install (bin/, dist/bundle/, package.json,
// node_modules) that its user cannot write, run as another user (nobody, through setpriv) whose home is not
// writable either, gives the output of `node bin/tsdump.js` here, twice (the second run reads the code cache
// the first wrote to the user's cache directory, <tmpdir>/tsdump-<uid>), and the install is unchanged.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-ro-'))
afterAll(() => {
  spawnSync('chmod', ['-R', 'u+w', tmp])
  fs.rmSync(tmp, { recursive: true, force: true })
})

const NOBODY = 65534

/** every file under dir with its size and mtime */
function listing(dir: string): string[] {
  return (fs.readdirSync(dir, { recursive: true, withFileTypes: false }) as string[]).sort().map((f) => {
    const st = fs.lstatSync(path.join(dir, f))
    return `${f} ${st.size} ${st.mtimeMs}`
  })
}

function whyNot(): string | undefined {
  if (process.platform !== 'linux') return 'setpriv is Linux only'
  if (process.getuid?.() !== 0) return 'not root: cannot run as another user'
  const r = spawnSync('setpriv', [
    `--reuid=${NOBODY}`,
    `--regid=${NOBODY}`,
    '--clear-groups',
    process.execPath,
    '-e',
    '0',
  ])
  if (r.error !== undefined || r.status !== 0)
    return `setpriv cannot run node as nobody: ${r.error?.message ?? r.stderr.toString()}`
  return undefined
}

describe('a read-only installation', () => {
  it('runs as a user who cannot write it, with the same output, and stays unchanged', (ctx) => {
    const why = whyNot()
    if (why !== undefined) {
      console.log(`skipping: ${why}`)
      ctx.skip()
      return
    }
    const install = path.join(tmp, 'install')
    fs.mkdirSync(path.join(install, 'dist'), { recursive: true })
    fs.cpSync(path.join(REPO_ROOT, 'bin'), path.join(install, 'bin'), { recursive: true })
    fs.cpSync(path.join(REPO_ROOT, 'dist', 'bundle'), path.join(install, 'dist', 'bundle'), { recursive: true })
    fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(install, 'package.json'))
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(install, 'node_modules'))
    fs.rmSync(path.join(install, 'dist', 'bundle', 'compile-cache'), { recursive: true, force: true })
    const userTmp = path.join(tmp, 'user-tmp')
    fs.mkdirSync(userTmp)
    fs.chmodSync(userTmp, 0o1777)
    fs.chmodSync(tmp, 0o755)
    expect(spawnSync('chmod', ['-R', 'a-w,a+rX', install]).status).toBe(0)
    const before = listing(install)

    // the fixture read from a copy beside the install: the checkout's own directories may be closed to other
    // users (a clone under `mktemp -d`, mode 0700), which says nothing of the install
    const logs = path.join(tmp, 'orders-logs')
    fs.cpSync(path.join(FIXTURES, 'orders', 'logs'), logs, { recursive: true })
    expect(spawnSync('chmod', ['-R', 'a-w,a+rX', logs]).status).toBe(0)
    const env = { PATH: process.env.PATH ?? '', HOME: '/nonexistent', TMPDIR: userTmp }
    const cases = [
      [path.join(logs, 'orders-11-0')],
      ['lso', '--now', '2026-12-01T00:00:00Z', logs],
      ['reconcile', logs],
    ]
    for (const args of cases) {
      const want = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'tsdump.js'), ...args], {
        encoding: 'utf8',
        env: { ...env, TSDUMP_NO_COMPILE_CACHE: '1' },
      })
      for (const round of ['first', 'second']) {
        const got = spawnSync(
          'setpriv',
          [
            `--reuid=${NOBODY}`,
            `--regid=${NOBODY}`,
            '--clear-groups',
            process.execPath,
            path.join(install, 'bin', 'tsdump.js'),
            ...args,
          ],
          { encoding: 'utf8', env, cwd: userTmp },
        )
        const what = `${args.join(' ')} (${round} run)`
        expect(got.stdout, what).toBe(want.stdout)
        expect(got.stderr, what).toBe(want.stderr)
        expect(got.status, what).toBe(want.status)
      }
    }
    expect(listing(install)).toEqual(before)
    // the code cache went to the user's own directory, made private
    const cacheDir = path.join(userTmp, `tsdump-${NOBODY}`)
    const st = fs.statSync(cacheDir)
    expect(st.uid).toBe(NOBODY)
    expect(st.mode & 0o777).toBe(0o700)
    expect(fs.readdirSync(cacheDir).filter((f) => f.endsWith('.bin')).length).toBeGreaterThanOrEqual(3)
  }, 60_000)

  it("a cache directory others can write is never read or written; the user's own is", () => {
    const fixture = path.join(FIXTURES, 'orders', 'logs', 'orders-11-0')
    const run = (xdg: string): string => {
      const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'tsdump.js'), fixture], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: xdg },
      })
      expect(r.status).toBe(0)
      return r.stdout
    }
    const open = path.join(tmp, 'xdg-open')
    fs.mkdirSync(path.join(open, 'tsdump'), { recursive: true })
    fs.chmodSync(path.join(open, 'tsdump'), 0o777)
    const own = path.join(tmp, 'xdg-own')
    expect(run(open)).toBe(run(own))
    expect(fs.readdirSync(path.join(open, 'tsdump'))).toEqual([])
    expect(fs.readdirSync(path.join(own, 'tsdump')).length).toBe(1)
    expect(fs.statSync(path.join(own, 'tsdump')).mode & 0o777).toBe(0o700)
  })
})
