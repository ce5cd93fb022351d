// A __transaction_state partition scanned and its coordinator records read in the same pass (txns' per partition).
import type { TimedOutAbort } from '../analysis/transaction-join/timed-out.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import type { ScannedPartition } from './partition-scan.js'
import { scanPartition } from './partition-scan.js'
import type { IdWatch, TransactionStateRead } from './transaction-state-read.js'
import { TransactionStateReader } from './transaction-state-read.js'

/** a __transaction_state partition scanned (its partition facts) and its coordinator records read in that one pass */
export function scanTransactionStatePartition(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  opts: { resync?: boolean } = {},
  keepTimedOut: (a: TimedOutAbort) => boolean = () => true,
  watch?: IdWatch,
): { scanned: ScannedPartition; read: TransactionStateRead } {
  const r = new TransactionStateReader(dir, undefined, watch)
  const scanned = scanPartition(dir, checkpoints, {
    ...opts,
    frames: () => (frames, src, file) => r.tap(frames, src, file),
  })
  return { scanned, read: r.finish(scanned.report.findings, keepTimedOut) }
}
