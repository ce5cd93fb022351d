// Temporary files for work that does not fit in memory: records spooled into numbered buckets (a hash join's
// partitions), each bucket read back in the order written, and sorted runs written one after another into one file
// and merged back into one order (an external merge), each read through a chunk of its own. Always under
// os.tmpdir(), in a directory of its own that close() removes; never beside the input, which tsdump never writes
// to. A record is the caller's bytes (io/spill-bytes.ts) after their length.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'

/** what all files' unwritten records may hold together, and what the byte ranges read at once hold in their chunks */
const BUFFERED = 4 * 1024 * 1024
/**
 * a file's records are appended once it holds at least this, whatever its share: BUFFERED's share of the 512 bucket
 * files of a large join (scan/transaction-buckets.ts MAX_BUCKETS), which held 8-10 MiB at twice this
 */
const MIN_FLUSH = 8 * 1024
const MIN_CHUNK = 4 * 1024
const MAX_CHUNK = 256 * 1024
/** a record up to this many bytes is copied byte by byte */
const SMALL_COPY = 64
/** the length before each record */
export const LENGTH = 4

interface Pending {
  buf: Buffer
  len: number
}

/**
 * The records of a byte range of a file read through one chunk: `next()` says whether there is one more, then
 * `buf` holds it from `pos` to `end` (valid until the next call). A record longer than the chunk grows it.
 */
export class RecordCursor {
  buf: Buffer
  pos = 0
  end = 0
  private have = 0
  private done = false

  /** `release` takes the chunk back once the range is read or the cursor closed */
  constructor(
    private readonly fd: number,
    private at: number,
    private readonly to: number,
    chunk: Buffer,
    private readonly release: (b: Buffer) => void,
  ) {
    this.buf = chunk
  }

  next(): boolean {
    if (this.done) return false
    let from = this.end
    if (this.have - from < LENGTH || this.have - from < LENGTH + this.buf.readUInt32LE(from)) {
      this.fill(from)
      from = 0
      if (this.have < LENGTH) return this.close()
      const need = LENGTH + this.buf.readUInt32LE(0)
      if (need > this.buf.length) {
        // a copy: the chunk grown to hold the record
        const b = Buffer.allocUnsafe(need)
        this.buf.copy(b, 0, 0, this.have)
        this.buf = b
        this.fill(0)
      }
      if (this.have < need) return this.close()
    }
    this.pos = from + LENGTH
    this.end = this.pos + this.buf.readUInt32LE(from)
    return true
  }

  /** the bytes from `from` on moved to the chunk's start, the rest of it read from the range */
  private fill(from: number): void {
    this.buf.copy(this.buf, 0, from, this.have)
    this.have -= from
    this.end = 0
    while (this.have < this.buf.length && this.at < this.to) {
      const n = fs.readSync(
        this.fd,
        this.buf,
        this.have,
        Math.min(this.buf.length - this.have, this.to - this.at),
        this.at,
      )
      if (n === 0) break
      this.have += n
      this.at += n
    }
  }

  close(): false {
    if (!this.done) {
      this.done = true
      this.release(this.buf)
    }
    return false
  }
}

/** the records of a buffer's bytes [from, to), as RecordCursor gives a file's */
export class BufferCursor {
  pos = 0
  end: number

  constructor(
    readonly buf: Buffer,
    from: number,
    private readonly to: number,
  ) {
    this.end = from
  }

  next(): boolean {
    if (this.end >= this.to) return false
    this.pos = this.end + LENGTH
    this.end = this.pos + this.buf.readUInt32LE(this.end)
    return true
  }
}

/**
 * A temp directory of files written a record at a time and read back, removed by close(). No file stays open
 * for writing (a join may write hundreds): each file's records are buffered up to its share of BUFFERED among the
 * files being written, then appended.
 */
export class SpillDir {
  readonly dir: string
  private readonly out = new Map<string, Pending>()
  /** bytes written to each file so far (its buffered ones are its Pending's) */
  private readonly sizes = new Map<string, number>()
  /** the buffer of the last file finished, for the next one (files written one after another reuse one buffer) */
  private spare: Buffer | null = null
  /** each file read, open once for all its cursors */
  private readonly readers = new Map<string, number>()
  private readonly cursors = new Set<RecordCursor>()
  /** the chunks of ranges read to their end, for the next ones (no garbage Buffer per bucket) */
  private readonly chunks: Buffer[] = []

  /** a process that exits (process.exit, an uncaught error) before close() leaves nothing behind */
  private readonly atExit = (): void => {
    this.closeReaders()
    fs.rmSync(this.dir, { recursive: true, force: true })
  }

