// A deep dump of a batch larger than the read window reads its records from the file again after the framer
// streamed its CRC, and a compressed one twice more (its length and codec failures first, then its records:
// decode/streamed-batch.ts). Each file is read once: the bytes the CRC pass saw are kept in a scratch file of
// tsdump's own (io/spill-file.ts), and this source serves the records' reads of that batch from there.
import type { SegmentSource } from '../decode/segment-source.js'
import { SpillFile } from './spill-file.js'

export class BatchCopy implements SegmentSource {
  private spill: SpillFile | undefined
  /** the streamed batch whose bytes are kept: its position, where the kept bytes start, and how many */
  private batch = -1
  private base = 0
  private copied = 0

  constructor(private readonly file: SegmentSource) {}

  get name(): string {
    return this.file.name
  }
  get size(): number {
    return this.file.size
  }
  get bytesRead(): number {
    return this.file.bytesRead
  }

  /** FrameOptions.onStreamed: the bytes [at, at + length) of the batch at `batch`, in order */
  readonly pass = (batch: number, at: number, bytes: Uint8Array): void => {
    if (batch !== this.batch) [this.batch, this.base, this.copied] = [batch, at, 0]
    if (at !== this.base + this.copied) return
    this.spill ??= new SpillFile('batch')
    this.spill.writeAt(this.copied, bytes)
    this.copied += bytes.length
  }

  readAt(position: number, length: number): Buffer {
    const b = Buffer.allocUnsafe(length)
    return b.subarray(0, this.readInto(b, position, length))
  }

  readInto(target: Buffer, position: number, length: number): number {
    const kept = this.base + this.copied
    if (this.copied === 0 || position < this.base || position >= kept)
      return this.file.readInto(target, position, length)
    const n = Math.min(length, kept - position)
    this.spill!.readAt(position - this.base, target.subarray(0, n))
    // past what the CRC pass kept (a batch cut short by the end of the file): the file's own bytes
    return n === length ? n : n + this.file.readInto(target.subarray(n), kept, length - n)
  }

  /** the scratch file deleted; the file read is its owner's to close */
  close(): void {
    this.spill?.close()
    this.spill = undefined
    this.copied = 0
  }
}
