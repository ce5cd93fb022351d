// A first-in first-out queue of byte items that holds up to a bound in memory and the rest in a scratch file of
// tsdump's own (io/spill-file.ts: under the temp directory, deleted on close). `export` holds there the batches
// whose visibility waits for a transaction's end, however long that transaction runs.
import { SpillFile } from './spill-file.js'

/** what the queue holds in memory before it writes to its scratch file */
export const SPILL_QUEUE_MEMORY = 8 * 1024 * 1024

export class SpillQueue {
  private readonly mem: Buffer[] = []
  private memHead = 0
  private memBytes = 0
  private file: SpillFile | null = null
  /** the file's unread items lie in [readAt, file.size) */
  private readAt = 0
  private fileItems = 0
  private readonly len = Buffer.alloc(4)
  length = 0

  constructor(private readonly memory = SPILL_QUEUE_MEMORY) {}

  /** appends `item`, a copy of it unless `owned` (the caller gives it up) */
  push(item: Buffer, owned = false): void {
    this.length++
    // once items are in the file, later ones follow them there: the order is kept
    if (this.fileItems === 0 && this.memBytes + item.length <= this.memory) {
      this.mem.push(owned ? item : Buffer.from(item))
      this.memBytes += item.length
      return
    }
    this.file ??= new SpillFile('export-held')
    if (this.fileItems === 0) {
      this.file.size = 0
      this.readAt = 0
    }
    this.len.writeUInt32BE(item.length)
    this.file.append(this.len)
    this.file.append(item)
    this.fileItems++
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
    this.file!.readAt(this.readAt, this.len)
    const b = Buffer.allocUnsafe(this.len.readUInt32BE())
    this.file!.readAt(this.readAt + 4, b)
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
