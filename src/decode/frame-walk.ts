// Entry starts of a log file by the size fields alone: where a parallel dump may cut the file
// (commands/workers/dump-pool.ts). It applies scanFrames's rules (frameProblem, the 17-byte minimum, an entry
// that must end inside the file) and stops at the first entry scanFrames would not yield as a whole
// frame, or may not (a magic 0/1 entry after a v2 batch: resync.ts overlappedBatch), so every position it
// gives is one where the sequential scan starts an entry too. It reads only to the next header and makes
// nothing per entry: scanFrames with headersOnly costs about 1.3 µs per entry (1.5 s for the 1.2 M batches of
// 256 MiB), too much for the serial part of a parallel dump.
import type { SegmentSource } from './segment-source.js'
import { DEFAULT_MAX_BATCH, frameProblem } from './frame-scanner.js'
import * as L from './layout.js'

const WALK_WINDOW = 256 * 1024

/**
 * Entry starts at least `step()` bytes apart (0 excluded), walking [0, end) until the first entry that is not
 * whole and sound. `step` is asked again after each start given: the caller may adapt the spacing as it goes.
 */
export function* walkEntryStarts(
  source: SegmentSource,
  end: number,
  step: () => number,
  maxBatchBytes?: number,
): Generator<number> {
  const maxBatch = maxBatchBytes ?? DEFAULT_MAX_BATCH
  const win = Buffer.allocUnsafe(WALK_WINDOW)
  let winStart = 0
  let winLen = 0
  let last = 0
  let pos = 0
  let prevMagic = -1
  while (end - pos > L.HEADER_SIZE_UP_TO_MAGIC) {
    if (pos + L.HEADER_SIZE_UP_TO_MAGIC > winStart + winLen) {
      winStart = pos
      winLen = source.readInto(win, pos, Math.min(WALK_WINDOW, end - pos))
      if (winLen < L.HEADER_SIZE_UP_TO_MAGIC) return
    }
    const o = pos - winStart
    const size = win.readInt32BE(o + L.SIZE_OFFSET)
    const magic = win.readInt8(o + L.MAGIC_OFFSET)
    const total = L.LOG_OVERHEAD + size
    if (frameProblem(size, magic, total, maxBatch) !== undefined || total > end - pos) return
    // a magic 0/1 entry after a v2 batch may be a chance one the resyncing scan sets aside (resync.ts overlappedBatch)
    if (magic < 2 && prevMagic === 2) return
    prevMagic = magic
    if (pos - last >= step()) {
      yield pos
      last = pos
    }
    pos += total
  }
}
