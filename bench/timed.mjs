// One timed run for the benchmarks (bench/run.mjs, bench/commands.mjs): argv under /usr/bin/time -v, stdout to
// /dev/null, killed as a process group after o.timeout seconds; peak RSS is time's "Maximum resident set size".
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

export const devnull = fs.openSync('/dev/null', 'w')
let current
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    if (current) {
      try {
        process.kill(-current.pid, 'SIGKILL')
      } catch {}
    }
    process.exit(130)
  })
}

/** Run argv under /usr/bin/time -v with stdout to /dev/null (o: { data, timeout }). Resolves { wall, user, sys, rssKiB, code, stderr, probe }. */
export function timed(argv, o, { env = {} } = {}) {
  const tfile = path.join(o.data, `.time-${process.pid}.txt`)
  const pfile = path.join(o.data, `.probe-${process.pid}.jsonl`)
  fs.rmSync(pfile, { force: true })
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const child = spawn('/usr/bin/time', ['-v', '-o', tfile, ...argv], {
      stdio: ['ignore', devnull, 'pipe'],
      detached: true,
      env: { ...process.env, TSDUMP_BENCH_PROBE: pfile, ...env },
    })
    let err = ''
    let timedOut = false
    current = child
    const timer = setTimeout(() => {
      timedOut = true
      try {
        process.kill(-child.pid, 'SIGKILL')
      } catch {
        child.kill('SIGKILL')
      }
    }, o.timeout * 1000)
    child.stderr.on('data', (d) => {
      if (err.length < 20000) err += d
    })
    child.on('error', reject)
    child.on('close', () => {
      clearTimeout(timer)
      current = undefined
      const wall = Number(process.hrtime.bigint() - t0) / 1e9
      let t = ''
      try {
        t = fs.readFileSync(tfile, 'utf8')
      } catch {
        /* killed before time wrote it */
      }
      const num = (re) => {
        const m = re.exec(t)
        return m ? Number(m[1]) : NaN
      }
      const status = /Command exited with non-zero status (\d+)/.exec(t)
      let probe
      try {
        probe = JSON.parse(fs.readFileSync(pfile, 'utf8').trim().split('\n').pop())
      } catch {
        probe = undefined
      }
      resolve({
        wall,
        user: num(/User time \(seconds\): ([\d.]+)/),
        sys: num(/System time \(seconds\): ([\d.]+)/),
        rssKiB: num(/Maximum resident set size \(kbytes\): (\d+)/),
        code: timedOut
          ? 'timeout'
          : status
            ? Number(status[1])
            : /Command terminated by signal (\d+)/.test(t) || t === ''
              ? 'signal'
              : 0,
        timedOut,
        stderr: err.trim(),
        load: os.loadavg()[0],
        probe,
      })
    })
  })
}
