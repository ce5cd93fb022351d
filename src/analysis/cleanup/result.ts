// One partition's cleanup picture, as `tsdump cleanup` prints it.
import type { AgeSource } from '../hanging.js'
import type { Finding } from '../findings.js'
import type { ConfigValue } from './configs.js'
import type { CompactionPrediction } from './compaction.js'
import type { RetentionPrediction } from './retention.js'
import type { TieredRetention } from './remote-retention.js'
import type { PartitionTransaction } from '../partition-transaction.js'

/** the open transaction holding a partition's LSO (the one partition-level transaction) with what cleanup adds */
export interface CleanupBlocker extends PartitionTransaction {
  lastTimestamp: bigint | null
  /** the hanging rule's verdict (analysis/hanging.ts), as lso gives it: the age, where it comes from, hanging, overdue */
  ageMs: bigint | null
  ageSource: AgeSource
  hanging: boolean
  overdue: boolean
  /** the coordinator's records that may own it could not be read (TXN_COORDINATOR_UNKNOWN): no abort is advised */
  coordinatorUnknown?: true
  /** the same kafka-transactions.sh abort commands `lso` prints */
  commands: string[]
}

export interface CleanupPartition {
  label: string
  topic: string | null
  partition: number | null
  cleanupPolicy: string
  configs: Record<string, ConfigValue>
  logStartOffset: bigint
  lastStableOffset: bigint
  highWatermark: bigint
  logEndOffset: bigint
  /** null when the policy has no compact */
  compaction: CompactionPrediction | null
  /** null when the policy has no delete, or the topic has remote storage (then tieredRetention) */
  retention: RetentionPrediction | null
  /** a topic with remote storage: what retention deletes locally and remotely (analysis/cleanup/remote-retention.ts) */
  tieredRetention?: TieredRetention
  blockedBy: CleanupBlocker | null
  /** the open transaction holding the LSO, with the hanging rule's verdict (as lso), whether or not it blocks the cleaner */
  openTransaction: CleanupBlocker | null
  findings: Finding[]
}

export interface CleanupResult {
  nowMs: number
  nowGiven: boolean
  /** where the configs came from: the metadata log read, if any */
  metadataLog: string | null
  /** why the metadata log's configs are unknown (records of it could not be read), else absent */
  metadataLost?: string
  partitions: CleanupPartition[]
}
