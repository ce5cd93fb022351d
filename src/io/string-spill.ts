// Strings kept in a scratch file (io/spill-file.ts) by a record's number, each record a few strings read back one at
// a time: a page drawn from thousands of partitions holds none of their parts in memory, only where each record
// starts (8 bytes a record).
import { SpillFile } from './spill-file.js'

/** each string's byte length, before the record's strings */
const LENGTH = 4

export class StringSpill {
  private readonly file: SpillFile
  /** where each record starts in the file, by its number (-1: none put) */
  private readonly starts: number[] = []
  private buf = Buffer.allocUnsafeSlow(64 * 1024)

  /** @param parts how many strings each record holds */
  constructor(
    prefix: string,
    private readonly parts: number,
  ) {
    this.file = new SpillFile(prefix)
  }

  /** record `at`'s strings (as many as `parts`), put once */
  put(at: number, strings: readonly string[]): void {
    const head = LENGTH * this.parts
    // a UTF-16 unit is at most 3 bytes of UTF-8
    const b = this.scratch(head + strings.reduce((a, x) => a + x.length * 3, 0))
    let pos = head
    strings.forEach((x, i) => {
      const n = b.write(x, pos, 'utf8')
      b.writeUInt32LE(n, LENGTH * i)
      pos += n
    })
    while (this.starts.length < at) this.starts.push(-1)
    this.starts[at] = this.file.append(b.subarray(0, pos))
  }

  /** whether record `at` was put */
  has(at: number): boolean {
    return (this.starts[at] ?? -1) >= 0
  }

  /** string `part` of record `at` ('' when the record was not put) */
  get(at: number, part: number): string {
    const start = this.starts[at] ?? -1
    if (start < 0) return ''
    const head = LENGTH * this.parts
    let b = this.scratch(head)
    this.file.readAt(start, b.subarray(0, head))
    let pos = start + head
    for (let i = 0; i < part; i++) pos += b.readUInt32LE(LENGTH * i)
    const n = b.readUInt32LE(LENGTH * part)
    b = this.scratch(n)
    this.file.readAt(pos, b.subarray(0, n))
    return b.toString('utf8', 0, n)
  }

  /** the one buffer records are written from and read into, at least `n` bytes (a buffer a record churned memory outside V8's heap) */
  private scratch(n: number): Buffer {
    if (this.buf.length < n) this.buf = Buffer.allocUnsafeSlow(Math.max(n, 2 * this.buf.length))
    return this.buf
  }

  /** how many record numbers there are (the largest put, plus one) */
  get count(): number {
    return this.starts.length
  }

  close(): void {
    this.file.close()
  }
}
