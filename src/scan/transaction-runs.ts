// `transactions` on one data partition: its transactional runs (every transaction's data batches up to its
// marker, or still open at the end), each with where its first batch and its marker are. The partition's
// analyzer (analysis/partition-analyzer.ts) decides what a transaction is; the batch tap only remembers
// the positions and marker timestamps the analyzer does not keep.
import type { BatchFacts } from '../analysis/batch-facts.js'
import type { Finding } from '../analysis/findings.js'
import type { PartitionRun } from '../analysis/transaction-join/types.js'
import { toBigInt } from '../bytes/int64.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { scanPartition } from './partition-scan.js'

interface Place {
  file: string
  position: number
}

/** `onRun`: each run handed out as it ends (open ones at the end) and not kept; without it they are returned */
export function scanTransactionRuns(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
  resync = true,
  onRun?: (r: PartitionRun) => void,
): { label: string; runs: PartitionRun[]; findings: readonly Finding[]; logStartOffset: bigint; logEndOffset: bigint } {
  const topic = dir.topic ?? dir.path
  const partition = dir.partition ?? -1
  const runs: PartitionRun[] = []
  const put =
    onRun ??
    ((r: PartitionRun): void => {
      runs.push(r)
    })
  const firstBatch = new Map<bigint, Place>()
  let last: Place & { timestamp: bigint } = { file: '', position: 0, timestamp: -1n }
  const tap = (s: BatchFacts): void => {
    last = { file: s.file ?? '', position: s.position ?? 0, timestamp: toBigInt(s.maxTimestamp) }
    if (s.isTransactional && !s.isControl) {
      const pid = toBigInt(s.producerId)
      if (!firstBatch.has(pid)) firstBatch.set(pid, { file: last.file, position: last.position })
    }
  }
  const s = scanPartition(dir, checkpoints, {
    ...(resync ? {} : { resync: false }),
    batch: tap,
    analyzer: () => ({
      markerEpochs: false,
      sink: {
        plainBatch: () => {},
        controlBatch: () => {},
        transactionEnded: (t) => {
          const pid = toBigInt(t.producerId)
          const at = t.empty ? last : (firstBatch.get(pid) ?? last)
          firstBatch.delete(pid)
          put({
            topic,
            partition,
            producerId: pid,
            producerEpoch: t.producerEpoch,
            firstOffset: toBigInt(t.firstOffset),
            lastDataOffset: t.lastDataOffset === null ? null : toBigInt(t.lastDataOffset),
            records: t.records,
            outcome: t.outcome,
            firstTimestamp: t.firstTimestamp === null ? null : toBigInt(t.firstTimestamp),
            lastTimestamp: t.lastTimestamp === null ? null : toBigInt(t.lastTimestamp),
            marker: {
              offset: toBigInt(t.marker!.offset),
              type: t.marker!.type,
              coordinatorEpoch: t.coordinatorEpoch,
              epoch: t.markerEpoch ?? t.producerEpoch,
              timestamp: last.timestamp,
              file: last.file,
              position: last.position,
            },
            seeded: t.seeded,
            file: at.file,
            position: at.position,
            ...(t.damage !== undefined ? { damage: t.damage } : {}),
          })
        },
      },
    }),
  })
  for (const o of s.report.openTransactions) {
    if (o.state !== 'open') continue // its marker, beyond the high watermark, ended a run above
    const at = firstBatch.get(o.producerId) ?? {
      file: dir.files.find((f) => f.kind === 'log')?.path ?? dir.path,
      position: 0,
    }
    put({
      topic,
      partition,
      producerId: o.producerId,
      producerEpoch: o.producerEpoch,
      firstOffset: o.firstOffset,
      lastDataOffset: o.lastDataOffset,
      records: o.records,
      outcome: o.outcome,
      firstTimestamp: o.firstTimestamp,
      lastTimestamp: o.lastTimestamp,
      marker: null,
      seeded: o.seeded,
      file: at.file,
      position: at.position,
      ...(o.damage !== undefined ? { damage: o.damage } : {}),
    })
  }
  return {
    label: s.label,
    runs,
    findings: s.report.findings,
    logStartOffset: s.report.logStartOffset,
    logEndOffset: s.report.logEndOffset,
  }
}
