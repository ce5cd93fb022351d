// Collects the runs and the lane of `tsdump txns` while the analyzer streams (only when asked: the
// memory is proportional to the output). The analyzer tells it each batch's kind and index.
import { toBigInt } from './i64.js'
import type { Run, Txn } from './streaming-txn.js'
import { bigTxn } from './streaming-txn.js'
import type { Timeline, TimelineRun } from './timeline.js'
import { LANE_CONTROL, LANE_PLAIN } from './timeline.js'
import type { Transaction } from './transactions.js'
import type { BatchFacts } from './txn-input.js'

export class TimelineRecorder {
  private readonly txnRuns: Run[] = []
  private readonly otherRuns: Run[] = []
  private plainRun: (Run & { kind: 'plain' }) | null = null
  private codes = new Uint32Array(1024)

  /** a new transaction, one run however its batches interleave */
  transaction (t: Txn): void {
    this.txnRuns.push({ kind: 'transaction', firstOffset: t.firstOffset, txn: t, interleaved: false })
  }

  private laneCode (index: number, code: number): void {
    if (index === this.codes.length) {
      const c = new Uint32Array(this.codes.length * 2)
      c.set(this.codes)
      this.codes = c
    }
    this.codes[index] = code
  }

  /** a non-transactional data batch: adjacent ones of one producer form a plain run */
  plain (b: BatchFacts, index: number): void {
    const p = this.plainRun
    if (p !== null && p.producerId === b.producerId && p.producerEpoch === b.producerEpoch) {
      p.lastOffset = b.lastOffset; p.records += b.recordsCount; p.batches++
    } else {
      this.plainRun = { kind: 'plain', firstOffset: b.baseOffset, lastOffset: b.lastOffset, producerId: b.producerId, producerEpoch: b.producerEpoch, records: b.recordsCount, batches: 1 }
      this.otherRuns.push(this.plainRun)
    }
    this.laneCode(index, LANE_PLAIN)
  }

  /** a control batch that is not COMMIT/ABORT (or could not be read) */
  control (b: BatchFacts, typeName: string, index: number): void {
    this.plainRun = null // any other batch ends a plain run, so runs read in log order
    this.otherRuns.push({ kind: 'control', firstOffset: b.baseOffset, typeName, producerId: b.producerId })
    this.laneCode(index, LANE_CONTROL)
  }

  /** a data batch or the marker of transaction `t` */
  txnBatch (t: Txn, code: number, index: number): void {
    this.plainRun = null
    if (t.spanBatches === 0) t.firstIndex = index
    t.lastIndex = index
    t.spanBatches++
    this.laneCode(index, code)
  }

  /** The runs and transactions, their I64 fields turned into bigints in place (the analyzer is done with them). */
  build (batchCount: number): Timeline {
    const transactions: Transaction[] = []
    for (const r of this.txnRuns) {
      if (r.kind !== 'transaction') continue
      const t = r.txn
      // interleaved: other batches sit between its first and last batch (data + marker)
      r.interleaved = t.spanBatches > 0 && t.lastIndex - t.firstIndex + 1 > t.spanBatches
      transactions.push(bigTxn(t))
    }
    const runs = this.txnRuns.concat(this.otherRuns).sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0))
    for (const r of runs) {
      r.firstOffset = toBigInt(r.firstOffset)
      if (r.kind !== 'transaction') r.producerId = toBigInt(r.producerId)
      if (r.kind === 'plain') r.lastOffset = toBigInt(r.lastOffset)
    }
    return { runs: runs as TimelineRun[], laneCodes: this.codes.subarray(0, batchCount), transactions }
  }
}
