// A file whose first bytes were read already and are held: reads inside them are answered from memory, the rest read
// from the file (opened when first needed). For an index file Kafka preallocates (segment.index.bytes, 10 MiB on the
// active segment): its entries up to the zero-filled space are read once, before the segment's .log, and the dump of
// the index file after the .log, its checks and the .timeindex check's lookups read them from here.
import type { SegmentSource } from '../decode/segment-source.js'
import { FileSource } from './file-source.js'

export class PrefixSource implements SegmentSource {
  bytesRead = 0
  private file: FileSource | undefined

  constructor(
    /** the file's bytes [0, prefix.length) */
    readonly prefix: Buffer,
    readonly name: string,
    readonly size: number,
    /** the prefix holds every entry of the index file (its windows up to its first zero entry) */
    readonly complete: boolean,
  ) {}

  readAt(position: number, length: number): Buffer {
    const n = Math.max(0, Math.min(length, this.size - position))
    if (position + n <= this.prefix.length) {
      this.bytesRead += n
      return this.prefix.subarray(position, position + n)
    }
    const buf = Buffer.allocUnsafe(n)
    return buf.subarray(0, this.readInto(buf, position, n))
  }

  readInto(target: Buffer, position: number, length: number): number {
    const want = Math.max(0, Math.min(length, target.length, this.size - position))
    const held = Math.max(0, Math.min(want, this.prefix.length - position))
    if (held > 0) this.prefix.copy(target, 0, position, position + held) // copy: the caller's buffer
    let n = held
    if (want > held) {
      this.file ??= new FileSource(this.name)
      n += this.file.readInto(target.subarray(held), position + held, want - held)
    }
    this.bytesRead += n
    return n
  }

  close(): void {
    this.file?.close()
  }
}
