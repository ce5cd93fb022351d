// The installed CLI run as a child process with its peak RSS measured from inside (printed at exit), stdout written
// to a file: the big tier's outputs are too large to hold in a test.
// The probe is preloaded with --require, so that the CLI starts as bin/tsdump.js does (an import() from an .mjs
// wrapper starts node's ES module loader, 10-25 MiB more). The peak is VmHWM, this process image's own:
// getrusage's maxRSS keeps the parent's across fork and exec, and the parent is the vitest worker that has just
// made a 200,000-transaction input in memory (transactions-scale read 231 MiB that way where the command peaked
// at 103 MiB).
import { spawn, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { REPO_ROOT } from '../support/paths.js'

interface PeakRun {
  code: number | null
  stderr: string
  maxRssMiB: number
}

/** the probe beside `out`, and the child's argv */
function probed(args: string[], out: string): string[] {
  const probe = path.join(path.dirname(out), 'rss-probe.cjs')
  fs.writeFileSync(
    probe,
    `process.on('exit', () => { let kb = process.resourceUsage().maxRSS; ` +
      `try { kb = Number(/VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'))[1]) } catch {} ` +
      `process.stderr.write('\\nMAXRSS ' + kb + '\\n') })\n`,
  )
  return ['--require', probe, path.join(REPO_ROOT, 'bin', 'tsdump.js'), ...args]
}

function peakRun(code: number | null, stderr: string): PeakRun {
  const m = /MAXRSS (\d+)/.exec(stderr)
  return {
    code,
    stderr: stderr.replace(/\nMAXRSS \d+\n/, ''),
    maxRssMiB: m === null ? Number.NaN : Number(m[1]) / 1024,
  }
}

/** `tsdump args` with stdout into `out`; its exit code, stderr and peak RSS (MiB) */
export function runWithPeakRss(args: string[], out: string): PeakRun {
  const argv = probed(args, out)
  const fd = fs.openSync(out, 'w')
  const r = spawnSync(process.execPath, argv, { stdio: ['ignore', fd, 'pipe'], encoding: 'utf8' })
  fs.closeSync(fd)
  return peakRun(r.status, r.stderr)
}

/**
 * runWithPeakRss with `env` added, this process's event loop left running meanwhile: a server it started (moto, whose
 * request log it drains) would block on a full pipe while a synchronous spawn waits
 */
export async function runWithPeakRssAsync(args: string[], out: string, env: Record<string, string>): Promise<PeakRun> {
  const argv = probed(args, out)
  const fd = fs.openSync(out, 'w')
  try {
    const child = spawn(process.execPath, argv, { stdio: ['ignore', fd, 'pipe'], env: { ...process.env, ...env } })
    let stderr = ''
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d
    })
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on('error', reject)
      child.on('close', (c) => resolve(c))
    })
    return peakRun(code, stderr)
  } finally {
    fs.closeSync(fd)
  }
}
