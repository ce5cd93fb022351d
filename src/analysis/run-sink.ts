// A listener for the shape of a partition's history while PartitionAnalyzer streams it, for consumers
// that summarise as they go (`tsdump report` buckets millions of transactions into a bounded picture)
// instead of keeping the run list `txns` keeps. The analyzer calls it next to the timeline recorder's calls;
// it never changes the analysis. (Its own shape, not streaming-txn's Txn: that file imports partition-report.ts.)
import type { I64 } from '../bytes/int64.js'
import type { BatchFacts } from './batch-facts.js'
import type { DamageRef, TxnOutcome } from './transactions.js'

/** A transaction as the analyzer holds it while streaming (I64 fields: numbers where they fit). */
export interface StreamedTransaction {
  producerId: I64
  producerEpoch: number
  markerEpoch: number | null
  firstOffset: I64
  lastDataOffset: I64 | null
  records: number
  batches: number
  firstTimestamp: I64 | null
  lastTimestamp: I64 | null
  outcome: TxnOutcome | null
  markerOffset: I64 | null
  coordinatorEpoch: number | null
  /** its data or marker may lie in bytes that could not be read (Transaction.damage) */
  damage?: DamageRef
  seeded: boolean
  empty: boolean
}

/** Called in log order. The arguments are the analyzer's (or the scan's reused) objects: copy what you keep. */
export interface RunSink {
  /** a non-transactional data batch (legacy entries included) */
  plainBatch: (b: BatchFacts) => void
  /** a control batch that is not a COMMIT/ABORT marker (LEADER_CHANGE, EMPTY, UNREADABLE ...) */
  controlBatch: (b: BatchFacts, typeName: string) => void
  /** a COMMIT/ABORT marker ended `t` (t.outcome and t.markerOffset are set; t.empty for a marker without data) */
  transactionEnded: (t: StreamedTransaction) => void
}
