// A segment read from standard input (`ssh broker cat 00000000000000000000.log | tsdump -`), streaming.
// A pipe cannot seek, so this source keeps one sliding window: a read at position p drops everything
// before p and reads forward until [p, p + length) is in hand. Memory is the largest single request
// (the scan window, or one batch bigger than it), never the input. The scan only asks for positions at
// or after its last request, except when it resynchronises after framing damage (it searches ahead,
// then resumes behind): that needs a file, so the scanner does not resynchronise on a source that is
// not seekable and reports the damage instead (frame-scanner.ts).
import * as fs from 'node:fs'
import type { SegmentSource } from './segment-source.js'
import type { KafkaFile } from './discover.js'

export const STDIN_PATH = '-'
export const STDIN_NAME = '<stdin>'

const pause = new Int32Array(new SharedArrayBuffer(4))

/** `-` on the command line: standard input, read as a .log segment (there is no name to tell its kind). */
export function stdinFile(): KafkaFile {
  return { path: STDIN_PATH, name: STDIN_NAME, kind: 'log', baseOffset: null, stdin: true }
}

/** Why standard input cannot be read as a segment, or undefined when it can. */
export function stdinProblem(paths: readonly string[], isTTY: boolean): string | undefined {
  if (paths.filter((p) => p === STDIN_PATH).length > 1) return 'standard input can be named only once'
  if (isTTY)
    return 'standard input is a terminal: pipe a segment into it (ssh broker cat .../00000000000000000000.log | tsdump -)'
  return undefined
}

export class StdinSource implements SegmentSource {
  readonly name = STDIN_NAME
  readonly seekable = false
  bytesRead = 0
  private buf = Buffer.allocUnsafeSlow(1024 * 1024)
  /** input position of buf[0] */
  private base = 0
  /** valid bytes in buf */
  private have = 0
  private eof = false

  constructor(private readonly fd = 0) {}

  /** the input's size once its end was reached; until then "unknown" (as large as can be) */
  get size(): number {
    return this.eof ? this.base + this.have : Number.MAX_SAFE_INTEGER
  }

  get ended(): boolean {
    return this.eof
  }

  /** Read (and drop) the rest of the input, at most `limit` bytes more, to learn its size. */
  finalSize(limit: number): number {
    const stop = this.base + this.have + limit
    while (!this.eof && this.base + this.have < stop) {
      this.base += this.have
      this.have = 0
      this.fill(this.buf.length)
    }
    return this.base + this.have
  }

  readInto(target: Buffer, position: number, length: number): number {
    if (position < this.base) {
      throw Object.assign(
        new Error(
          `standard input cannot be read backwards (position ${position}, the window starts at ${this.base}); save it to a file`,
        ),
        { code: 'ESPIPE' },
      )
    }
    this.dropBefore(position)
    const want = Math.min(length, target.length)
    this.fillTo(position + want)
    const n = Math.max(0, Math.min(want, this.base + this.have - position))
    this.buf.copy(target, 0, position - this.base, position - this.base + n)
    this.bytesRead += n
    return n
  }

  readAt(position: number, length: number): Buffer {
    const out = Buffer.allocUnsafeSlow(Math.max(0, Math.min(length, this.size - position)))
    const n = this.readInto(out, position, out.length)
    return n === out.length ? out : out.subarray(0, n)
  }

  close(): void {}

  private dropBefore(position: number): void {
    const skip = Math.min(position - this.base, this.have)
    if (skip > 0) {
      this.buf.copyWithin(0, skip, this.have)
      this.have -= skip
      this.base += skip
    }
    // a position beyond what was read: read and drop up to it
    while (this.base < position && !this.eof) {
      this.have = 0
      this.fill(Math.min(this.buf.length, position - this.base))
      const n = Math.min(this.have, position - this.base)
      this.buf.copyWithin(0, n, this.have)
      this.have -= n
      this.base += n
    }
  }

  private fillTo(end: number): void {
    const need = end - this.base
    if (need > this.buf.length) {
      // copy: the window grows to the largest request (a batch bigger than the scan window)
      const bigger = Buffer.allocUnsafeSlow(Math.max(need, this.buf.length * 2))
      this.buf.copy(bigger, 0, 0, this.have)
      this.buf = bigger
    }
    while (this.have < need && !this.eof) this.fill(need)
  }

  /** one read(2) into buf[have, limit) */
  private fill(limit: number): void {
    try {
      const n = fs.readSync(
        this.fd,
        this.buf,
        this.have,
        Math.max(1, Math.min(this.buf.length, limit) - this.have),
        null,
      )
      if (n === 0) this.eof = true
      this.have += n
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code
      if (code === 'EAGAIN') {
        Atomics.wait(pause, 0, 0, 2)
        return
      } // a non-blocking pipe with nothing yet
      if (code === 'EOF') {
        this.eof = true
        return
      }
      throw e
    }
  }
}
