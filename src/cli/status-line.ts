// The one transient line on the terminal (the progress line). It must never be glued to other output:
// it is cleared before any byte of stderr (findings) is written and, when stdout is the same terminal,
// before any byte of stdout (batch lines). The writers call clear() before each write (FdWriter.beforeWrite).
//
// Ctrl-C: the scan is synchronous, so a process.on('SIGINT') handler would only run once the scan ends
// (and would make Ctrl-C do nothing until then). Instead a small watchdog process in the same process group
// gets the terminal's SIGINT too and erases the line while tsdump dies of the signal as before. It starts
// when a scan needs a second read, and exits when tsdump does. The line is drawn only once the watchdog
// is listening: on a loaded machine Node takes seconds to start, and a Ctrl-C before its handler is in
// place left the line on the screen. Its readiness is seen without the event loop (the scan is synchronous):
// it renames itself (process.title, visible in /proc/<pid>/cmdline) after installing the handlers. Where
// there is no /proc, the line is drawn at once, as before.
import type * as ChildProcesses from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import * as fs from 'node:fs'
import { createRequire } from 'node:module'
import type { StatusSink } from '../commands/context.js'

const CLEAR = '\r\x1b[K'

// Runs in the watchdog: on SIGINT, or when tsdump went away without saying "done" (killed), erase the line.
const WATCHDOG = `
const fs = require('fs'); let done = false
const erase = () => { if (!done) { try { fs.writeSync(2, ${JSON.stringify(CLEAR)}) } catch {} } process.exit(0) }
process.on('SIGINT', erase); process.on('SIGTERM', erase)
process.stdin.on('data', () => { done = true }); process.stdin.on('end', erase); process.stdin.on('error', erase)
process.title = ${JSON.stringify('tsdump-status-watchdog')}
`
const READY_TITLE = 'tsdump-status-watchdog'

export class StatusLine implements StatusSink {
  private shown = false
  private watchdog: ChildProcess | null = null
  private ready = false

  constructor(
    private readonly fd = 2,
    private readonly guardSigint = true,
  ) {}

  prepare(): void {
    if (this.guardSigint && this.watchdog === null) this.startWatchdog()
  }

  show(text: string): void {
    this.prepare()
    if (!this.watchdogReady()) return
    this.raw(CLEAR + text)
    this.shown = true
  }

  clear(): void {
    if (!this.shown) return
    this.shown = false
    this.raw(CLEAR)
  }

  /** at exit: erase the line and let the watchdog go quietly */
  close(): void {
    this.clear()
    const w = this.watchdog
    this.watchdog = null
    if (w === null) return
    try {
      w.stdin?.end('done')
    } catch {
      /* it is gone already */
    }
  }

  /** the watchdog has its SIGINT handler (or there is none to wait for) */
  private watchdogReady(): boolean {
    if (this.ready) return true
    const pid = this.watchdog?.pid
    if (!this.guardSigint || pid === undefined) return (this.ready = true)
    try {
      this.ready = fs.readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith(READY_TITLE)
    } catch (e) {
      // no /proc (not Linux): draw at once; the watchdog gone already (ESRCH-like): nothing to wait for
      this.ready = true
    }
    return this.ready
  }

  private raw(s: string): void {
    try {
      fs.writeSync(this.fd, s)
    } catch {
      /* a terminal that went away: nothing to erase */
    }
  }

  private startWatchdog(): void {
    try {
      // loaded here, not at import: child_process cost every start-up 3-8 ms (bench/RESULTS-startup.md), and only a terminal's long scan needs it
      const { spawn } = createRequire(import.meta.url)('node:child_process') as typeof ChildProcesses
      const w = spawn(process.execPath, ['-e', WATCHDOG], { stdio: ['pipe', 'ignore', 'inherit'] })
      w.on('error', () => {
        this.watchdog = null
      })
      w.unref()
      const stdin = w.stdin as (NodeJS.WritableStream & { unref?: () => void }) | null
      stdin?.on('error', () => {})
      stdin?.unref?.()
      this.watchdog = w
    } catch {
      /* no watchdog: the line may stay after Ctrl-C, nothing worse */
    }
  }
}

/** stdout and stderr are the same terminal (then batch lines and the progress line share one screen line) */
export function sameTerminal(a: number, b: number, isTTY: (fd: number) => boolean): boolean {
  if (!isTTY(a) || !isTTY(b)) return false
  try {
    const x = fs.fstatSync(a)
    const y = fs.fstatSync(b)
    return x.rdev === y.rdev && x.dev === y.dev && x.ino === y.ino
  } catch {
    return false
  }
}
