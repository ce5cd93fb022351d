// A Writer whose bytes go to a scratch file of tsdump's own (io/spill-file.ts) past one 64 KiB buffer, read back
// into another Writer later: output held until its turn (the dump's coordinator partitions, commands/dump/
// held-output.ts; lso's partitions, written after the impact lines that are known last). Memory: the buffer,
// whatever the held output's size.
import { completeEnd } from '../format/record-line-ascii.js'
import type { HeldWriter } from '../format/printer.js'
import type { Writer } from '../format/writer.js'
import { SpillFile } from '../io/spill-file.js'

const CHUNK = 64 * 1024

/** a Writer whose bytes go to a scratch file, made when its buffer is first flushed */
export class SpillWriter implements HeldWriter {
  closed = false
  buffer: Buffer = Buffer.allocUnsafe(CHUNK)
  private pos = 0
  private file: SpillFile | null = null

  constructor(private readonly prefix: string) {}

  write(s: string): void {
    // at most 3 bytes of UTF-8 per UTF-16 unit
    if (s.length * 3 > this.buffer.length - this.pos) {
      this.flush()
      if (s.length * 3 > this.buffer.length) {
        this.append(Buffer.from(s, 'utf8'))
        return
      }
    }
    this.pos += this.buffer.write(s, this.pos)
  }

  reserve(n: number): number {
    if (n > this.buffer.length - this.pos) {
      this.flush()
      if (n > this.buffer.length) this.buffer = Buffer.allocUnsafe(n)
    }
    return this.pos
  }

  commit(end: number): void {
    this.pos = end
  }

  writeBytes(bytes: Uint8Array): void {
    this.flush()
    this.append(bytes)
  }

  flush(): void {
    if (this.pos === 0) return
    const n = this.pos
    this.pos = 0
    this.append(this.buffer.subarray(0, n))
  }

  private append(b: Uint8Array): void {
    if (b.length > 0) (this.file ??= new SpillFile(this.prefix)).append(b)
  }

  /** bytes written so far */
  mark(): number {
    this.flush()
    return this.file?.size ?? 0
  }

  /** bytes [from, end) written into `to`, in chunks cut between whole UTF-8 characters (Writer.writeBytes) */
  copy(from: number, end: number, to: Writer): void {
    const chunk = Buffer.allocUnsafe(CHUNK)
    let at = from
    while (at < end && !to.closed) {
      const n = Math.min(CHUNK, end - at)
      this.file!.readAt(at, chunk.subarray(0, n))
      // a character cut at the chunk's end is left for the next chunk
      const cut = at + n < end ? completeEnd(chunk.subarray(0, n)) : n
      to.writeBytes(chunk.subarray(0, cut))
      at += cut
    }
  }

  /** everything written, into `to`, and let go: from memory when it never outgrew the buffer */
  writeTo(to: Writer): void {
    if (this.file === null) {
      if (this.pos > 0) to.writeBytes(this.buffer.subarray(0, this.pos))
    } else this.copy(0, this.mark(), to)
    this.pos = 0
    this.close()
  }

  close(): void {
    this.file?.close()
    this.file = null
  }
}
