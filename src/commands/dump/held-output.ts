// The dump's stdout and stderr as writers that can be turned, for a while, into scratch files of tsdump's own
// (io/spill-file.ts), and what was held written out later in its place: the dump of a __transaction_state
// partition made while --transactional-id is resolved from its records (id-first.ts) waits there for its turn in
// path order. Memory: one 64 KiB buffer per stream, whatever the held output's size.
import type { Writer } from '../../format/writer.js'
import type { CommandContext } from '../context.js'
import { SpillWriter } from '../spill-writer.js'

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
  private readonly heldOut = new SpillWriter('dump-held')
  private readonly heldErr = new SpillWriter('dump-held')
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
