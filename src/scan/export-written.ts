// What export's one read (export-read.ts) wrote before a partition's end, and whether the final facts say the same
// of it: each batch written early was decided with the facts known then (the log start, no HW, no LSO, no open
// transaction, the aborted transactions ended so far), which are the final facts' answers for it only while no
// final bound, open transaction or aborted transaction ended later reaches back to it. Offsets that do not
// increase, or damage, can make one do so: the partition is then exported again in the two passes.
import type { StreamedTransaction } from '../analysis/run-sink.js'
import { AbortedQueueAsRead } from '../analysis/record-visibility.js'
import { toBigInt } from '../bytes/int64.js'
import type { finalFacts } from './export-scan.js'

/** the batches written before the partition's end: the largest last offset, the log start they were decided with */
export class Written {
  /** the largest last offset written so far, null before the first */
  last: bigint | null = null
  start: bigint | null = null
  private reached = false

  /** an aborted transaction has ended (its marker was fed): does it begin at or below a batch already written? */
  ended(t: StreamedTransaction): void {
    if (this.last !== null && t.marker?.type === 'ABORT' && !t.empty && toBigInt(t.firstOffset) <= this.last)
      this.reached = true
  }

  holds(
    f: ReturnType<typeof finalFacts>,
    open: ReadonlyArray<{ state: string; firstOffset: bigint | number }>,
  ): boolean {
    const w = this.last
    if (w === null) return true
    if (this.reached || f.logStartOffset !== this.start || f.highWatermark <= w || f.lastStableOffset <= w) return false
    return !open.some((t) => t.state === 'open' && BigInt(t.firstOffset) <= w)
  }
}

/** the aborted transactions as read, each also told to Written */
export class AbortedSeen extends AbortedQueueAsRead {
  constructor(private readonly written: Written) {
    super()
  }
  override transactionEnded(t: StreamedTransaction): void {
    this.written.ended(t)
    super.transactionEnded(t)
  }
}
