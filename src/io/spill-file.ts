// A scratch file of tsdump's own, under the user's temp directory (never beside an input: tsdump never writes to
// what it reads), for what one pass must hold until its end without holding it in memory: written and read back
// at byte positions, deleted on close.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'

export class SpillFile {
  private readonly dir: string
  private fd: number
  /** bytes written so far (appends go here) */
  size = 0

  constructor(prefix: string) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `tsdump-${prefix}-`))
    this.fd = fs.openSync(path.join(this.dir, 'spill'), 'w+', 0o600)
  }

  /** appends `b`; returns where it starts */
  append(b: Uint8Array): number {
    const at = this.size
    this.writeAt(at, b)
    return at
  }

  writeAt(position: number, b: Uint8Array): void {
    let done = 0
    while (done < b.length) done += fs.writeSync(this.fd, b, done, b.length - done, position + done)
    if (position + b.length > this.size) this.size = position + b.length
  }

  /** fills `into` from `position` (bytes never written read as zeros) */
  readAt(position: number, into: Uint8Array): void {
    let done = 0
    while (done < into.length) {
      const n = fs.readSync(this.fd, into, done, into.length - done, position + done)
      if (n === 0) {
        into.fill(0, done)
        return
      }
      done += n
    }
  }

  close(): void {
    if (this.fd < 0) return
    fs.closeSync(this.fd)
    this.fd = -1
    fs.rmSync(this.dir, { recursive: true, force: true })
  }
}
