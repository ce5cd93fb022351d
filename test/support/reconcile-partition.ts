// A partition held in memory, reconciled: the tests' entry point to PartitionAnalyzer (the commands stream
// batches into it from the partition scan, scan/partition-scan.ts). LEO, HW, LSO, visibility counts,
// transactions and findings, as reconcile reports them.
import type { AnalyzerInternals, PartitionReport } from '../../src/analysis/partition-analyzer.js'
import { PartitionAnalyzer } from '../../src/analysis/partition-analyzer.js'
import { TxnIndexTable } from '../../src/decode/txn-index-table.js'
import type { BatchSummary } from '../../src/analysis/batch-facts.js'
import type { Finding } from '../../src/analysis/findings.js'
import type { SnapshotInput } from '../../src/analysis/partition-input.js'
import type { TxnIndexEntry } from '../../src/decode/txn-index-table.js'

export type {
  AnalyzerOptions,
  AnalyzerStats,
  OpenTransaction,
  PartitionReport,
} from '../../src/analysis/partition-analyzer.js'
export { PartitionAnalyzer } from '../../src/analysis/partition-analyzer.js'

/** A whole partition in memory: the pure form used by tests and small inputs. */
export interface PartitionInput {
  topic: string | null
  partition: number | null
  /** first segment's base offset (or first batch offset when no segment name is numeric) */
  logStartOffset: bigint
  /** largest segment base offset seen (an empty active segment still moves the log end) */
  lastSegmentBaseOffset: bigint
  /** batches of all segments in offset order */
  batches: BatchSummary[]
  /** entries of all .txnindex files, in file order */
  txnIndex: TxnIndexEntry[]
  /** false when the .txnindex files could not be looked for (e.g. a bare .log without its directory) */
  txnIndexAvailable: boolean
  /** valid snapshots, any order */
  snapshots: SnapshotInput[]
  /** from replication-offset-checkpoint, null when absent */
  checkpointHighWatermark: bigint | null
  /** problems found while reading the files (framing damage, tails, unreadable control records ...) */
  scanFindings: Finding[]
}

export interface ReconcileOptions {
  /** collect runs and lane (`txns`) */
  timeline?: boolean
}

/** Reconcile one partition held in memory. Pure. */
export function reconcilePartition(
  input: PartitionInput,
  opts: ReconcileOptions = {},
  internals: AnalyzerInternals = {},
): PartitionReport {
  const a = new PartitionAnalyzer(
    {
      topic: input.topic,
      partition: input.partition,
      logStartOffset: input.logStartOffset,
      snapshots: input.snapshots,
      checkpointHighWatermark: input.checkpointHighWatermark,
      txnIndex: input.txnIndexAvailable ? TxnIndexTable.from(input.txnIndex) : null,
      ...(opts.timeline === true ? { timeline: true as const } : {}),
    },
    internals,
  )
  for (const b of input.batches) a.add(b)
  return a.finish(input.lastSegmentBaseOffset, input.scanFindings)
}
