// `tsdump export`'s one read (export-read.ts) of a batch larger than the record pass's window: the partition scan
// frames it by its header alone, and the record pass streams it, its CRC first, then its records. Read from the
// segment for both, its body would be read twice; and a batch that must wait for its transaction's end could only
// wait whole (in memory) or be read again at its turn. So its bytes are copied to a scratch file of tsdump's own
// (io/spill-file.ts) as its CRC is computed, in one read of the segment, and its records are read back from there,
// now or when it may go: what waits of it in the queue is its header and where its bytes are.
import { crc32cUpdate } from '../bytes/crc32c.js'
import * as L from '../decode/layout.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { SpillFile } from '../io/spill-file.js'

/** the scratch file is written through a buffer of this size (the record pass's window) */
const CHUNK = 1024 * 1024

export class LargeBatches {
  private file: SpillFile | null = null
  private chunk: Buffer | null = null
  /** batches in the scratch file that wait in the queue: while none does, the file is filled from its start again */
  waiting = 0

  /**
   * The batch of `total` bytes at `position` of `src` (its header in `header`) read once: its CRC (attributes to its
   * end, as the framer computes it) and where its bytes start in the scratch file; undefined when the segment ends
   * before the batch does (it shrank while read). `seen`: the batch's first bytes as the partition scan's window
   * holds them (beyond the header when that window read into the batch before skipping it), not read again.
   */
  copy(
    src: SegmentSource,
    header: Buffer,
    position: number,
    total: number,
    seen?: Buffer,
  ): { crc: number; at: number } | undefined {
    this.file ??= new SpillFile('export-large')
    if (this.waiting === 0) this.file.size = 0
    const at = this.file.append(header.subarray(0, L.RECORD_BATCH_OVERHEAD))
    let crc = crc32cUpdate(0, header.subarray(L.ATTRIBUTES_OFFSET, L.RECORD_BATCH_OVERHEAD))
    let from = position + L.RECORD_BATCH_OVERHEAD
    if (seen !== undefined && seen.length > L.RECORD_BATCH_OVERHEAD) {
      const part = seen.subarray(L.RECORD_BATCH_OVERHEAD, Math.min(seen.length, total))
      crc = crc32cUpdate(crc, part)
      this.file.append(part)
      from += part.length
    }
    this.chunk ??= Buffer.allocUnsafe(CHUNK)
    for (let a = from; a < position + total; ) {
      const n = Math.min(CHUNK, position + total - a)
      if (src.readInto(this.chunk, a, n) !== n) return undefined
      const part = this.chunk.subarray(0, n)
      crc = crc32cUpdate(crc, part)
      this.file.append(part)
      a += n
    }
    return { crc, at }
  }

  /** the batch at `position` (`total` bytes) of the segment `name`, read from the scratch file where `copy` put it at `at` */
  source(name: string, position: number, total: number, at: number): SegmentSource {
    const file = this.file!
    const size = position + total
    let read = 0
    const readInto = (target: Buffer, p: number, length: number): number => {
      const n = Math.max(0, Math.min(length, target.length, position + total - p))
      if (p < position || n === 0) return 0
      file.readAt(at + p - position, target.subarray(0, n))
      read += n
      return n
    }
    return {
      name,
      size,
      get bytesRead() {
        return read
      },
      readInto,
      readAt: (p, length) => {
        const buf = Buffer.allocUnsafe(Math.max(0, Math.min(length, position + total - p)))
        return buf.subarray(0, readInto(buf, p, buf.length))
      },
      close: () => {},
    }
  }

  /**
   * the whole batch of `total` bytes `copy` put at `at`, in memory: a __transaction_state batch whose records the
   * records tap reads as forEachInternalRecord does, which holds every batch whole
   */
  whole(at: number, total: number): Buffer {
    const buf = Buffer.allocUnsafe(total)
    this.file!.readAt(at, buf)
    return buf
  }

  /** deletes the scratch file (also after an error) */
  close(): void {
    this.file?.close()
    this.file = null
    this.chunk = null
  }
}
