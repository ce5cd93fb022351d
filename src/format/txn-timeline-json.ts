// JSON of `tsdump txns`.
import type { PartitionReport } from '../analysis/partition-report.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { unknownStateFields } from '../analysis/transactional-id-state.js'
import type { Json } from './txn-json.js'
import { jsonInt64, jsonInt64OrNull } from './txn-json.js'

/** a timeline partition's fields before its runs (the runs, lane and findings follow in that order) */
export function timelineHeadJson(r: PartitionReport, path: string): Json {
  return {
    topic: r.topic,
    partition: r.partition,
    path,
    logStartOffset: jsonInt64(r.logStartOffset),
    logEndOffset: jsonInt64(r.logEndOffset),
    highWatermark: jsonInt64(r.highWatermark),
    highWatermarkSource: r.highWatermarkSource,
    lastStableOffset: jsonInt64(r.lastStableOffset),
  }
}

export function transactionalIdJson(s: TransactionalIdState): Json {
  return {
    transactionalId: s.transactionalId,
    offset: jsonInt64(s.offset),
    deleted: s.deleted,
    producerId: jsonInt64OrNull(s.producerId),
    producerEpoch: s.producerEpoch,
    state: s.unknownPast !== undefined ? 'unknown' : s.state,
    transactionTimeoutMs: s.transactionTimeoutMs,
    partitions: s.partitions,
    lastUpdateTimestamp: jsonInt64OrNull(s.lastUpdateTimestamp),
    startTimestamp: jsonInt64OrNull(s.startTimestamp),
    previousProducerId: jsonInt64OrNull(s.previousProducerId),
    nextProducerId: jsonInt64OrNull(s.nextProducerId),
    nextProducerEpoch: s.nextProducerEpoch,
    clientTransactionVersion: s.clientTransactionVersion,
    twoPhaseCommit: s.twoPhaseCommit,
    ...(unknownStateFields(s) as Record<string, Json>),
  }
}
