// Runs bin/tsdump.js in a child process under GNU time (peak RSS from wait4, exact), with a watchdog
// that kills it past the time limit or past a hard RSS ceiling (so a runaway case cannot take the shared
// machine down with it). Stdout can be captured (bounded), discarded, or /dev/full.
import { spawn } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const BIN = path.join(REPO, 'bin/tsdump.js')
const TIME = '/usr/bin/time'
export const haveGnuTime = fs.existsSync(TIME)
const CAPTURE_MAX = 64 << 20

function childPid(pid) {
  try {
    return Number(fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/)[0]) || undefined
  } catch {
    return undefined
  }
}
/** user+sys CPU seconds of `pid` so far (/proc/<pid>/stat fields 14 and 15, in clock ticks of 1/100 s) */
function cpuSecondsOf(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ') // the command name may hold spaces
    return (Number(rest[11]) + Number(rest[12])) / 100
  } catch {
    return 0
  }
}
function statusKiB(pid, field) {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m === null ? 0 : Number(m[1])
  } catch {
    return 0
  }
}

/** true once process `pid` has `file` open (for cases that change a file under a running tsdump) */
export function hasOpen(pid, file) {
  try {
    const want = fs.realpathSync(file)
    return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === want
      } catch {
        return false
      }
    })
  } catch {
    return false
  }
}

/**
 * @param {{ argv: string[], stdin?: string, stdout?: 'capture'|'null'|'full', stderr?: 'capture'|'full', timeoutSeconds?: number,
 *           cpuLimitSeconds?: number, killRssMiB?: number, during?: (pid: number) => Promise<void>, env?: object, wrap?: string[] }} o
 * @returns {Promise<{ code: number, signal: string|null, seconds: number, cpuSeconds: number, rssMiB: number,
 *           stdout: string, stdoutCut: boolean, stderr: string, killed?: string }>}
 */
export async function runChild(o) {
  const timeFile = path.join(os.tmpdir(), `tsdump-time-${process.pid}-${Math.random().toString(36).slice(2)}`)
  const fds = []
  const sink = (mode) => {
    if (mode === 'capture') return 'pipe'
    const fd = fs.openSync(mode === 'full' ? '/dev/full' : '/dev/null', 'w')
    fds.push(fd)
    return fd
  }
  // o.wrap: a command the CLI runs under (setpriv to another user), its arguments first
  const inner = [...(o.wrap ?? []), process.execPath, BIN, ...o.argv]
  const cmd = haveGnuTime ? TIME : inner[0]
  const args = haveGnuTime ? ['-f', '%M %e %U %S', '-o', timeFile, ...inner] : inner.slice(1)
  const t0 = process.hrtime.bigint()
  const stdinFd = o.stdin !== undefined ? fs.openSync(o.stdin, 'r') : undefined
  if (stdinFd !== undefined) fds.push(stdinFd)
  const child = spawn(cmd, args, {
    stdio: [stdinFd ?? 'ignore', sink(o.stdout ?? 'capture'), sink(o.stderr ?? 'capture')],
    env: { ...process.env, NO_COLOR: '1', ...o.env },
  })
  let out = ''
  let cut = false
  let err = ''
  child.stdout?.on('data', (d) => {
    if (out.length < CAPTURE_MAX) out += d.toString('utf8')
    else cut = true
  })
  child.stderr?.on('data', (d) => {
    if (err.length < 1 << 20) err += d.toString('utf8')
  })
  let killed
  let hwm = 0
  const limitMs = (o.timeoutSeconds ?? 60) * 1000
  const ceiling = (o.killRssMiB ?? 1536) * 1024
  const timer = setInterval(() => {
    const pid = haveGnuTime ? childPid(child.pid) : child.pid
    if (pid === undefined) return
    hwm = Math.max(hwm, statusKiB(pid, 'VmHWM'))
    const ms = Number(process.hrtime.bigint() - t0) / 1e6
    if (killed === undefined && ms > limitMs) killed = `killed after ${o.timeoutSeconds ?? 60} s`
    // the limit is CPU time (wall time on a shared machine measures the neighbours): a run past it
    // has failed already, so stop it there instead of letting it run to the wall-clock hang limit
    if (killed === undefined && o.cpuLimitSeconds !== undefined && cpuSecondsOf(pid) > o.cpuLimitSeconds)
      killed = `killed after ${o.cpuLimitSeconds} s CPU`
    if (killed === undefined && statusKiB(pid, 'VmRSS') > ceiling)
      killed = `killed at ${Math.round(ceiling / 1024)} MiB RSS`
    if (killed !== undefined) {
      try {
        process.kill(pid, 'SIGKILL')
      } catch {
        /* gone */
      }
    }
  }, 50)
  const duringDone =
    o.during !== undefined
      ? (async () => {
          let pid
          while ((pid = haveGnuTime ? childPid(child.pid) : child.pid) === undefined && child.exitCode === null)
            await new Promise((r) => setTimeout(r, 5))
          if (pid !== undefined) await o.during(pid, hasOpen)
        })()
      : Promise.resolve()
  const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])))
  await duringDone.catch(() => {})
  clearInterval(timer)
  for (const fd of fds) fs.closeSync(fd)
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9
  let rssMiB = hwm / 1024
  let cpuSeconds = NaN
  let exitCode = code
  if (haveGnuTime) {
    const t = fs.existsSync(timeFile) ? fs.readFileSync(timeFile, 'utf8') : ''
    fs.rmSync(timeFile, { force: true })
    const last = t.trim().split('\n').pop() ?? ''
    const [m, , u, s] = last.split(' ').map(Number)
    if (Number.isFinite(m)) rssMiB = Math.max(rssMiB, m / 1024)
    if (Number.isFinite(u)) cpuSeconds = u + s
    const sig = /terminated by signal (\d+)/.exec(t)
    if (sig !== null) exitCode = 128 + Number(sig[1])
    else {
      const st = /exit status (\d+)/.exec(t)
      if (st !== null) exitCode = Number(st[1])
    }
  }
  return {
    code: exitCode ?? (signal !== null ? 128 : -1),
    signal,
    seconds,
    cpuSeconds,
    rssMiB,
    stdout: out,
    stdoutCut: cut,
    stderr: err,
    ...(killed !== undefined ? { killed } : {}),
  }
}
