// One partition's reconciliation: LEO, HW, LSO, visibility counts, transactions and findings.
import type { Finding } from './findings.js'
import type { Transaction, TxnModel } from './transactions.js'
import { buildTxnModel, openAt } from './transactions.js'
import { checkTxnIndex } from './txn-index-check.js'
import type { HighWatermarkSource, PartitionInput } from './txn-input.js'
import type { VisibilityCounts } from './visibility.js'
import { consumerReadCommitted, countVisibility, lastStableOffset, unstableTransactions } from './visibility.js'

export interface OpenTransaction {
  producerId: bigint
  producerEpoch: number
  firstOffset: bigint
  /** last data offset seen; null when none was (a snapshot-seeded transaction with no data left in the log) */
  lastOffset: bigint | null
  records: number
  firstTimestamp: bigint | null
  lastTimestamp: bigint | null
  coordinatorEpoch: number | null
  /** 'open': no marker yet; 'awaiting-high-watermark': its marker is at or above the HW */
  state: 'open' | 'awaiting-high-watermark'
  /** began before the first scanned offset (from a producer snapshot) */
  seeded: boolean
}

export interface PartitionReport extends VisibilityCounts {
  topic: string | null
  partition: number | null
  logStartOffset: bigint
  logEndOffset: bigint
  highWatermark: bigint
  highWatermarkSource: HighWatermarkSource
  lastStableOffset: bigint
  /** read_committed as a consumer trusting .txnindex would count it; null when no txnindex could be read */
  readCommittedByTxnIndex: number | null
  controlBatches: Record<string, number>
  transactions: { committed: number, aborted: number, empty: number, open: number }
  /** transactions holding the LSO, earliest first */
  openTransactions: OpenTransaction[]
  /** newest batch timestamp in the partition (maxTimestamp), null without batches */
  newestTimestamp: bigint | null
  findings: Finding[]
  model: TxnModel
}

function toOpen (t: Transaction, hw: bigint): OpenTransaction {
  return {
    producerId: t.producerId, producerEpoch: t.producerEpoch, firstOffset: t.firstOffset, lastOffset: t.lastDataOffset,
    records: t.records, firstTimestamp: t.firstTimestamp, lastTimestamp: t.lastTimestamp, coordinatorEpoch: t.coordinatorEpoch,
    state: t.markerOffset !== null && t.markerOffset >= hw ? 'awaiting-high-watermark' : 'open', seeded: t.seeded,
  }
}

function logEnd (input: PartitionInput): bigint {
  const last = input.batches[input.batches.length - 1]
  const afterLast = last === undefined ? input.logStartOffset : last.lastOffset + 1n
  return afterLast > input.lastSegmentBaseOffset ? afterLast : input.lastSegmentBaseOffset
}

/** Snapshots after the first batch describe the producer state at their offset: compare open transactions. */
function checkSnapshots (input: PartitionInput, model: TxnModel, leo: bigint): Finding[] {
  const out: Finding[] = []
  for (const s of input.snapshots) {
    if (s.offset <= model.firstScannedOffset || s.offset > leo) continue
    const ours = new Map(openAt(model, s.offset).map((t) => [t.producerId, t.firstOffset]))
    const theirs = new Map(s.producers.filter((p) => p.currentTxnFirstOffset !== null).map((p) => [p.producerId, p.currentTxnFirstOffset!]))
    const at = s.file !== undefined ? { file: s.file } : {}
    for (const [pid, first] of theirs) {
      const mine = ours.get(pid)
      if (mine !== first) {
        out.push({ severity: 'warning', code: 'SNAPSHOT_TXN_MISMATCH', ...at,
          message: `producer snapshot at ${s.offset} says producer ${pid} has a transaction open since ${first}; the log says ${mine === undefined ? 'none is open' : `it is open since ${mine}`}` })
      }
    }
    for (const [pid, first] of ours) {
      if (!theirs.has(pid)) {
        out.push({ severity: 'warning', code: 'SNAPSHOT_TXN_MISMATCH', ...at,
          message: `the log has producer ${pid}'s transaction open since ${first} at offset ${s.offset}, the producer snapshot there lists none (marker removed by compaction?)` })
      }
    }
  }
  return out
}

/** Reconcile one partition. Pure. */
export function reconcilePartition (input: PartitionInput): PartitionReport {
  const model = buildTxnModel(input.batches, input.snapshots, input.logStartOffset)
  const leo = logEnd(input)
  const findings: Finding[] = [...input.scanFindings, ...model.findings]
  let hw = leo
  let highWatermarkSource: HighWatermarkSource = 'logEndOffset'
  if (input.checkpointHighWatermark !== null) {
    highWatermarkSource = 'checkpoint'
    hw = input.checkpointHighWatermark
    if (hw > leo) {
      findings.push({ severity: 'warning', code: 'HIGH_WATERMARK_BEYOND_LOG_END',
        message: `replication-offset-checkpoint has high watermark ${hw} but the log ends at ${leo} (files copied from a running broker, or truncated?)` })
    }
  }
  const lso = lastStableOffset(model, { logStartOffset: input.logStartOffset, highWatermark: hw })
  const counts = countVisibility(input.batches, model.roles, hw, lso)
  let readCommittedByTxnIndex: number | null = null
  if (input.txnIndexAvailable) {
    findings.push(...checkTxnIndex(model, input.txnIndex, leo))
    readCommittedByTxnIndex = consumerReadCommitted(input.batches, input.txnIndex, lso)
    if (readCommittedByTxnIndex !== counts.readCommitted) {
      findings.push({ severity: 'error', code: 'CONSUMER_VIEW_DIFFERS',
        message: `markers say read_committed consumers should read ${counts.readCommitted} records below the LSO ${lso}; trusting .txnindex as consumers do, they read ${readCommittedByTxnIndex}` })
    }
  }
  findings.push(...checkSnapshots(input, model, leo))
  const tx = { committed: 0, aborted: 0, empty: 0, open: 0 }
  for (const t of model.transactions) {
    if (t.empty) tx.empty++
    else if (t.outcome === 'COMMIT') tx.committed++
    else if (t.outcome === 'ABORT') tx.aborted++
    else tx.open++
  }
  let newestTimestamp: bigint | null = null
  for (const b of input.batches) if (newestTimestamp === null || b.maxTimestamp > newestTimestamp) newestTimestamp = b.maxTimestamp
  return {
    topic: input.topic, partition: input.partition, logStartOffset: input.logStartOffset, logEndOffset: leo,
    highWatermark: hw, highWatermarkSource, lastStableOffset: lso, ...counts, readCommittedByTxnIndex,
    controlBatches: { COMMIT: 0, ABORT: 0, ...model.controlBatches }, transactions: tx,
    openTransactions: unstableTransactions(model, hw).map((t) => toOpen(t, hw)), newestTimestamp, findings, model,
  }
}
