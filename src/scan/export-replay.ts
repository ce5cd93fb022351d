// What export's one read hands out before a partition's end, copied to a scratch file for the case where the final
// facts reach back to rows already written (export-read.ts `again`). At most REPLAY_BUDGET: a partition can be
// larger than the temp dir holds, and copying every exported partition whole to it would cost that disk on every
// run for a case that needs damage; past the budget the copy stops and that partition, if it needs it, is read
// again in the two passes (commands/export.ts).
import { SpillQueue } from '../io/spill-queue.js'

const REPLAY_BUDGET = 256 * 1024 * 1024

export class ReplayCopy {
  /** in memory: nothing (the scratch file holds it all) */
  readonly queue = new SpillQueue(0)
  private bytes = 0
  /** false once the copy would have passed the budget: `again` cannot replay the partition */
  whole = true

  /** whether `n` more bytes are copied (the caller pushes them to `queue`) */
  takes(n: number): boolean {
    if (this.whole && this.bytes + n > REPLAY_BUDGET) this.whole = false
    if (this.whole) this.bytes += n
    return this.whole
  }

  close(): void {
    this.queue.close()
  }
}
