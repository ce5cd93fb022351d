// One partition's reconciliation: LEO, HW, LSO, visibility counts, transactions and findings.
// The work is done by PartitionAnalyzer in one streaming pass; this is the in-memory entry point.
import type { AnalyzerInternals, PartitionReport } from './partition-analyzer.js'
import { PartitionAnalyzer } from './partition-analyzer.js'
import { TxnIndexTable } from './txn-index-check.js'
import type { PartitionInput } from './txn-input.js'

export type { AnalyzerOptions, AnalyzerStats, OpenTransaction, PartitionReport } from './partition-analyzer.js'
export { PartitionAnalyzer } from './partition-analyzer.js'

export interface ReconcileOptions {
  /** collect runs and lane (`txns`) */
  timeline?: boolean
}

/** Reconcile one partition held in memory. Pure. */
export function reconcilePartition (input: PartitionInput, opts: ReconcileOptions = {}, internals: AnalyzerInternals = {}): PartitionReport {
  const a = new PartitionAnalyzer({
    topic: input.topic, partition: input.partition, logStartOffset: input.logStartOffset, snapshots: input.snapshots,
    checkpointHighWatermark: input.checkpointHighWatermark, txnIndex: input.txnIndexAvailable ? TxnIndexTable.from(input.txnIndex) : null,
    ...(opts.timeline === true ? { timeline: true as const } : {}),
  }, internals)
  for (const b of input.batches) a.add(b)
  return a.finish(input.lastSegmentBaseOffset, input.scanFindings)
}
