// What txns' one scan of a partition holds until the scan's end gives the timeline's first line (log end, LSO, the
// batch count that sizes the lane): the runs beyond HELD_RUNS and the lane beyond its window go to scratch files
// of tsdump's own (io/spill-file.ts), made only when a partition is that large, and are read back in order.
import { PagedLane } from '../analysis/timeline.js'
import type { TimelineRun } from '../analysis/timeline.js'
import { RUN_SLOTS, decodeRun, encodeRuns } from '../analysis/timeline-wire.js'
import type { WireRuns } from '../analysis/timeline-wire.js'
import { SpillFile } from '../io/spill-file.js'

/** runs held in memory before they are written out (a chunk) */
export const HELD_RUNS = 4096
/** lane bytes (one a batch) held in memory */
const LANE_WINDOW = 1 << 20

export class TxnsSpill {
  private readonly held: TimelineRun[] = []
  private readonly chunks: Array<Omit<WireRuns, 'words'> & { at: number }> = []
  private runsFile: SpillFile | null = null
  private laneFile: SpillFile | null = null
  readonly lane = new PagedLane(LANE_WINDOW, () => (this.laneFile ??= new SpillFile('txns-lane')))

  run(r: TimelineRun): void {
    this.held.push(r)
    if (this.held.length < HELD_RUNS) return
    const w = encodeRuns(this.held)
    this.runsFile ??= new SpillFile('txns-runs')
    const at = this.runsFile.append(new Uint8Array(w.words.buffer, w.words.byteOffset, w.words.byteLength))
    this.chunks.push({ at, count: w.count, names: w.names, ...(w.damaged !== undefined ? { damaged: w.damaged } : {}) })
    this.held.length = 0
  }

  /** every run in the order given */
  replay(to: (r: TimelineRun) => void): void {
    for (const c of this.chunks) {
      const words = new BigInt64Array(c.count * RUN_SLOTS)
      this.runsFile!.readAt(c.at, new Uint8Array(words.buffer))
      const w: WireRuns = { ...c, words }
      for (let i = 0; i < c.count; i++) to(decodeRun(w, i))
    }
    for (const r of this.held) to(r)
  }

  close(): void {
    this.runsFile?.close()
    this.laneFile?.close()
  }
}
