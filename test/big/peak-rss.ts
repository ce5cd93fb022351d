// The installed CLI run as a child process with its peak RSS measured from inside (printed at exit), stdout written
// to a file: the big tier's outputs are too large to hold in a test.
// The probe is preloaded with --require, so that the CLI starts as bin/tsdump.js does (an import() from an .mjs
// wrapper starts node's ES module loader, 10-25 MiB more). The peak is VmHWM, this process image's own:
// getrusage's maxRSS keeps the parent's across fork and exec, and the parent is the vitest worker that has just
// made a 200,000-transaction input in memory (transactions-scale read 231 MiB that way where the command peaked
// at 103 MiB).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { REPO_ROOT } from '../support/paths.js'

/** `tsdump args` with stdout into `out`; its exit code, stderr and peak RSS (MiB) */
export function runWithPeakRss(
  args: string[],
  out: string,
): { code: number | null; stderr: string; maxRssMiB: number } {
  const probe = path.join(path.dirname(out), 'rss-probe.cjs')
  fs.writeFileSync(
    probe,
    `process.on('exit', () => { let kb = process.resourceUsage().maxRSS; ` +
      `try { kb = Number(/VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) } catch {} ` +
      `process.stderr.write('\\nMAXRSS ' + kb + '\\n') })\n`,
  )
  const fd = fs.openSync(out, 'w')
  const r = spawnSync(process.execPath, ['--require', probe, path.join(REPO_ROOT, 'bin', 'tsdump.js'), ...args], {
    stdio: ['ignore', fd, 'pipe'],
    encoding: 'utf8',
  })
  fs.closeSync(fd)
  const m = /MAXRSS (\d+)/.exec(r.stderr)
  return {
    code: r.status,
    stderr: r.stderr.replace(/\nMAXRSS \d+\n/, ''),
    maxRssMiB: m === null ? Number.NaN : Number(m[1]) / 1024,
  }
}
