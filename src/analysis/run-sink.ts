// A listener for the shape of a partition's history while PartitionAnalyzer streams it, for consumers
// that summarise as they go (`tsdump report` buckets millions of transactions into a bounded picture)
// instead of keeping the run list `txns` keeps. The analyzer calls it next to the timeline recorder's calls;
// it never changes the analysis. (Its own shape, not streaming-txn's Txn: that file imports partition-report.ts.)
import type { I64 } from '../bytes/int64.js'
import type { BatchFacts } from './batch-facts.js'
import type { TransactionFacts } from './partition-transaction.js'

/** A transaction as the analyzer holds it while streaming (I64 fields: numbers where they fit): the working record's facts. */
export type StreamedTransaction = TransactionFacts<I64>

/** Called in log order. The arguments are the analyzer's (or the scan's reused) objects: copy what you keep. */
export interface RunSink {
  /** a non-transactional data batch (legacy entries included) */
  plainBatch: (b: BatchFacts) => void
  /** a control batch that is not a COMMIT/ABORT marker (LEADER_CHANGE, EMPTY, UNREADABLE ...) */
  controlBatch: (b: BatchFacts, typeName: string) => void
  /** a COMMIT/ABORT marker ended `t` (t.marker and t.outcome are set; t.empty for a marker without data) */
  transactionEnded: (t: StreamedTransaction) => void
}

/** one sink telling both (a scan shared by two consumers of its runs: doctor's transactions and report's lanes) */
export function bothSinks(a: RunSink | undefined, b: RunSink | undefined): RunSink | undefined {
  if (a === undefined || b === undefined) return a ?? b
  return {
    plainBatch: (x) => {
      a.plainBatch(x)
      b.plainBatch(x)
    },
    controlBatch: (x, typeName) => {
      a.controlBatch(x, typeName)
      b.controlBatch(x, typeName)
    },
    transactionEnded: (t) => {
      a.transactionEnded(t)
      b.transactionEnded(t)
    },
  }
}
