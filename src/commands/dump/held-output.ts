// The dump's stdout and stderr as writers that can be turned, for a while, into scratch files of tsdump's own
// (io/spill-file.ts), and what was held written out later in its place: the dump of a __transaction_state
// partition made while --transactional-id is resolved from its records (id-first.ts) waits there for its turn in
// path order. Memory: one 64 KiB buffer per stream, whatever the held output's size.
import { completeEnd } from '../../format/record-line-ascii.js'
import type { Writer } from '../../format/writer.js'
import { SpillFile } from '../../io/spill-file.js'
import type { CommandContext } from '../context.js'

const CHUNK = 64 * 1024

/** a Writer whose bytes go to a scratch file, made at the first byte */
class SpillWriter implements Writer {
  closed = false
  buffer: Buffer = Buffer.allocUnsafe(CHUNK)
  private pos = 0
  private file: SpillFile | null = null

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
    if (b.length > 0) (this.file ??= new SpillFile('dump-held')).append(b)
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

  close(): void {
    this.file?.close()
    this.file = null
  }
}

/** a Writer that writes where it is pointed: the command's own writer, or a scratch file while output is held */
class SwitchWriter implements Writer {
  to: Writer
  constructor(readonly real: Writer) {
    this.to = real
  }
  write(s: string): void {
    this.to.write(s)
  }
  get buffer(): Buffer {
    return this.to.buffer
  }
  reserve(n: number): number {
    return this.to.reserve(n)
  }
  commit(end: number): void {
    this.to.commit(end)
  }
  writeBytes(bytes: Uint8Array): void {
    this.to.writeBytes(bytes)
  }
  flush(): void {
    this.to.flush()
  }
  get closed(): boolean {
    return this.to.closed
  }
  get failure(): NodeJS.ErrnoException | undefined {
    return this.real.failure
  }
}

/** what was written to each stream while output was held: byte ranges of the scratch files */
export interface HeldPart {
  out: readonly [number, number]
  err: readonly [number, number]
}

export class HeldOutput {
  /** the command's context, its stdout and stderr switchable */
  readonly ctx: CommandContext
  private readonly out: SwitchWriter
  private readonly err: SwitchWriter
  private readonly heldOut = new SpillWriter()
  private readonly heldErr = new SpillWriter()
  private from: { out: number; err: number } | null = null

  constructor(given: CommandContext) {
    this.out = new SwitchWriter(given.stdout)
    this.err = new SwitchWriter(given.stderr)
    this.ctx = { ...given, stdout: this.out, stderr: this.err }
  }

  /** output goes to the scratch files from now on */
  hold(): void {
    this.from = { out: this.heldOut.mark(), err: this.heldErr.mark() }
    this.out.to = this.heldOut
    this.err.to = this.heldErr
  }

  /** output goes to the command's writers again; returns what was held since hold() */
  release(): HeldPart {
    const f = this.from!
    this.from = null
    this.out.to = this.out.real
    this.err.to = this.err.real
    return { out: [f.out, this.heldOut.mark()], err: [f.err, this.heldErr.mark()] }
  }

  /** what was held, written to the command's writers now */
  write(p: HeldPart): void {
    this.heldOut.copy(p.out[0], p.out[1], this.out.real)
    this.heldErr.copy(p.err[0], p.err[1], this.err.real)
  }

  close(): void {
    this.heldOut.close()
    this.heldErr.close()
  }
}
