// What the replica comparison takes for one copy of a partition: the batches' headers as the log holds
// them (as its walk hands them over, lockstep.ts), the copy's epoch cache and checkpoints, and the partition
// analysis' LSO and open transactions.
import type { Finding } from '../findings.js'
import type { OpenTransaction } from '../partition-report.js'
import type { EpochEntry, EpochList } from './epoch-rule.js'

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
  records?: Array<{ offset: bigint; key: string | null }>
}

export interface ReplicaInput {
  /** the broker id (meta.properties node.id), else the log directory's name */
  broker: string
  logDir: string
  topicId: string | null
  /** leader-epoch-checkpoint's entries; null when absent or damaged */
  epochCheckpoint: EpochList | null
  /** the finding that made the checkpoint unusable, if it was */
  epochCheckpointDamage: Finding | null
  /** the cache Kafka would build from the batches' own epochs (cacheFromBatches), used without a checkpoint */
  batchEpochs: EpochEntry[]
  logStartOffset: bigint
  logEndOffset: bigint
  /** replication-offset-checkpoint; null without an entry */
  highWatermark: bigint | null
  lastStableOffset: bigint
  openTransactions: OpenTransaction[]
  /** cleaner-offset-checkpoint: the first offset the log cleaner has not cleaned; null without an entry */
  cleanedTo: bigint | null
}

/** Two copies' records below a compacted partition's cleaned point, compared by offset, key and value digest. */
export interface RecordsCompared {
  /** offsets held by both */
  compared: number
  /** batches left out (too large to read whole, or damaged) */
  unread: number
  /** the first offset whose key or value differs */
  first: { offset: bigint; mine: { key: string; value: string }; theirs: { key: string; value: string } } | null
}
