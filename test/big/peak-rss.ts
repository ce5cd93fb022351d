// The installed CLI run as a child process with its peak RSS measured from inside (printed at exit), stdout written
// to a file: the big tier's outputs are too large to hold in a test. The peak is /proc/self/status's VmHWM where
// there is one: getrusage's maxrss (process.resourceUsage) is kept across exec, so a child forked by a test process
// that had just made a 300 MiB input reported that process's RSS (232 MiB for doctor's 114).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { REPO_ROOT } from '../support/paths.js'

/** `tsdump args` with stdout into `out`; its exit code, stderr and peak RSS (MiB) */
export function runWithPeakRss(
  args: string[],
  out: string,
): { code: number | null; stderr: string; maxRssMiB: number } {
  const probe = path.join(path.dirname(out), 'rss-probe.mjs')
  fs.writeFileSync(
    probe,
    `import { readFileSync } from 'node:fs'\n` +
      `const hwm = () => { try { return Number(/VmHWM:\\s*(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))[1]) } catch { return process.resourceUsage().maxRSS } }\n` +
      `process.on('exit', () => process.stderr.write('\\nMAXRSS ' + hwm() + '\\n'))\n` +
      `await import(${JSON.stringify(path.join(REPO_ROOT, 'bin', 'tsdump.js'))})\n`,
  )
  const fd = fs.openSync(out, 'w')
  const r = spawnSync(process.execPath, [probe, ...args], { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' })
  fs.closeSync(fd)
  const m = /MAXRSS (\d+)/.exec(r.stderr)
  return {
    code: r.status,
    stderr: r.stderr.replace(/\nMAXRSS \d+\n/, ''),
    maxRssMiB: m === null ? Number.NaN : Number(m[1]) / 1024,
  }
}
