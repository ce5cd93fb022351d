// What a command needs from the outside world: writers, colour level, environment.
// Commands never touch process.stdout or process.exit; cli/main.ts owns those.
import * as fs from 'node:fs'
import type { StatusSink } from './status-line.js'

export interface Writer {
  write (s: string): void
  /**
   * Byte-level output for hot paths: reserve(n) guarantees n writable bytes in `buffer` starting at the
   * returned position; commit(end) publishes buffer[position, end). Nothing else may write in between.
   */
  reserve (n: number): number
  readonly buffer: Buffer
  commit (end: number): void
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
  /** stdin is a terminal: `-` is refused (nothing to read but typing) */
  stdinIsTTY?: boolean
  env: Record<string, string | undefined>
  /** current time, injectable for tests of age computations */
  now: () => number
  /** the terminal's transient line (progress); absent when stderr is not a terminal */
  status?: StatusSink
}

/** Collects output in memory (tests, in-process runs). */
export class StringWriter implements Writer {
  text = ''
  closed = false
  buffer: Buffer = Buffer.alloc(64 * 1024)
  write (s: string): void { this.text += s }
  reserve (n: number): number {
    if (n > this.buffer.length) this.buffer = Buffer.alloc(n)
    return 0
  }

  commit (end: number): void { this.text += this.buffer.toString('utf8', 0, end) }
  flush (): void {}
}

/**
 * Buffered synchronous writes to a file descriptor in large chunks. Strings are encoded straight into one
 * reusable buffer (no per-line Buffer, no join). A closed pipe (EPIPE, e.g. `| head`) marks the writer
 * closed instead of throwing, so the command can stop quietly with exit code 0.
 */
export class FdWriter implements Writer {
  private buf: Buffer
  private pos = 0
  closed = false
  /** called before bytes reach the descriptor: erases the progress line so nothing is glued to it */
  beforeWrite: (() => void) | undefined
  constructor (private readonly fd: number, size = 1024 * 1024, private readonly autoFlush = false) {
    this.buf = Buffer.allocUnsafe(Math.max(size, 4096))
  }

  write (s: string): void {
    if (this.closed) return
    // utf8 needs at most 3 bytes per UTF-16 unit
    if (s.length * 3 > this.buf.length - this.pos) {
      this.flush()
      if (s.length * 3 > this.buf.length) { this.writeAll(Buffer.from(s, 'utf8')); return }
    }
    // utf8Write skips Buffer#write's argument normalisation, which dominated profiles of large dumps
    this.pos += (this.buf as unknown as Utf8Writable).utf8Write(s, this.pos, this.buf.length - this.pos)
    if (this.autoFlush) this.flush()
  }

  get buffer (): Buffer { return this.buf }

  reserve (n: number): number {
    if (n > this.buf.length - this.pos) {
      this.flush()
      if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n)
    }
    return this.pos
  }

  commit (end: number): void {
    this.pos = end
    if (this.autoFlush) this.flush()
  }

  flush (): void {
    if (this.closed) { this.pos = 0; return } // output is discarded once the reader has gone
    if (this.pos === 0) return
    const n = this.pos
    this.pos = 0
    this.writeAll(this.buf.subarray(0, n))
  }

  private writeAll (data: Buffer): void {
    this.beforeWrite?.()
    let off = 0
    while (off < data.length && !this.closed) {
      try {
        off += fs.writeSync(this.fd, data, off, data.length - off)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === 'EAGAIN') { sleepBriefly(); continue } // a non-blocking pipe is full: wait for the reader
        if (code === 'EPIPE') { this.closed = true; return }
        throw e
      }
    }
  }
}

interface Utf8Writable { utf8Write (s: string, offset: number, length: number): number }

const pause = new Int32Array(new SharedArrayBuffer(4))
function sleepBriefly (): void { Atomics.wait(pause, 0, 0, 2) }