  /** `files`: about how many files are written at the same time (each file's share is set by those being written) */
  constructor(prefix: string, _files = 1) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    process.on('exit', this.atExit)
  }

  /** appends one record, bytes [from, to) of `b`, to the named file */
  append(name: string, b: Buffer, from: number, to: number): void {
    let o = this.out.get(name)
    if (o === undefined) {
      o = { buf: this.spare ?? Buffer.allocUnsafe(4096), len: 0 }
      this.spare = null
      this.out.set(name, o)
    }
    const n = to - from
    const share = Math.max(MIN_FLUSH, BUFFERED / this.out.size)
    if (o.len + LENGTH + n > o.buf.length) {
      // a buffer as large as its share written out rather than grown past it (doubled, 512 files' buffers held
      // twice what BUFFERED allows)
      if (o.len > 0 && o.buf.length >= share) this.flush(name, o)
      if (o.len + LENGTH + n > o.buf.length) {
        // a copy: the file's buffer grown up to its share, what it holds kept
        const g = Buffer.allocUnsafe(Math.max(Math.min(o.buf.length * 2, Math.ceil(share)), o.len + LENGTH + n))
        o.buf.copy(g, 0, 0, o.len)
        o.buf = g
      }
    }
    const d = o.buf
    let at = o.len
    d[at] = n & 0xff
    d[at + 1] = (n >>> 8) & 0xff
    d[at + 2] = (n >>> 16) & 0xff
    d[at + 3] = n >>> 24
    at += LENGTH
    // most records are a few dozen bytes: copied here rather than through Buffer.copy's call into the runtime
    if (n <= SMALL_COPY) for (let i = from; i < to; i++) d[at++] = b[i]!
    else b.copy(d, at, from, to)
    o.len += LENGTH + n
    if (o.len < share) return
    this.flush(name, o)
    // a buffer grown while few files were written gives back what its share no longer allows
    if (o.buf.length > 2 * share) o.buf = Buffer.allocUnsafe(Math.ceil(share))
  }

  private flush(name: string, o: Pending): void {
    if (o.len > 0) {
      this.sizes.set(name, (this.sizes.get(name) ?? 0) + o.len)
      fs.appendFileSync(path.join(this.dir, name), o.buf.subarray(0, o.len))
    }
    o.len = 0
  }

  /** every file's buffered records written, and the buffers let go: nothing more is written */
  written(): void {
    this.finish()
    this.spare = null
  }

  /** bytes appended to the named file so far (written or buffered) */
  size(name: string): number {
    return (this.sizes.get(name) ?? 0) + (this.out.get(name)?.len ?? 0)
  }

  /** writes what the named file (every file when none is named) still buffers; its buffer is let go */
  finish(name?: string): void {
    for (const [k, o] of this.out) {
      if (name !== undefined && k !== name) continue
      this.flush(k, o)
      this.out.delete(k)
      if (this.spare === null || o.buf.length > this.spare.length) this.spare = o.buf
    }
  }

  /**
   * The records of the named file (of its bytes [from, to) when given) in the order written (none when nothing
   * was written to it), read through a chunk that is the range's share of BUFFERED among `readers` ranges read
   * at the same time
   */
  records(name: string, readers = 1, from = 0, to = this.size(name)): RecordCursor {
    this.finish(name)
    let fd = this.readers.get(name)
    if (fd === undefined && from < to) {
      fd = fs.openSync(path.join(this.dir, name), 'r')
      this.readers.set(name, fd)
    }
    const size = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.floor(BUFFERED / readers)))
    const k = this.chunks.findIndex((b) => b.length >= size)
    const chunk = k < 0 ? Buffer.allocUnsafe(size) : this.chunks.splice(k, 1)[0]!
    const c = new RecordCursor(fd ?? -1, from, to, chunk, (b) => {
      this.cursors.delete(c)
      this.chunks.push(b)
    })
    this.cursors.add(c)
    return c
  }

  /**
   * The named file's bytes in `into` (grown when it is smaller, hence the one returned), the count in `length`:
   * a bucket read whole, through one buffer for all of them
   */
  readAll(name: string, into: Buffer): { buf: Buffer; length: number } {
    this.finish(name)
    const file = path.join(this.dir, name)
    if (!fs.existsSync(file)) return { buf: into, length: 0 }
    const size = this.size(name)
    // a copy is not needed: what `into` held is read no more
    const buf = size > into.length ? Buffer.allocUnsafe(size) : into
    const fd = fs.openSync(file, 'r')
    try {
      let done = 0
      while (done < size) {
        const n = fs.readSync(fd, buf, done, size - done, done)
        if (n === 0) break
        done += n
      }
      return { buf, length: done }
    } finally {
      fs.closeSync(fd)
    }
  }

  /** deletes the named file */
  remove(name: string): void {
    this.out.delete(name)
    this.sizes.delete(name)
    const fd = this.readers.get(name)
    if (fd !== undefined) {
      fs.closeSync(fd)
      this.readers.delete(name)
    }
    fs.rmSync(path.join(this.dir, name), { force: true })
  }

  private closeReaders(): void {
    for (const c of [...this.cursors]) c.close()
    for (const fd of this.readers.values()) fs.closeSync(fd)
    this.readers.clear()
  }

  close(): void {
    this.out.clear()
    this.spare = null
    this.closeReaders()
    this.chunks.length = 0
    process.off('exit', this.atExit)
    fs.rmSync(this.dir, { recursive: true, force: true })
  }
}
