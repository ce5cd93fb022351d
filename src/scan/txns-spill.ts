// What txns' one scan of a partition holds until the scan's end gives the timeline's first line (log end, LSO, the
// batch count that sizes the lane): the runs beyond HELD_RUNS and the lane beyond its window go to scratch files
// of tsdump's own (io/spill-file.ts), made only when a partition is that large, and are read back in order.
import { PagedLane } from '../analysis/timeline.js'
import type { TimelineRun } from '../analysis/timeline.js'
import { RUN_SLOTS, decodeRun, encodeRun } from '../analysis/timeline-wire.js'
import type { WireRuns } from '../analysis/timeline-wire.js'
import { SpillFile } from '../io/spill-file.js'

/** runs held in memory before they are written out (a chunk) */
export const HELD_RUNS = 4096
/** lane bytes (one a batch) held in memory */
const LANE_WINDOW = 1 << 20

export class TxnsSpill {
  // each run is written into words as it comes (analysis/timeline-wire.ts), not held as an object until the chunk is
  // full: run objects held for thousands of runs outlived V8's scavenges, and the young generation grew to hold them
  // (bench/RESULTS.md, "lso and txns from the broker model"). The words grow to HELD_RUNS runs, then are reused.
  private held: WireRuns = { words: new BigInt64Array(64 * RUN_SLOTS), count: 0, names: [] }
  private readonly chunks: Array<Omit<WireRuns, 'words'> & { at: number }> = []
  private runsFile: SpillFile | null = null
  private laneFile: SpillFile | null = null
  readonly lane = new PagedLane(LANE_WINDOW, () => (this.laneFile ??= new SpillFile('txns-lane')))

  run(r: TimelineRun): void {
    const w = this.held
    if (w.count * RUN_SLOTS === w.words.length) {
      const words = new BigInt64Array(w.words.length * 2)
      words.set(w.words)
      w.words = words
    }
    encodeRun(w, w.count++, r)
    if (w.count < HELD_RUNS) return
    this.runsFile ??= new SpillFile('txns-runs')
    const at = this.runsFile.append(new Uint8Array(w.words.buffer, w.words.byteOffset, w.count * RUN_SLOTS * 8))
    this.chunks.push({ at, count: w.count, names: w.names, ...(w.damaged !== undefined ? { damaged: w.damaged } : {}) })
    // written: the same words take the next chunk
    this.held = { words: w.words, count: 0, names: [] }
  }

  /** every run in the order given */
  replay(to: (r: TimelineRun) => void): void {
    const held = this.held
    // the chunks are read back one at a time into one array of words
    let words: BigInt64Array | undefined
    for (const c of this.chunks) {
      words ??= new BigInt64Array(HELD_RUNS * RUN_SLOTS)
      this.runsFile!.readAt(c.at, new Uint8Array(words.buffer, 0, c.count * RUN_SLOTS * 8))
      const w: WireRuns = { ...c, words }
      for (let i = 0; i < c.count; i++) to(decodeRun(w, i))
    }
    for (let i = 0; i < held.count; i++) to(decodeRun(held, i))
  }

  close(): void {
    this.runsFile?.close()
    this.laneFile?.close()
  }
}
