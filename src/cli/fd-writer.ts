// The process's stdout and stderr writers (cli/main.ts builds a CommandContext with them; the Writer
// interface they implement is format/writer.ts, StringWriter its in-memory form for tests).
import * as fs from 'node:fs'
import type { Writer } from '../format/writer.js'

/**
 * Buffered synchronous writes to a file descriptor in large chunks. Strings are encoded straight into one
 * reusable buffer (no per-line Buffer, no join). A closed pipe (EPIPE, e.g. `| head`) marks the writer
 * closed instead of throwing, so the command can stop quietly with exit code 0. Any other write error
 * (ENOSPC, EIO, EBADF) also closes it, never throws into the command (which would blame its input), and is
 * kept in `failure` for cli/main.ts to report once, with exit 2.
 */
export class FdWriter implements Writer {
  private buf: Buffer
  private pos = 0
  closed = false
  failure: NodeJS.ErrnoException | undefined
  /** called before bytes reach the descriptor: erases the progress line so nothing is glued to it */
  beforeWrite: (() => void) | undefined
  constructor(
    private readonly fd: number,
    size = 1024 * 1024,
    private readonly autoFlush = false,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(size, 4096))
  }

  write(s: string): void {
    if (this.closed) return
    // utf8 needs at most 3 bytes per UTF-16 unit
    if (s.length * 3 > this.buf.length - this.pos) {
      this.flush()
      if (s.length * 3 > this.buf.length) {
        this.writeAll(Buffer.from(s, 'utf8'))
        return
      }
    }
    // utf8Write skips Buffer#write's argument normalisation, which dominated profiles of large dumps
    this.pos += (this.buf as unknown as Utf8Writable).utf8Write(s, this.pos, this.buf.length - this.pos)
    if (this.autoFlush) this.flush()
  }

  get buffer(): Buffer {
    return this.buf
  }

  reserve(n: number): number {
    if (n > this.buf.length - this.pos) {
      this.flush()
      if (n > this.buf.length) this.buf = Buffer.allocUnsafe(n)
    }
    return this.pos
  }

  commit(end: number): void {
    this.pos = end
    if (this.autoFlush) this.flush()
  }

  writeBytes(bytes: Uint8Array): void {
    if (this.closed) return
    this.flush()
    this.writeAll(bytes)
  }

  flush(): void {
    if (this.closed) {
      this.pos = 0
      return
    } // output is discarded once the reader has gone
    if (this.pos === 0) return
    const n = this.pos
    this.pos = 0
    this.writeAll(this.buf.subarray(0, n))
  }

  private writeAll(data: Uint8Array): void {
    this.beforeWrite?.()
    let off = 0
    while (off < data.length && !this.closed) {
      try {
        off += fs.writeSync(this.fd, data, off, data.length - off)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        if (code === 'EAGAIN') {
          sleepBriefly()
          continue
        } // a non-blocking pipe is full: wait for the reader
        this.closed = true
        if (code !== 'EPIPE') this.failure = e as NodeJS.ErrnoException
        return
      }
    }
  }
}

interface Utf8Writable {
  utf8Write(s: string, offset: number, length: number): number
}

const pause = new Int32Array(new SharedArrayBuffer(4))
function sleepBriefly(): void {
  Atomics.wait(pause, 0, 0, 2)
}
