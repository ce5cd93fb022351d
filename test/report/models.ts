// Hand-made ReportModels for the renderReport unit tests.
import type { PartitionModel, ReportModel, TxnBar } from '../../src/format/report/model.js'

export function txn(o: Partial<TxnBar> & Pick<TxnBar, 'firstOffset' | 'outcome'>): TxnBar {
  const first = Number(o.firstOffset)
  return {
    kind: 'txn',
    producerId: 7,
    producerEpoch: 0,
    lastDataOffset: first + 2,
    records: 3,
    batches: 1,
    firstTimestamp: 1700000000000,
    lastTimestamp: 1700000001000,
    marker:
      o.outcome === 'open'
        ? null
        : {
            offset: first + 3,
            type: o.outcome === 'committed' ? 'COMMIT' : 'ABORT',
            producerEpoch: 0,
            coordinatorEpoch: 0,
          },
    coordinatorEpoch: 0,
    empty: false,
    seeded: false,
    ...o,
  }
}

export function partition(o: Partial<PartitionModel> = {}): PartitionModel {
  return {
    id: 't-0',
    topic: 't',
    partition: 0,
    path: '/data/t-0',
    logStartOffset: 0,
    logEndOffset: 12,
    highWatermark: 12,
    highWatermarkSource: 'checkpoint',
    lastStableOffset: 12,
    readCommitted: 3,
    readUncommitted: 6,
    abortedRecords: 3,
    pendingRecords: 0,
    batches: 4,
    controlBatches: { COMMIT: 1, ABORT: 1 },
    transactions: { committed: 1, aborted: 1, empty: 0, open: 0 },
    items: [
      txn({ firstOffset: 0, outcome: 'committed' }),
      txn({ firstOffset: 4, outcome: 'aborted' }),
      {
        kind: 'plain',
        producerId: -1,
        producerEpoch: -1,
        firstOffset: 8,
        lastOffset: 11,
        records: 4,
        batches: 2,
        firstTimestamp: 1700000002000,
        lastTimestamp: 1700000003000,
      },
    ],
    buckets: null,
    open: [],
    blocking: null,
    ...o,
  }
}

export function model(parts: PartitionModel[] = [partition()]): ReportModel {
  return {
    title: 'test report',
    generator: 'tsdump test',
    inputs: ['/data'],
    partitions: parts,
    findings: [],
    topics: [...new Set(parts.map((p) => p.topic).filter((t): t is string => t !== null))].map((topic) => ({
      topic,
      partitions: parts.filter((p) => p.topic === topic).length,
      readCommitted: 3,
      readUncommitted: 6,
      abortedRecords: 3,
      pendingRecords: 0,
      openTransactions: 0,
    })),
  }
}
