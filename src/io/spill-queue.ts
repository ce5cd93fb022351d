// A first-in first-out queue of byte items that holds up to a bound in memory and the rest in a scratch file of
// tsdump's own (io/spill-file.ts: under the temp directory, deleted on close). `export` holds there the batches
// whose visibility waits for a transaction's end, however long that transaction runs.
import { SpillFile } from './spill-file.js'

/** what the queue holds in memory before it writes to its scratch file */
export const SPILL_QUEUE_MEMORY = 8 * 1024 * 1024
/**
 * the scratch file is written and read through buffers of this size: a partition held whole (damage near its start)
 * is a million small batches, and two writes and two reads of the file each were most of its cost
 */
const SPILL_IO = 1024 * 1024

export class SpillQueue {
  private readonly mem: Buffer[] = []
  private memHead = 0
  private memBytes = 0
  private file: SpillFile | null = null
  /** the file's unread items lie in [readAt, file.size) */
  private readAt = 0
  private fileItems = 0
  private readonly len = Buffer.alloc(4)
  /** the file's tail not yet written to it */
  private wbuf: Buffer | null = null
  private wlen = 0
  /** the file's bytes [rStart, rStart + rLen), as last read */
  private rbuf: Buffer | null = null
  private rStart = 0
  private rLen = 0
  length = 0

  constructor(private memory = SPILL_QUEUE_MEMORY) {}

  /**
   * later items go to the scratch file whatever the memory holds: a queue that will hold everything to its end
   * (export's damaged partition) keeps no small buffers alive in memory, where a small young generation would
   * promote each of them to the old one
   */
  spillFromNow(): void {
    this.memory = 0
  }

  /** appends `item`, a copy of it unless `owned` (the caller gives it up) */
  push(item: Buffer, owned = false): void {
    this.length++
    // once items are in the file, later ones follow them there: the order is kept
    if (this.fileItems === 0 && this.memBytes + item.length <= this.memory) {
      this.mem.push(owned ? item : Buffer.from(item))
      this.memBytes += item.length
      return
    }
    this.toFile(item.length)
    this.write(item)
  }

  /** appends the item `head` then `body` (copied: no item is made of them in memory first) */
  pushPieces(head: Buffer, body: Buffer): void {
    if (this.fileItems === 0 && this.memBytes + head.length + body.length <= this.memory) {
      this.push(Buffer.concat([head, body]), true)
      return
    }
    this.length++
    this.toFile(head.length + body.length)
    this.write(head)
    this.write(body)
  }

  /** a file item of `length` bytes begins: its length written, the file emptied first when it holds no item */
  private toFile(length: number): void {
    this.file ??= new SpillFile('export-held')
    if (this.fileItems === 0) {
      this.file.size = 0
      this.readAt = 0
      this.rLen = 0
      this.wlen = 0
    }
    this.len.writeUInt32BE(length)
    this.write(this.len)
    this.fileItems++
  }

  private write(b: Buffer): void {
    this.wbuf ??= Buffer.allocUnsafe(SPILL_IO)
    if (this.wlen + b.length > SPILL_IO) this.flush()
    if (b.length > SPILL_IO) this.file!.append(b)
    else {
      b.copy(this.wbuf, this.wlen)
      this.wlen += b.length
    }
  }

  private flush(): void {
    if (this.wlen === 0) return
    this.file!.append(this.wbuf!.subarray(0, this.wlen))
    this.wlen = 0
  }

  /** fills `into` with the file's bytes from `at` (its unwritten tail written first when they reach it) */
  private read(at: number, into: Buffer): void {
    const file = this.file!
    if (at + into.length > file.size) this.flush()
    if (into.length > SPILL_IO) {
      file.readAt(at, into)
      return
    }
    if (at < this.rStart || at + into.length > this.rStart + this.rLen) {
      this.rbuf ??= Buffer.allocUnsafe(SPILL_IO)
      this.rStart = at
      this.rLen = Math.min(SPILL_IO, file.size - at)
      file.readAt(at, this.rbuf.subarray(0, this.rLen))
    }
    this.rbuf!.copy(into, 0, at - this.rStart, at - this.rStart + into.length)
  }

  /** the oldest item, left in the queue (valid until the next shift) */
  peek(): Buffer | undefined {
    if (this.memHead < this.mem.length) return this.mem[this.memHead]
    if (this.fileItems === 0) return undefined
    this.front ??= this.readFront()
    return this.front
  }

  private front: Buffer | undefined = undefined

  private readFront(): Buffer {
    this.read(this.readAt, this.len)
    const b = Buffer.allocUnsafe(this.len.readUInt32BE())
    this.read(this.readAt + 4, b)
    return b
  }

  /** removes and returns the oldest item */
  shift(): Buffer | undefined {
    if (this.memHead < this.mem.length) {
      const b = this.mem[this.memHead]!
      this.mem[this.memHead++] = EMPTY
      this.memBytes -= b.length
      this.length--
      if (this.memHead === this.mem.length) {
        this.mem.length = 0
        this.memHead = 0
      } else if (this.memHead >= 1024 && this.memHead * 2 >= this.mem.length) {
        // a queue that never drains (one transaction always open) would keep a slot per item ever held
        this.mem.splice(0, this.memHead)
        this.memHead = 0
      }
      return b
    }
    if (this.fileItems === 0) return undefined
    const b = this.front ?? this.readFront()
    this.front = undefined
    this.readAt += 4 + b.length
    this.fileItems--
    this.length--
    return b
  }

  /** deletes the scratch file (also after an error) */
  close(): void {
    this.file?.close()
    this.file = null
  }
}

const EMPTY = Buffer.alloc(0)
