// The bytes one reader of a partition's segments read, held for a second reader of the same bytes in the same
// command, so that each file is read from the disk once. `dump --isolation-level` needs the partition's final
// facts (its markers, HW and LSO) before it can print any batch: the partition scan reads the segments first
// through `tee` and the dump then reads them through `replay`, which serves what the scan read from here and
// reads from the file only what the scan did not (a large batch's body, framed by its header alone).
//
// What is held stays in memory up to a bound and goes to a scratch file of tsdump's own beyond it (io/spill-file.ts:
// under the temp directory, deleted on close), so a partition of any size holds at most the bound in memory.
import type { SegmentSource } from '../decode/segment-source.js'
import { SpillFile } from './spill-file.js'

/** what the held bytes of one partition may take in memory before they go to the scratch file */
export const HELD_SEGMENTS_MEMORY = 8 * 1024 * 1024

/** the byte ranges read of one file, in position order and never overlapping: in memory, or at `at` in the scratch file */
interface Extents {
  starts: number[]
  ends: number[]
  bufs: Array<Buffer | null>
  at: number[]
}

export class HeldSegments {
  private readonly files = new Map<string, Extents>()
  private memBytes = 0
  private spill: SpillFile | null = null

  constructor(private readonly memory = HELD_SEGMENTS_MEMORY) {}

  /** `src` (the first reader's), every byte it reads held under `key` */
  tee(key: string, src: SegmentSource): SegmentSource {
    const x: Extents = { starts: [], ends: [], bufs: [], at: [] }
    this.files.set(key, x)
    return {
      name: src.name,
      get size() {
        return src.size
      },
      get bytesRead() {
        return src.bytesRead
      },
      ...(src.seekable !== undefined ? { seekable: src.seekable } : {}),
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
    }
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
          const from = at - x.starts[i]!
          const buf = x.bufs[i]!
          if (buf !== null) buf.copy(target, done, from, from + take)
          else this.spill!.readAt(x.at[i]! + from, target.subarray(done, done + take))
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
    return {
      name: real.name,
      get size() {
        return real.size
      },
      get bytesRead() {
        return read
      },
      ...(real.seekable !== undefined ? { seekable: real.seekable } : {}),
      readInto,
      readAt: (position, length) => {
        const buf = Buffer.allocUnsafeSlow(Math.max(0, Math.min(length, real.size - position)))
        return buf.subarray(0, readInto(buf, position, buf.length))
      },
      close: () => {
        real.close()
        this.drop(key)
      },
    }
  }

  /** what is held under `key` let go */
  drop(key: string): void {
    const x = this.files.get(key)
    if (x === undefined) return
    for (const b of x.bufs) if (b !== null) this.memBytes -= b.length
    this.files.delete(key)
  }

  /** everything let go, the scratch file deleted (also after an error) */
  close(): void {
    this.files.clear()
    this.memBytes = 0
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
    let buf: Buffer | null = null
    let at = -1
    if (this.memBytes + bytes.length <= this.memory) {
      buf = Buffer.allocUnsafeSlow(bytes.length)
      bytes.copy(buf)
      this.memBytes += bytes.length
    } else {
      this.spill ??= new SpillFile('isolation-held')
      at = this.spill.append(bytes)
    }
    if (i === x.starts.length) {
      x.starts.push(start)
      x.ends.push(start + bytes.length)
      x.bufs.push(buf)
      x.at.push(at)
    } else {
      x.starts.splice(i, 0, start)
      x.ends.splice(i, 0, start + bytes.length)
      x.bufs.splice(i, 0, buf)
      x.at.splice(i, 0, at)
    }
  }
}

/** the first range that ends after `position` (it holds `position` when it starts at or before it); -1: none */
function extentAt(x: Extents, position: number): number {
  let lo = 0
  let hi = x.ends.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (x.ends[mid]! <= position) lo = mid + 1
    else hi = mid
  }
  return lo < x.ends.length ? lo : -1
}
