// JSON of `tsdump txns`.
import type { PartitionReport } from '../analysis/partition-report.js'
import type { TimelineRun } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { inferTransactionVersion } from '../analysis/transactions.js'
import type { Json } from './txn-json.js'
import { findingJson, jsonInt64, jsonInt64OrNull } from './txn-json.js'

export function runJson (r: TimelineRun): Json {
  switch (r.kind) {
    case 'plain':
      return { kind: 'plain', firstOffset: jsonInt64(r.firstOffset), lastOffset: jsonInt64(r.lastOffset), producerId: jsonInt64(r.producerId),
        producerEpoch: r.producerEpoch, transactional: false, records: r.records, batches: r.batches }
    case 'control':
      return { kind: 'control', offset: jsonInt64(r.firstOffset), type: r.typeName, producerId: jsonInt64(r.producerId) }
    case 'transaction': {
      const t = r.txn
      return {
        kind: t.empty ? 'empty-transaction' : 'transaction', firstOffset: jsonInt64(t.firstOffset), lastOffset: jsonInt64OrNull(t.lastDataOffset),
        producerId: jsonInt64(t.producerId), producerEpoch: t.producerEpoch, transactional: true, records: t.records, batches: t.batches,
        outcome: t.outcome, markerOffset: jsonInt64OrNull(t.markerOffset), markerEpoch: t.markerEpoch, coordinatorEpoch: t.coordinatorEpoch,
        firstTimestamp: jsonInt64OrNull(t.firstTimestamp), lastTimestamp: jsonInt64OrNull(t.lastTimestamp), seeded: t.seeded, interleaved: r.interleaved,
        // '2' | '2 or timeout abort' | '0/1' | null (analysis/transactions.ts inferTransactionVersion)
        transactionVersion: inferTransactionVersion(t),
        ...(r.listed !== undefined ? { listed: r.listed } : {}),
      }
    }
  }
}

/** a timeline partition's fields before its runs (the runs, lane and findings follow in that order) */
export function timelineHeadJson (r: PartitionReport, path: string): Json {
  return {
    topic: r.topic, partition: r.partition, path, logStartOffset: jsonInt64(r.logStartOffset), logEndOffset: jsonInt64(r.logEndOffset),
    highWatermark: jsonInt64(r.highWatermark), highWatermarkSource: r.highWatermarkSource, lastStableOffset: jsonInt64(r.lastStableOffset),
  }
}

export function transactionalIdJson (s: TransactionalIdState): Json {
  return {
    transactionalId: s.transactionalId, offset: jsonInt64(s.offset), deleted: s.deleted, producerId: jsonInt64OrNull(s.producerId),
    producerEpoch: s.producerEpoch, state: s.state, transactionTimeoutMs: s.transactionTimeoutMs, partitions: s.partitions,
    lastUpdateTimestamp: jsonInt64OrNull(s.lastUpdateTimestamp), startTimestamp: jsonInt64OrNull(s.startTimestamp),
    previousProducerId: jsonInt64OrNull(s.previousProducerId), nextProducerId: jsonInt64OrNull(s.nextProducerId), nextProducerEpoch: s.nextProducerEpoch,
    clientTransactionVersion: s.clientTransactionVersion, twoPhaseCommit: s.twoPhaseCommit,
  }
}
