// What the replica comparison takes for one copy of a partition: the batches' headers as the log holds
// them, the copy's epoch cache and checkpoints, and the partition analysis' LSO and open transactions.
import type { Finding } from '../findings.js'
import type { OpenTransaction } from '../partition-report.js'
import type { EpochEntry } from './epoch-rule.js'

export interface ReplicaBatch {
  baseOffset: bigint
  lastOffset: bigint
  count: number
  partitionLeaderEpoch: number
  crc: number
  /** the stored CRC-32C matches the bytes; null when the batch was not read whole */
  crcValid: boolean | null
  producerId: bigint
  producerEpoch: number
  baseSequence: number
  isTransactional: boolean
  isControl: boolean
  /** COMMIT, ABORT, ... for control batches whose record could be read */
  marker: string | null
  file: string
  position: number
  size: number
  /** filled in for the batches past the divergence point only: offsets and keys (markers have none) */
  records?: Array<{ offset: bigint, key: string | null }>
}

export interface ReplicaInput {
  /** the broker id (meta.properties node.id), else the log directory's name */
  broker: string
  logDir: string
  topicId: string | null
  /** leader-epoch-checkpoint's entries; null when absent or damaged */
  epochCheckpoint: EpochEntry[] | null
  /** the finding that made the checkpoint unusable, if it was */
  epochCheckpointDamage: Finding | null
  batches: ReplicaBatch[]
  logStartOffset: bigint
  logEndOffset: bigint
  /** replication-offset-checkpoint; null without an entry */
  highWatermark: bigint | null
  lastStableOffset: bigint
  openTransactions: OpenTransaction[]
  /** cleaner-offset-checkpoint: the first offset the log cleaner has not cleaned; null without an entry */
  cleanedTo: bigint | null
}
