// `tsdump --version` and the library's VERSION are package.json's version, read at run time: the test changes
// the version in a copy of the installed layout (package.json, bin/, dist/ under node_modules/tsdump) and the
// copy must report the changed one. A version written into the code would print the checkout's instead.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'

const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as Record<string, unknown> & {
  version: string
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-version-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

describe('tsdump --version', () => {
  it("prints package.json's version and exits 0", async () => {
    const r = await runCli(['--version'])
    expect(r.code).toBe(0)
    expect(r.stdout.trim()).toBe(pkg.version)
  })

  it('an installed package reports its own package.json, from the CLI and from the library', () => {
    const installed = path.join(tmp, 'node_modules', 'tsdump')
    fs.mkdirSync(installed, { recursive: true })
    fs.cpSync(path.join(REPO_ROOT, 'bin'), path.join(installed, 'bin'), { recursive: true })
    fs.cpSync(path.join(REPO_ROOT, 'dist'), path.join(installed, 'dist'), { recursive: true })
    fs.writeFileSync(path.join(installed, 'package.json'), JSON.stringify({ ...pkg, version: '98.7.6-test' }))
    // its dependencies (commander, chalk, ...) from this checkout
    fs.symlinkSync(path.join(REPO_ROOT, 'node_modules'), path.join(installed, 'node_modules'), 'dir')
    const bin = spawnSync(process.execPath, [path.join(installed, 'bin', 'tsdump.js'), '--version'], {
      cwd: tmp,
      encoding: 'utf8',
    })
    expect(bin.stderr).toBe('')
    expect([bin.status, bin.stdout.trim()]).toEqual([0, '98.7.6-test'])
    const lib = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "import { VERSION } from 'tsdump'; console.log(VERSION)"],
      { cwd: tmp, encoding: 'utf8' },
    )
    expect(lib.stderr).toBe('')
    expect(lib.stdout.trim()).toBe('98.7.6-test')
  })
})
