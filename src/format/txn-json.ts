// JSON shapes of the reconcile / txns / lso commands. int64 values become JSON numbers when they are
// safe integers and strings otherwise, so jq users get numbers for ordinary offsets without losing
// precision on producer ids near 2^63.
import type { Finding } from '../analysis/findings.js'
import { int64 } from './json-int64.js'
import type { OpenTransaction, PartitionReport } from '../analysis/partition-report.js'
import type { PartitionTransaction } from '../analysis/partition-transaction.js'

/**
 * The JSON of reconcile, txns, lso and transactions (schema 2: one naming of a partition-level transaction, the
 * PartitionTransaction's: `lastDataOffset`, `marker` {offset, type}, `outcome` committed|aborted|open|unknown).
 * dump, cleanup, replicas and remote keep schema 1 (format/dump-json.ts JSON_SCHEMA_VERSION): their fields did not change.
 */
export const TRANSACTION_SCHEMA_VERSION = 2

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

/** bigint → number when within ±Number.MAX_SAFE_INTEGER, else its decimal string (the one rule, json-int64.ts) */
export const jsonInt64: (v: bigint) => number | string = int64

export function jsonInt64OrNull(v: bigint | null): number | string | null {
  return v === null ? null : jsonInt64(v)
}

export function findingJson(f: Finding): Json {
  return {
    severity: f.severity,
    code: f.code,
    ...(f.file !== undefined ? { file: f.file } : {}),
    ...(f.position !== undefined ? { position: f.position } : {}),
    ...(f.partition !== undefined ? { partition: f.partition } : {}),
    ...(f.firstOffset !== undefined ? { firstOffset: jsonInt64(f.firstOffset) } : {}),
    ...(f.lastOffset !== undefined ? { lastOffset: jsonInt64(f.lastOffset) } : {}),
    message: f.message,
  }
}

/** a partition-level transaction's own fields, named as in every command's JSON (Kafka's CompletedTxn calls the marker's offset its lastOffset: hence lastDataOffset) */
export function partitionTransactionJson(t: PartitionTransaction): { [k: string]: Json } {
  return {
    producerId: jsonInt64(t.producerId),
    producerEpoch: t.producerEpoch,
    firstOffset: jsonInt64(t.firstOffset),
    lastDataOffset: jsonInt64OrNull(t.lastDataOffset),
    records: t.records,
    outcome: t.outcome,
    marker: t.marker === null ? null : { offset: jsonInt64(t.marker.offset), type: t.marker.type },
    ...(t.damage !== undefined ? { damage: { file: t.damage.file, position: t.damage.position } } : {}),
  }
}

export function openTxnJson(t: OpenTransaction): Json {
  return {
    ...partitionTransactionJson(t),
    firstTimestamp: jsonInt64OrNull(t.firstTimestamp),
    lastTimestamp: jsonInt64OrNull(t.lastTimestamp),
    coordinatorEpoch: t.coordinatorEpoch,
    state: t.state,
    seeded: t.seeded,
  }
}

export function partitionReportJson(r: PartitionReport, path: string): Json {
  return {
    topic: r.topic,
    partition: r.partition,
    path,
    logStartOffset: jsonInt64(r.logStartOffset),
    logEndOffset: jsonInt64(r.logEndOffset),
    highWatermark: jsonInt64(r.highWatermark),
    highWatermarkSource: r.highWatermarkSource,
    lastStableOffset: jsonInt64(r.lastStableOffset),
    readCommitted: r.readCommitted,
    readUncommitted: r.readUncommitted,
    abortedRecords: r.abortedRecords,
    pendingRecords: r.pendingRecords,
    readCommittedByTxnIndex: r.readCommittedByTxnIndex,
    controlBatches: { ...r.controlBatches },
    transactions: { ...r.transactions },
    openTransactions: r.openTransactions.map(openTxnJson),
    findings: r.findings.map(findingJson),
    omittedFindings: { ...r.omittedFindings },
  }
}

export interface TopicTotal {
  topic: string
  partitions: number
  readCommitted: number
  readUncommitted: number
}

export function topicTotals(reports: readonly PartitionReport[]): TopicTotal[] {
  const m = new Map<string, TopicTotal>()
  for (const r of reports) addTopicTotal(m, r)
  return [...m.values()]
}

/** a partition counted into its topic's total (topics in the order they first come) */
export function addTopicTotal(totals: Map<string, TopicTotal>, r: PartitionReport): void {
  if (r.topic === null) return
  const t = totals.get(r.topic) ?? { topic: r.topic, partitions: 0, readCommitted: 0, readUncommitted: 0 }
  t.partitions++
  t.readCommitted += r.readCommitted
  t.readUncommitted += r.readUncommitted
  totals.set(r.topic, t)
}

export function reconcileJson(reports: ReadonlyArray<{ report: PartitionReport; path: string }>): Json {
  return {
    partitions: reports.map((x) => partitionReportJson(x.report, x.path)),
    topics: topicTotals(reports.map((x) => x.report)).map((t) => ({ ...t })),
  }
}
