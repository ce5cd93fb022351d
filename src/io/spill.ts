// Temporary files for work that does not fit in memory: values spooled into numbered buckets (a hash join's
// partitions), each bucket read back in the order written, and sorted runs merged back into one order (an
// external merge). Always under os.tmpdir(), in a directory of its own that close() removes; never beside the
// input, which tsdump never writes to. Values are text lines (the caller's encoding).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { StringDecoder } from 'node:string_decoder'

/** what all files' unwritten lines may hold together, and the read chunk of each file read */
const BUFFERED = 4 * 1024 * 1024
const CHUNK = 32 * 1024

/** the lines of a file, read through one chunk (a character cut at a chunk's end is completed by the next) */
export function* fileLines(file: string): Generator<string> {
  const fd = fs.openSync(file, 'r')
  try {
    const buf = Buffer.allocUnsafe(CHUNK)
    const dec = new StringDecoder('utf8')
    let carry = ''
    for (;;) {
      const n = fs.readSync(fd, buf, 0, CHUNK, null)
      if (n === 0) break
      const lines = (carry + dec.write(buf.subarray(0, n))).split('\n')
      carry = lines.pop()!
      for (const l of lines) yield l
    }
    carry += dec.end()
    if (carry !== '') yield carry
  } finally {
    fs.closeSync(fd)
  }
}

/**
 * A temp directory of files written a line at a time and read back, removed by close(). No file stays open
 * between writes (a join may write hundreds): each file's lines are buffered up to its share of BUFFERED, then
 * appended.
 */
export class SpillDir {
  readonly dir: string
  private readonly out = new Map<string, { buf: string[]; size: number }>()
  private readonly flushAt: number

  /** `files`: about how many files are written at the same time */
  /** a process that exits (process.exit, an uncaught error) before close() leaves nothing behind */
  private readonly atExit = (): void => {
    fs.rmSync(this.dir, { recursive: true, force: true })
  }

  constructor(prefix: string, files = 1) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    this.flushAt = Math.max(4096, Math.floor(BUFFERED / Math.max(1, files)))
    process.on('exit', this.atExit)
  }

  /** appends one line to the named file */
  append(name: string, line: string): void {
    let o = this.out.get(name)
    if (o === undefined) {
      o = { buf: [], size: 0 }
      this.out.set(name, o)
    }
    o.buf.push(line)
    o.size += line.length + 1
    if (o.size >= this.flushAt) this.flush(name, o)
  }

  private flush(name: string, o: { buf: string[]; size: number }): void {
    if (o.buf.length > 0) fs.appendFileSync(path.join(this.dir, name), o.buf.join('\n') + '\n')
    o.buf.length = 0
    o.size = 0
  }

  /** writes what the named file (every file when none is named) still buffers */
  finish(name?: string): void {
    for (const [k, o] of this.out) {
      if (name !== undefined && k !== name) continue
      this.flush(k, o)
      this.out.delete(k)
    }
  }

  /** the lines of the named file in the order written (none when nothing was written to it) */
  *lines(name: string): Generator<string> {
    this.finish(name)
    const file = path.join(this.dir, name)
    if (!fs.existsSync(file)) return
    yield* fileLines(file)
  }

  /** deletes the named file */
  remove(name: string): void {
    this.out.delete(name)
    fs.rmSync(path.join(this.dir, name), { force: true })
  }

  close(): void {
    this.out.clear()
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
