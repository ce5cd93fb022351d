// The bytes one reader of a partition's segments read, held for a second reader of the same bytes in the same
// command, so that each file is read from the disk once. `dump --isolation-level` needs the partition's final
// facts (its markers, HW and LSO) before it can print any batch: the partition scan reads the segments first
// through `tee` and the dump then reads them through `replay`, which serves what the scan read from here and
// reads from the file only what the scan did not (a large batch's body, framed by its header alone).
//
// What is held stays in memory up to a bound and goes to a scratch file of tsdump's own beyond it (io/spill-file.ts:
// under the temp directory, deleted on close), so a partition of any size holds at most the bound in memory. The
// memory is one buffer, filled from its start again for the next partition (`reset`): a buffer per read, let go
// with each partition, waited for the collector, and the dump of scale-100000's 58 partitions peaked 25-30 MiB higher
// than with two reads; with one buffer of 4 MiB, 4-6 MiB higher (8 MiB: 8-9).
import { readThrough, type SegmentSource } from '../decode/segment-source.js'
import { SpillFile } from './spill-file.js'
import { upperBound } from '../bytes/sorted-search.js'

/** what the held bytes of one partition may take in memory before they go to the scratch file */
export const HELD_SEGMENTS_MEMORY = 4 * 1024 * 1024

/** the byte ranges read of one file, in position order and never overlapping: at `at` in memory, or at -1 - `at` in the scratch file */
interface Extents {
  starts: number[]
  ends: number[]
  at: number[]
}

export class HeldSegments {
  private readonly files = new Map<string, Extents>()
  private arena: Buffer | null = null
  private used = 0
  private spill: SpillFile | null = null

  /** `purpose`: the scratch file's name prefix */
  constructor(
    private readonly memory = HELD_SEGMENTS_MEMORY,
    private readonly purpose = 'isolation-held',
  ) {}

  /** `src` (the first reader's), every byte it reads held under `key` */
  tee(key: string, src: SegmentSource): SegmentSource {
    const x: Extents = { starts: [], ends: [], at: [] }
    this.files.set(key, x)
    return this.teeInto(x, src)
  }

  /**
   * `src` read through what is held under `key`, every byte read from it held there too: one reader that reads a
   * file in several passes (check it, then print it) reads each byte from the disk once. Closing it lets them go.
   */
  once(key: string, src: SegmentSource): SegmentSource {
    let x = this.files.get(key)
    if (x === undefined) {
      x = { starts: [], ends: [], at: [] }
      this.files.set(key, x)
    }
    return this.replay(key, this.teeInto(x, src))
  }

  private teeInto(x: Extents, src: SegmentSource): SegmentSource {
    return readThrough(src, {
      readInto: (target, position, length) => {
        const n = src.readInto(target, position, length)
        this.hold(x, position, target.subarray(0, n))
        return n
      },
      readAt: (position, length) => {
        const b = src.readAt(position, length)
        this.hold(x, position, b)
        return b
      },
      close: () => {
        src.close()
      },
    })
  }

  /** `real` read through what `key`'s first reader read (`real` itself when nothing is held under `key`); closing it lets them go */
  replay(key: string, real: SegmentSource): SegmentSource {
    const x = this.files.get(key)
    if (x === undefined) return real
    let read = 0
    const readInto = (target: Buffer, position: number, length: number): number => {
      const n = Math.max(0, Math.min(length, target.length, real.size - position))
      let done = 0
      while (done < n) {
        const at = position + done
        const i = extentAt(x, at)
        if (i >= 0 && x.starts[i]! <= at) {
          const take = Math.min(x.ends[i]!, position + n) - at
          const held = x.at[i]!
          const from = at - x.starts[i]!
          if (held >= 0) this.arena!.copy(target, done, held + from, held + from + take)
          else this.spill!.readAt(-1 - held + from, target.subarray(done, done + take))
          done += take
          continue
        }
        // not read before: from the file, up to the next held range
        const next = i >= 0 ? x.starts[i]! : position + n
        const want = Math.min(next, position + n) - at
        const got = real.readInto(target.subarray(done), at, want)
        done += got
        if (got < want) break
      }
      read += done
      return done
    }
    return readThrough(real, {
      bytesRead: () => read,
      readInto,
      readAt: (position, length) => {
        const buf = Buffer.allocUnsafeSlow(Math.max(0, Math.min(length, real.size - position)))
        return buf.subarray(0, readInto(buf, position, buf.length))
      },
      close: () => {
        real.close()
        this.drop(key)
      },
    })
  }

  /** what is held under `key` let go (its memory is reused after `reset`) */
  drop(key: string): void {
    this.files.delete(key)
  }

  /** everything let go: the memory and the scratch file are filled from their start again */
  reset(): void {
    this.files.clear()
    this.used = 0
    if (this.spill !== null) this.spill.size = 0
  }

  /** everything let go, the scratch file deleted (also after an error) */
  close(): void {
    this.reset()
    this.arena = null
    this.spill?.close()
    this.spill = null
  }

  /** the parts of [position, position + bytes.length) not held yet, held (a reader that reads a range again adds nothing) */
  private hold(x: Extents, position: number, bytes: Buffer): void {
    const end = position + bytes.length
    const n = x.starts.length
    // the common case: reads go forward
    if (n === 0 || position >= x.ends[n - 1]!) {
      if (bytes.length > 0) this.add(x, n, position, bytes)
      return
    }
    let i = extentAt(x, position)
    if (i < 0) i = x.starts.length
    for (let cur = position; cur < end; ) {
      if (i < x.starts.length && x.starts[i]! <= cur) {
        cur = Math.max(cur, x.ends[i]!)
        i++
        continue
      }
      const gapEnd = i < x.starts.length ? Math.min(x.starts[i]!, end) : end
      this.add(x, i, cur, bytes.subarray(cur - position, gapEnd - position))
      i++
      cur = gapEnd
    }
  }

  private add(x: Extents, i: number, start: number, bytes: Buffer): void {
    let at: number
    if (this.used + bytes.length <= this.memory) {
      // allocated once, its pages touched only as they are filled
      this.arena ??= Buffer.allocUnsafeSlow(this.memory)
      at = this.used
      bytes.copy(this.arena, at)
      this.used += bytes.length
    } else {
      this.spill ??= new SpillFile(this.purpose)
      at = -1 - this.spill.append(bytes)
    }
    if (i === x.starts.length) {
      x.starts.push(start)
      x.ends.push(start + bytes.length)
      x.at.push(at)
    } else {
      x.starts.splice(i, 0, start)
      x.ends.splice(i, 0, start + bytes.length)
      x.at.splice(i, 0, at)
    }
  }
}

/** the first range that ends after `position` (it holds `position` when it starts at or before it); -1: none */
function extentAt(x: Extents, position: number): number {
  const i = upperBound(x.ends, position)
  return i < x.ends.length ? i : -1
}
