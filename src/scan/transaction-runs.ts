// `transactions` on one data partition: its transactional runs (every transaction's data batches up to its
// marker, or still open at the end), each with where its first batch and its marker are, taken as the broker
// model's partition scan goes (scan/broker-model.ts): its analyzer's RunSink hands out each run as its marker ends it,
// the partition's report the ones still open at its end. The partition's analyzer (analysis/partition-analyzer.ts)
// decides what a transaction is; the batch tap only remembers the positions and marker timestamps the analyzer does
// not keep, and only for the producers whose transaction is open.
import type { BatchFacts } from '../analysis/batch-facts.js'
import type { RunSink, StreamedTransaction } from '../analysis/run-sink.js'
import type { PartitionRun } from '../analysis/transaction-join/types.js'
import type { I64 } from '../bytes/int64.js'
import { i64, toBigInt, toI64 } from '../bytes/int64.js'
import { TombstoneMap } from '../bytes/tombstone-map.js'
import type { PartitionDir } from '../io/discover.js'
import type { ScannedPartition } from './partition-scan.js'

export interface Place {
  file: string
  position: number
}

/**
 * Where a run ended by its marker may go as it is, without a PartitionRun made of it (`transactions`' temp files:
 * scan/transaction-buckets.ts writes it as bytes): `file` and `position` are where its first batch is (an empty
 * transaction's: its marker's), `markerFile` and `markerPosition` where its marker batch is. False: it is not taken,
 * and a PartitionRun is made for `put`.
 */
export type RunBytes = (
  topic: string,
  partition: number,
  t: StreamedTransaction,
  file: string,
  position: number,
  markerTimestamp: I64,
  markerFile: string,
  markerPosition: number,
) => boolean

/** a first batch's place as one number: its position and the index of its file among the partition's (FILES of them at most) */
const FILES = 1024 * 1024

/** one partition at a time: `start` when its scan begins, `batch` for each batch, `end` with its scan */
export class TransactionRunTap {
  private topic = ''
  private partition = -1
  private put: (r: PartitionRun) => void = () => {}
  private bytes: RunBytes | null = null
  /**
   * per producer id (as the batch holds it: a number within 2^53) where its open transaction's first batch is, as
   * position * FILES + the index of its file in `files` (no object per transaction)
   */
  private readonly firstBatch = new TombstoneMap<I64, number>()
  /** the partition's segment files met so far */
  private readonly files: string[] = []
  private lastFile = ''
  private lastPosition = 0
  // the last batch's maxTimestamp as it holds it: made a bigint only for a marker (not per batch)
  private lastTimestamp: I64 = -1

  /** the analyzer's sink for partition `dir`; its runs go to `put` as they end (to `bytes` first when given) */
  start(dir: PartitionDir, put: (r: PartitionRun) => void, bytes: RunBytes | null = null): RunSink {
    this.topic = dir.topic ?? dir.path
    this.partition = dir.partition ?? -1
    this.put = put
    this.bytes = bytes
    this.firstBatch.clear()
    this.files.length = 0
    this.lastFile = ''
    this.lastPosition = 0
    this.lastTimestamp = -1
    return this.sink
  }

  /** told every batch before the analyzer is */
  batch(s: BatchFacts): void {
    const file = s.file ?? ''
    if (file !== this.lastFile || this.files.length === 0) {
      this.lastFile = file
      this.files.push(file)
    }
    this.lastPosition = s.position ?? 0
    this.lastTimestamp = s.maxTimestamp
    if (s.isTransactional && !s.isControl) {
      const pid = toI64(s.producerId)
      if (!this.firstBatch.has(pid) && this.files.length <= FILES)
        this.firstBatch.set(pid, this.lastPosition * FILES + this.files.length - 1)
    }
  }

  /** the place firstBatch holds */
  private place(v: number | undefined): Place | null {
    if (v === undefined) return null
    const k = v % FILES
    return { file: this.files[k]!, position: (v - k) / FILES }
  }

  private readonly sink: RunSink = {
    plainBatch: () => {},
    controlBatch: () => {},
    transactionEnded: (t) => {
      const key = toI64(t.producerId)
      const v = t.empty ? undefined : this.firstBatch.get(key)
      this.firstBatch.delete(key)
      if (this.bytes !== null) {
        const k = v === undefined ? 0 : v % FILES
        if (
          this.bytes(
            this.topic,
            this.partition,
            t,
            v === undefined ? this.lastFile : this.files[k]!,
            v === undefined ? this.lastPosition : (v - k) / FILES,
            this.lastTimestamp,
            this.lastFile,
            this.lastPosition,
          )
        )
          return
      }
      const at = this.place(v)
      this.put({
        topic: this.topic,
        partition: this.partition,
        producerId: toBigInt(t.producerId),
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
          timestamp: toBigInt(this.lastTimestamp),
          file: this.lastFile,
          position: this.lastPosition,
        },
        seeded: t.seeded,
        file: at?.file ?? this.lastFile,
        position: at?.position ?? this.lastPosition,
        ...(t.damage !== undefined ? { damage: t.damage } : {}),
      })
    },
  }

  /** the partition's scan is done: its transactions still open */
  end(s: ScannedPartition): void {
    const dir = s.dir
    for (const o of s.report.openTransactions) {
      if (o.state !== 'open') continue // its marker, beyond the high watermark, ended a run above
      const at = this.place(this.firstBatch.get(i64(o.producerId))) ?? {
        file: dir.files.find((f) => f.kind === 'log')?.path ?? dir.path,
        position: 0,
      }
      this.put({
        topic: this.topic,
        partition: this.partition,
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
    this.firstBatch.clear()
    this.files.length = 0
  }
}
