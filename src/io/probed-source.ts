// A source whose first bytes were read to prove it can be read at all (a remote segment probed before its partition's
// scan, scan/remote-log-open.ts): those bytes are served from the probe's buffer and the rest from the source, so the
// scan's read of the segment does not read them again.
import { readThrough, type SegmentSource } from '../decode/segment-source.js'

/** `src` with its bytes [0, head.length) served from `head`, which holds them */
export function withHead(src: SegmentSource, head: Buffer): SegmentSource {
  const readInto = (target: Buffer, position: number, length: number): number => {
    const want = Math.max(0, Math.min(length, target.length, src.size - position))
    if (position >= head.length || want === 0) return src.readInto(target, position, length)
    const fromHead = Math.min(want, head.length - position)
    head.copy(target, 0, position, position + fromHead)
    if (fromHead === want) return want
    return fromHead + src.readInto(target.subarray(fromHead), position + fromHead, want - fromHead)
  }
  return readThrough(src, {
    readInto,
    readAt: (position, length) => {
      if (position >= head.length) return src.readAt(position, length)
      const buf = Buffer.allocUnsafe(Math.max(0, Math.min(length, src.size - position)))
      return buf.subarray(0, readInto(buf, position, buf.length))
    },
    close: () => {
      src.close()
    },
  })
}
