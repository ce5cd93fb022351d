// Where bytes come from. Decoders never touch node:fs; they ask a SegmentSource for a range.

export interface SegmentSource {
  /** a name for messages (the path as the user gave it) */
  readonly name: string
  /** total size in bytes */
  readonly size: number
  /** Read [position, position + length) into a fresh buffer; returns fewer bytes only at end of input. */
  readAt(position: number, length: number): Buffer
  /** Read into `target` (reused by the caller) from `position`; returns the byte count, fewer only at end of input. */
  readInto(target: Buffer, position: number, length: number): number
  /** bytes read so far, for the progress line and the benchmark's "bytes touched" figure */
  readonly bytesRead: number
  close(): void
  /**
   * false for a stream (stdin): reads never go back before the previous read's position, and `size` is
   * as large as can be until the end was reached
   */
  readonly seekable?: boolean
  /**
   * a stream's size, reading to its end if need be (for messages about the end of the input), but at most
   * `limit` bytes past what was read: an endless stream (`< /dev/zero`) has no size. Less than the size when
   * `ended` is still false.
   */
  finalSize?(limit: number): number
  /** a stream: whether its end was reached */
  readonly ended?: boolean
}

/**
 * `src` read through `reads`: its name, size and whether it can seek passed through, its bytes read `src`'s own unless
 * `reads` counts them (a source that serves some bytes from elsewhere: a probe's buffer, what a first pass held)
 */
export function readThrough(
  src: SegmentSource,
  reads: Pick<SegmentSource, 'readInto' | 'readAt' | 'close'> & { bytesRead?: () => number },
): SegmentSource {
  const bytesRead = reads.bytesRead ?? (() => src.bytesRead)
  return {
    name: src.name,
    get size() {
      return src.size
    },
    get bytesRead() {
      return bytesRead()
    },
    ...(src.seekable !== undefined ? { seekable: src.seekable } : {}),
    readInto: reads.readInto,
    readAt: reads.readAt,
    close: reads.close,
  }
}
