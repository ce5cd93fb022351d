// Temporary files for work that does not fit in memory: records spooled into numbered buckets (a hash join's
// partitions), each bucket read back in the order written, and sorted runs merged back into one order (an
// external merge). Always under os.tmpdir(), in a directory of its own that close() removes; never beside the
// input, which tsdump never writes to. A record is the caller's bytes (io/spill-bytes.ts) after their length.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'

/** what all files' unwritten records may hold together, and what the files read at once hold in their chunks */
const BUFFERED = 4 * 1024 * 1024
/** a file's records are appended once it holds at least this, whatever the share */
const MIN_FLUSH = 16 * 1024
const MIN_CHUNK = 16 * 1024
const MAX_CHUNK = 256 * 1024
/** the length before each record */
const LENGTH = 4

interface Pending {
  buf: Buffer
  len: number
}

/**
 * A file's records read through one chunk: `next()` says whether there is one more, then `buf` holds it from `pos`
 * to `end` (valid until the next call). A record longer than the chunk grows it.
 */
export class RecordCursor {
  buf: Buffer
  pos = 0
  end = 0
  private have = 0
  private fd: number

  /** `release` takes the chunk back once the file is read or closed */
  constructor(
    file: string,
    chunk: Buffer,
    private readonly release: (b: Buffer) => void,
  ) {
    this.buf = chunk
    this.fd = fs.openSync(file, 'r')
  }

  next(): boolean {
    if (this.fd < 0) return false
    let at = this.end
    if (this.have - at < LENGTH || this.have - at < LENGTH + this.buf.readUInt32LE(at)) {
      this.fill(at)
      at = 0
      if (this.have < LENGTH) return this.done()
      const need = LENGTH + this.buf.readUInt32LE(0)
      if (need > this.buf.length) {
        // a copy: the chunk grown to hold the record
        const b = Buffer.allocUnsafe(need)
        this.buf.copy(b, 0, 0, this.have)
        this.buf = b
        this.fill(0)
      }
      if (this.have < need) return this.done()
    }
    this.pos = at + LENGTH
    this.end = this.pos + this.buf.readUInt32LE(at)
    return true
  }

  /** the bytes from `from` on moved to the chunk's start, the rest read */
  private fill(from: number): void {
    this.buf.copy(this.buf, 0, from, this.have)
    this.have -= from
    this.end = 0
    while (this.have < this.buf.length) {
      const n = fs.readSync(this.fd, this.buf, this.have, this.buf.length - this.have, null)
      if (n === 0) break
      this.have += n
    }
  }

  private done(): boolean {
    this.close()
    return false
  }

  close(): void {
    if (this.fd < 0) return
    fs.closeSync(this.fd)
    this.fd = -1
    this.release(this.buf)
  }
}

/**
 * A temp directory of files written a record at a time and read back, removed by close(). No file stays open
 * between writes (a join may write hundreds): each file's records are buffered up to its share of BUFFERED among
 * the files being written, then appended.
 */
export class SpillDir {
  readonly dir: string
  private readonly out = new Map<string, Pending>()
  /** the buffer of the last file finished, for the next one (files written one after another reuse one buffer) */
  private spare: Buffer | null = null
  private readonly cursors = new Set<RecordCursor>()
  /** the chunks of the files read to their end, for the next ones (no garbage of a MiB per bucket) */
  private readonly chunks: Buffer[] = []

  /** a process that exits (process.exit, an uncaught error) before close() leaves nothing behind */
  private readonly atExit = (): void => {
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
    if (o.len + LENGTH + n > o.buf.length) {
      // a copy: the file's buffer doubled, what it holds kept
      const g = Buffer.allocUnsafe(Math.max(o.buf.length * 2, o.len + LENGTH + n))
      o.buf.copy(g, 0, 0, o.len)
      o.buf = g
    }
    o.buf.writeUInt32LE(n, o.len)
    b.copy(o.buf, o.len + LENGTH, from, to)
    o.len += LENGTH + n
    const share = Math.max(MIN_FLUSH, BUFFERED / this.out.size)
    if (o.len < share) return
    this.flush(name, o)
    // a buffer grown while few files were written gives back what its share no longer allows
    if (o.buf.length > 2 * share) o.buf = Buffer.allocUnsafe(Math.ceil(share))
  }

  private flush(name: string, o: Pending): void {
    if (o.len > 0) fs.appendFileSync(path.join(this.dir, name), o.buf.subarray(0, o.len))
    o.len = 0
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
   * The records of the named file in the order written (none when nothing was written to it), read through a
   * chunk that is this file's share of BUFFERED among `readers` files read at the same time
   */
  records(name: string, readers = 1): RecordCursor | null {
    this.finish(name)
    const file = path.join(this.dir, name)
    if (!fs.existsSync(file)) return null
    const size = Math.min(MAX_CHUNK, Math.max(MIN_CHUNK, Math.floor(BUFFERED / readers)))
    const k = this.chunks.findIndex((b) => b.length >= size)
    const chunk = k < 0 ? Buffer.allocUnsafe(size) : this.chunks.splice(k, 1)[0]!
    const c = new RecordCursor(file, chunk, (b) => {
      this.cursors.delete(c)
      this.chunks.push(b)
    })
    this.cursors.add(c)
    return c
  }

  /** deletes the named file */
  remove(name: string): void {
    this.out.delete(name)
    fs.rmSync(path.join(this.dir, name), { force: true })
  }

  close(): void {
    this.out.clear()
    this.spare = null
    for (const c of [...this.cursors]) c.close()
    this.chunks.length = 0
    process.off('exit', this.atExit)
    fs.rmSync(this.dir, { recursive: true, force: true })
  }
}

/**
 * Merges sorted sequences into one order (`before(a, b)`: a comes first); on a tie the earlier sequence's item
 * first, so a stable sort of each, merged, is a stable sort of all. A binary heap over the sequences' heads.
 */
export function* mergeSorted<T>(seqs: ReadonlyArray<Iterator<T>>, before: (a: T, b: T) => boolean): Generator<T> {
  const heap: Array<{ v: T; i: number }> = []
  const less = (a: { v: T; i: number }, b: { v: T; i: number }): boolean =>
    before(a.v, b.v) || (!before(b.v, a.v) && a.i < b.i)
  const up = (k: number): void => {
    while (k > 0) {
      const p = (k - 1) >> 1
      if (!less(heap[k]!, heap[p]!)) break
      ;[heap[k], heap[p]] = [heap[p]!, heap[k]!]
      k = p
    }
  }
  const down = (k: number): void => {
    for (;;) {
      const l = 2 * k + 1
      const r = l + 1
      let m = k
      if (l < heap.length && less(heap[l]!, heap[m]!)) m = l
      if (r < heap.length && less(heap[r]!, heap[m]!)) m = r
      if (m === k) return
      ;[heap[k], heap[m]] = [heap[m]!, heap[k]!]
      k = m
    }
  }
  seqs.forEach((s, i) => {
    const n = s.next()
    if (n.done !== true) {
      heap.push({ v: n.value, i })
      up(heap.length - 1)
    }
  })
  while (heap.length > 0) {
    const top = heap[0]!
    yield top.v
    const n = seqs[top.i]!.next()
    if (n.done !== true) heap[0] = { v: n.value, i: top.i }
    else {
      const last = heap.pop()!
      if (heap.length > 0) heap[0] = last
    }
    if (heap.length > 0) down(0)
  }
}
