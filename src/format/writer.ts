// Where output goes. format/ writes lines into a Writer; cli/ supplies the real one (FdWriter) and
// tests a StringWriter.

export interface Writer {
  write(s: string): void
  /**
   * Byte-level output for hot paths: reserve(n) guarantees n writable bytes in `buffer` starting at the
   * returned position; commit(end) publishes buffer[position, end). Nothing else may write in between.
   */
  reserve(n: number): number
  readonly buffer: Buffer
  commit(end: number): void
  /**
   * Bytes that stay the caller's, written as they are (no copy into `buffer`) after what the writer holds: a
   * worker's output ring (commands/workers/dump-pool.ts). Whole UTF-8 characters only; done when it returns.
   */
  writeBytes(bytes: Uint8Array): void
  flush(): void
  /** true once the reader went away (EPIPE) or a write failed: commands should stop producing output */
  readonly closed: boolean
  /** the write error that closed it, when it was not EPIPE (ENOSPC on /dev/full, EBADF on a closed fd) */
  readonly failure?: NodeJS.ErrnoException | undefined
}

/** Collects output in memory (tests, in-process runs). */
export class StringWriter implements Writer {
  text = ''
  closed = false
  buffer: Buffer = Buffer.alloc(64 * 1024)
  write(s: string): void {
    this.text += s
  }
  reserve(n: number): number {
    if (n > this.buffer.length) this.buffer = Buffer.alloc(n)
    return 0
  }

  commit(end: number): void {
    this.text += this.buffer.toString('utf8', 0, end)
  }
  writeBytes(bytes: Uint8Array): void {
    this.text += Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8')
  }
  flush(): void {}
}
