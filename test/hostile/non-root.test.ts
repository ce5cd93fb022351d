// Unreadable paths, as a user who cannot read them meets them: the installed CLI (bin/tsdump.js, whose input-size
// probe once died on EACCES with a stack trace) run as nobody through setpriv, and the exit rule of replicas and
// remote (2 only when nothing could be read; one unreadable file among readable ones is a finding, exit 1).
// Root reads everything, so these run as uid 65534; where the machine cannot switch user, they skip and say why.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES, FIXTURES_44, REPO_ROOT } from '../support/paths.js'

const BIN = path.join(REPO_ROOT, 'bin', 'tsdump.js')
const AS_NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups']

/** why this machine cannot run a command as nobody, or null */
function cannotSwitchUser(): string | null {
  if (process.getuid?.() !== 0) return 'not running as root: cannot switch to uid 65534'
  const r = spawnSync(
    'setpriv',
    [...AS_NOBODY, process.execPath, '-e', 'require("fs").readFileSync(process.argv[1])', BIN],
    { encoding: 'utf8' },
  )
  if (r.error !== undefined) return `setpriv is not available (${r.error.message})`
  if (r.status !== 0) return `nobody cannot read the checkout (${BIN}): ${r.stderr.trim().split('\n')[0] ?? ''}`
  return null
}

const why = cannotSwitchUser()
if (why !== null) console.log(`non-root tests skipped: ${why}`)
let tmp = ''
beforeAll(() => {
  if (why !== null) return
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-nonroot-'))
  fs.cpSync(path.join(FIXTURES, 'orders', 'logs'), path.join(tmp, 'orders'), { recursive: true })
  fs.cpSync(path.join(FIXTURES_44, 'replicas-clean'), path.join(tmp, 'replicas'), { recursive: true })
  fs.cpSync(path.join(FIXTURES_44, 'tiered'), path.join(tmp, 'tiered'), { recursive: true })
  spawnSync('chmod', ['-R', 'a+rX', tmp])
  fs.chmodSync(path.join(tmp, 'orders', 'orders-11-0'), 0o000)
  fs.chmodSync(path.join(tmp, 'replicas', 'broker-1', 'clean-0', '00000000000000000000.log'), 0o000)
  fs.chmodSync(path.join(tmp, 'tiered', 'logs', '__remote_log_metadata-1', '00000000000000000000.log'), 0o000)
})
afterAll(() => {
  if (tmp !== '') {
    spawnSync('chmod', ['-R', 'u+rwX', tmp])
    fs.rmSync(tmp, { recursive: true, force: true })
  }
})

function asNobody(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync('setpriv', [...AS_NOBODY, process.execPath, BIN, ...args], {
    cwd: tmp,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}
const noCrash = (r: { stderr: string }): void => {
  expect(r.stderr).not.toMatch(/internal error|\n\s+at |EACCES: permission denied, scandir/)
}

describe('as a user who cannot read some of the paths (uid 65534)', () => {
  it.skipIf(why !== null)(
    'every command given a log directory with an unreadable partition: a finding, no stack trace',
    () => {
      for (const args of [
        ['dump', 'orders'],
        ['reconcile', 'orders'],
        ['txns', 'orders'],
        ['lso', 'orders'],
        ['transactions', 'orders'],
        ['cleanup', 'orders'],
        ['report', '-o', path.join(tmp, 'r.html'), 'orders'],
        ['replicas', 'orders', 'orders'],
        ['remote', '--remote-storage', 'tiered/remote', 'orders'],
      ]) {
        const r = asNobody(args)
        noCrash(r)
        // (replicas writes its findings into its text on stdout)
        expect(r.stderr + r.stdout, args.join(' ')).toMatch(/orders-11-0.*permission denied.*\[UNREADABLE\]/)
        expect(r.code, args.join(' ')).not.toBe(0)
      }
      const writable = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-nonroot-out-'))
      fs.chmodSync(writable, 0o777)
      // the rest of the log dir is answered and the exit is 1, not 2: a broker marks one bad directory offline
      // and serves the others
      for (const args of [
        ['reconcile', 'orders'],
        ['txns', 'orders'],
        ['lso', 'orders'],
        ['transactions', 'orders'],
        ['cleanup', 'orders'],
        ['report', '-o', '-', 'orders'],
        ['doctor', 'orders'],
        ['export', '--format', 'ndjson', '-o', path.join(writable, 'exported'), 'orders'],
      ]) {
        const r = asNobody(args)
        expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(1)
        expect(r.stderr, args.join(' ')).toMatch(/orders-11-0: permission denied \[UNREADABLE\]/)
        expect(r.stdout, args.join(' ')).toMatch(/orders-10/)
      }
      fs.rmSync(writable, { recursive: true, force: true })
      // the unreadable directory named alone: nothing could be read, exit 2
      const alone = asNobody(['reconcile', 'orders/orders-11-0'])
      noCrash(alone)
      expect(alone.code).toBe(2)
    },
  )

  it.skipIf(why !== null)(
    'replicas and remote with one unreadable file among readable ones: the finding, exit 1',
    () => {
      const rep = asNobody(['replicas', 'replicas/broker-1', 'replicas/broker-2', 'replicas/broker-3'])
      noCrash(rep)
      expect(rep.stdout).toMatch(/permission denied.*\[UNREADABLE\]/s)
      expect(rep.code).toBe(1)
      const rem = asNobody(['remote', '--remote-storage', 'tiered/remote', 'tiered/logs'])
      noCrash(rem)
      expect(rem.stderr).toMatch(
        /__remote_log_metadata-1\/00000000000000000000\.log: position 0: permission denied \[UNREADABLE\]/,
      )
      expect(rem.stderr).toContain('[REMOTE_STATE_UNKNOWN]')
      expect(rem.code).toBe(1)
    },
  )
})
