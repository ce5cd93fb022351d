// What a command needs from the outside world: writers, colour level, environment.
// Commands never touch process.stdout or process.exit; cli/main.ts owns those.
import * as fs from 'node:fs'

export interface Writer {
  write (s: string): void
  flush (): void
  /** true once the reader went away (EPIPE): commands should stop producing output */
  readonly closed: boolean
}

export interface CliContext {
  stdout: Writer
  stderr: Writer
  /** chalk colour level for stdout (0 = none) */
  colorLevel: 0 | 1 | 2 | 3
  /** stderr is a terminal: progress lines allowed */
  stderrIsTTY: boolean
  env: Record<string, string | undefined>
  /** current time, injectable for tests of age computations */
  now: () => number
}

/** Collects output in memory (tests, in-process runs). */
export class StringWriter implements Writer {
  text = ''
  closed = false
  write (s: string): void { this.text += s }
  flush (): void {}
}

/**
 * Buffered synchronous writes to a file descriptor in large chunks. A closed pipe (EPIPE, e.g. `| head`)
 * marks the writer closed instead of throwing, so the command can stop quietly with exit code 0.
 */
export class FdWriter implements Writer {
  private chunks: string[] = []
  private size = 0
  closed = false
  constructor (private readonly fd: number, private readonly limit = 256 * 1024) {}

  write (s: string): void {
    if (this.closed) return
    this.chunks.push(s)
    this.size += s.length
    if (this.size >= this.limit) this.flush()
  }

  flush (): void {
    if (this.closed || this.size === 0) return
    const data = Buffer.from(this.chunks.join(''), 'utf8')
    this.chunks = []
    this.size = 0
    let off = 0
    while (off < data.length) {
      try {
        off += fs.writeSync(this.fd, data, off, data.length - off)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === 'EAGAIN') continue // non-blocking pipe is full: retry
        if (code === 'EPIPE') { this.closed = true; return }
        throw e
      }
    }
  }
}
