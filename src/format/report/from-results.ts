// The ReportModel from what the partition analysis computed (reconcile's PartitionReport, lso's blocking
// transaction and abort commands) and each partition's lane (collected while streaming): int64 values
// become JSON-safe numbers or strings here, as in `reconcile --json`. Pure, like renderReport.
import { omittedFindings } from '../../analysis/finding-list.js'
import type { Finding } from '../../analysis/findings.js'
import { ageSourceText } from '../../analysis/hanging.js'
import type { BlockingTransaction } from '../../analysis/lso.js'
import { recordsWaiting } from '../../analysis/lso.js'
import type { OpenTransaction, PartitionReport } from '../../analysis/partition-report.js'
import type { PartitionResult } from '../../analysis/partition-results.js'
import { jsonInt64, jsonInt64OrNull } from '../txn-json.js'
import type {
  BlockingModel,
  Bucket,
  FindingRow,
  Int64,
  LaneItem,
  PartitionModel,
  ReportModel,
  TopicRow,
  TxnBar,
} from './model.js'

/** one partition's lane as the collector hands it over */
export interface CollectedLane {
  /** every item in offset order, or null when aggregated */
  items: LaneItem[] | null
  buckets: Bucket[] | null
  /** an ended transaction among the last ones seen (an `awaiting-high-watermark` one ended, but holds the LSO) */
  recentlyEnded: (producerId: Int64, firstOffset: Int64) => TxnBar | undefined
}

export interface ReportPartition extends PartitionResult {
  blocking: BlockingTransaction | null
  /** kafka-transactions.sh commands that abort the blocking transaction */
  commands: string[]
  /** the hanging rule's findings (TXN_HANGING, TXN_COORDINATOR_OVERDUE), as lso reports them */
  findings: Finding[]
  lane: CollectedLane
}

export interface ReportInput {
  title?: string | undefined
  /** e.g. `tsdump 0.1.0` */
  generator: string
  inputs: string[]
  partitions: ReportPartition[]
}

/** open transactions drawn one by one (an aggregated lane may hold many) */
const MAX_OPEN_DRAWN = 200

function openBar(t: OpenTransaction, lane: CollectedLane): TxnBar {
  const awaiting = t.state === 'awaiting-high-watermark'
  const ended = awaiting ? lane.recentlyEnded(jsonInt64(t.producerId), jsonInt64(t.firstOffset)) : undefined
  if (ended !== undefined) return { ...ended, awaitingHighWatermark: true }
  return {
    kind: 'txn',
    producerId: jsonInt64(t.producerId),
    producerEpoch: t.producerEpoch,
    firstOffset: jsonInt64(t.firstOffset),
    lastDataOffset: jsonInt64OrNull(t.lastDataOffset),
    records: t.records,
    batches: null,
    firstTimestamp: jsonInt64OrNull(t.firstTimestamp),
    lastTimestamp: jsonInt64OrNull(t.lastTimestamp),
    outcome: t.outcome,
    marker: null,
    coordinatorEpoch: t.coordinatorEpoch,
    empty: false,
    seeded: t.seeded,
    ...(awaiting ? { awaitingHighWatermark: true } : {}),
  }
}

function blockingModel(p: ReportPartition): BlockingModel | null {
  const b = p.blocking
  if (b === null) return null
  return {
    producerId: jsonInt64(b.producerId),
    producerEpoch: b.producerEpoch,
    coordinatorEpoch: b.coordinatorEpoch,
    coordinatorEpochSource: b.coordinatorEpochSource,
    firstOffset: jsonInt64(b.firstOffset),
    lastDataOffset: jsonInt64OrNull(b.lastDataOffset),
    records: b.records,
    recordsWaiting: b.recordsWaiting,
    firstTimestamp: jsonInt64OrNull(b.firstTimestamp),
    lastTimestamp: jsonInt64OrNull(b.lastTimestamp),
    ageMs: jsonInt64OrNull(b.ageMs),
    state: b.state,
    ageSource: b.ageSource,
    ageFrom: ageSourceText(b.verdict),
    nowMs: b.nowMs,
    overdue: b.verdict.overdue,
    hanging: b.hanging,
    seeded: b.seeded,
    commands: b.state === 'open' ? p.commands : [],
  }
}

/** one partition's model: its numbers, lane, open transactions and the one blocking the LSO */
export function partitionModel(p: ReportPartition): PartitionModel {
  const r = p.report
  return {
    id: p.label,
    topic: r.topic,
    partition: r.partition,
    path: p.path,
    logStartOffset: jsonInt64(r.logStartOffset),
    logEndOffset: jsonInt64(r.logEndOffset),
    highWatermark: jsonInt64(r.highWatermark),
    highWatermarkSource: r.highWatermarkSource,
    lastStableOffset: jsonInt64(r.lastStableOffset),
    readCommitted: r.readCommitted,
    readUncommitted: r.readUncommitted,
    abortedRecords: r.abortedRecords,
    pendingRecords: r.pendingRecords,
    recordsWaiting: recordsWaiting(r),
    batches: r.batches,
    controlBatches: { ...r.controlBatches },
    transactions: { ...r.transactions },
    items: p.lane.items,
    buckets: p.lane.buckets,
    open: r.openTransactions.slice(0, MAX_OPEN_DRAWN).map((t) => openBar(t, p.lane)),
    blocking: blockingModel(p),
  }
}

function topicRows(reports: readonly PartitionReport[]): TopicRow[] {
  const rows = new Map<string, TopicRow>()
  for (const r of reports) addTopicRow(rows, r)
  return [...rows.values()]
}

/** a partition counted into its topic's row (topics in the order they first come; none for a partition without one) */
export function addTopicRow(rows: Map<string, TopicRow>, r: PartitionReport): void {
  if (r.topic === null) return
  let t = rows.get(r.topic)
  if (t === undefined) {
    t = {
      topic: r.topic,
      partitions: 0,
      readCommitted: 0,
      readUncommitted: 0,
      abortedRecords: 0,
      pendingRecords: 0,
      recordsWaiting: 0,
      openTransactions: 0,
    }
    rows.set(r.topic, t)
  }
  t.partitions++
  t.readCommitted += r.readCommitted
  t.readUncommitted += r.readUncommitted
  t.abortedRecords += r.abortedRecords
  t.pendingRecords += r.pendingRecords
  t.recordsWaiting += recordsWaiting(r)
  t.openTransactions += r.transactions.open
}

/** the page's title when none is given: the first topics (or paths of partitions without one) drawn, in order */
export function defaultTitle(names: readonly string[]): string {
  return `tsdump report: ${names.slice(0, 4).join(', ')}${names.length > 4 ? ` and ${names.length - 4} more` : ''}`
}

/** a partition's findings as the page lists them: reconcile's, the hanging rule's, a row per code only counted */
export function findingRows(p: ReportPartition): FindingRow[] {
  // a row per code the report only counted (analysis/finding-list.ts)
  return [...p.report.findings, ...p.findings, ...omittedFindings(p.report.omittedFindings, p.label)].map((f) => ({
    partition: p.label,
    ...f,
  }))
}

export function reportModel(input: ReportInput): ReportModel {
  const partitions = input.partitions.map(partitionModel)
  return {
    title: input.title ?? defaultTitle([...new Set(partitions.map((p) => p.topic ?? p.path))]),
    generator: input.generator,
    inputs: input.inputs,
    topics: topicRows(input.partitions.map((p) => p.report)),
    partitions,
    findings: input.partitions.flatMap(findingRows),
  }
}
