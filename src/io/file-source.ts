// Positional reads on a read-only descriptor: memory is bounded by the caller's window, files over
// 2 GiB work (fs.readFile would fail with ERR_FS_FILE_TOO_LARGE), and nothing is created or locked.
import * as fs from 'node:fs'
import type { SegmentSource } from '../decode/segment-source.js'

export class FileSource implements SegmentSource {
  readonly size: number
  bytesRead = 0
  private fd: number | undefined

  constructor (readonly name: string) {
    // 'r' = O_RDONLY: never O_CREAT, never a write lock (kafka-dump-log opens .txnindex read-write).
    this.fd = fs.openSync(name, 'r')
    try {
      const st = fs.fstatSync(this.fd)
      if (!st.isFile()) throw Object.assign(new Error(`not a regular file: ${name}`), { code: 'ENOTFILE' })
      this.size = st.size
    } catch (e) {
      fs.closeSync(this.fd)
      throw e
    }
  }

  readAt (position: number, length: number): Buffer {
    const n = Math.max(0, Math.min(length, this.size - position))
    const buf = Buffer.allocUnsafeSlow(n)
    const done = this.readInto(buf, position, n)
    return done === n ? buf : buf.subarray(0, done)
  }

  readInto (target: Buffer, position: number, length: number): number {
    if (this.fd === undefined) throw new Error(`read after close: ${this.name}`)
    const n = Math.max(0, Math.min(length, target.length, this.size - position))
    let done = 0
    while (done < n) {
      const got = fs.readSync(this.fd, target, done, n - done, position + done)
      if (got === 0) break // the file shrank while we read it
      done += got
    }
    this.bytesRead += done
    return done
  }

  close (): void {
    if (this.fd !== undefined) fs.closeSync(this.fd)
    this.fd = undefined
  }
}

/**
 * A small file (index, txnindex, producer snapshot: megabytes at most) in one read, still through a
 * read-only descriptor. Never for segments.
 */
export function readSmallFile (path: string): Buffer {
  const src = new FileSource(path)
  try { return src.readAt(0, src.size) } finally { src.close() }
}
