// Positional reads on a read-only descriptor: memory is bounded by the caller's window, files over
// 2 GiB work (fs.readFile would fail with ERR_FS_FILE_TOO_LARGE), and nothing is created or locked.
//
// Every file tsdump reads is opened here, and only regular files are read: the open is O_NONBLOCK so a
// FIFO (or a segment swapped for one after discovery) cannot block it, and fstat on the open descriptor
// (not a stat of the name, which could change in between) rejects FIFOs, devices (/dev/zero would never
// end), sockets and directories.
import * as fs from 'node:fs'
import { describeFileType, InputError } from './input-error.js'
import { fsPath } from './raw-names.js'
import type { SegmentSource } from '../decode/segment-source.js'

// O_RDONLY: never O_CREAT, never a write lock (kafka-dump-log opens .txnindex read-write).
const OPEN_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK

/** Open `name` for reading if it is a regular file; throws InputError NOT_REGULAR_FILE otherwise. */
function openRegular(name: string): { fd: number; size: number } {
  const fd = fs.openSync(fsPath(name), OPEN_FLAGS)
  try {
    const st = fs.fstatSync(fd)
    if (!st.isFile())
      throw new InputError('NOT_REGULAR_FILE', name, `${describeFileType(st)}, not a regular file: not read`)
    return { fd, size: st.size }
  } catch (e) {
    fs.closeSync(fd)
    throw e
  }
}

export class FileSource implements SegmentSource {
  readonly size: number
  bytesRead = 0
  private fd: number | undefined

  constructor(readonly name: string) {
    const { fd, size } = openRegular(name)
    this.fd = fd
    this.size = size
  }

  readAt(position: number, length: number): Buffer {
    const n = Math.max(0, Math.min(length, this.size - position))
    const buf = Buffer.allocUnsafeSlow(n)
    this.readInto(buf, position, n)
    return buf
  }

  /**
   * Fills `target` from `position`; fewer bytes only at the end of the file as it was when opened.
   * A file that shrank meanwhile is an InputError FILE_CHANGED with its size now, so that no finding
   * is computed from a size that is no longer true.
   */
  readInto(target: Buffer, position: number, length: number): number {
    if (this.fd === undefined) throw new Error(`read after close: ${this.name}`)
    const n = Math.max(0, Math.min(length, target.length, this.size - position))
    let done = 0
    while (done < n) {
      const got = fs.readSync(this.fd, target, done, n - done, position + done)
      if (got === 0) throw this.shrank(position + done)
      done += got
    }
    this.bytesRead += done
    return done
  }

  private shrank(at: number): InputError {
    let now = '?'
    try {
      now = String(fs.fstatSync(this.fd!).size)
    } catch {
      /* the size is unknown, say so */
    }
    return new InputError(
      'FILE_CHANGED',
      this.name,
      `the file changed while it was read: it had ${this.size} bytes when opened, ${now} now (no data at position ${at})`,
      at,
    )
  }

  close(): void {
    if (this.fd !== undefined) fs.closeSync(this.fd)
    this.fd = undefined
  }
}

/**
 * The largest small file read whole: the indexes a seek reads, checkpoints, leader-epoch and
 * partition.metadata (.txnindex files and producer snapshots are read in windows, any size). Kafka's default segment.index.bytes (10 MiB, the size of a preallocated active
 * index) fits; anything larger is refused with FILE_TOO_LARGE rather than read into memory (a sparse
 * 4 GiB .timeindex costs nothing on disk but 4 GiB to read).
 */
export const MAX_SMALL_FILE_BYTES = 16 * 1024 * 1024

/**
 * A small file in one read, through the same read-only, regular-files-only open as segments, refused
 * above `maxBytes`. The only way io/ reads a whole file. Never for segments.
 */
export function readSmallFile(path: string, maxBytes = MAX_SMALL_FILE_BYTES): Buffer {
  const src = new FileSource(path)
  try {
    if (src.size > maxBytes) {
      throw new InputError(
        'FILE_TOO_LARGE',
        path,
        `${src.size} bytes, more than the ${maxBytes} bytes tsdump reads of a file of this kind: not read`,
      )
    }
    return src.readAt(0, src.size)
  } finally {
    src.close()
  }
}
