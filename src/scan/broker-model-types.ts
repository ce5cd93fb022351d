// The broker model's shapes (scan/broker-model.ts): its options, what its scan gives, the coordinator's partitions
// read with it, and the one composition of two taps on a partition's frames.
import type { Finding } from '../analysis/findings.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import type { PartitionDir } from '../io/discover.js'
import type { RemoteInput } from '../io/remote/spec.js'
import type { PartitionScanOptions, ScannedPartition } from './partition-scan.js'
import type { TransactionStateRead } from './transaction-state-read.js'

export interface BrokerModelOptions {
  /** --remote-storage: remote segments read before the local ones */
  remote?: RemoteInput
  /** false: stop at framing damage (--no-resync) */
  resync?: boolean
  /** --transactional-id: its producer ids are taken from the coordinator's records as they are read (watchedId) */
  transactionalId?: string
  /**
   * false: the partition scan leaves the coordinator's records unread (a command that asks nothing of them: reconcile
   * without --transactional-id; decoding them cost it 0.5 s of 1.1 s on bench/make-scale.mjs's 144 MiB dir)
   */
  coordinatorInScan?: boolean
  /**
   * true: the metadata log's records (configs, partition counts, metadata.version) are read in its partition scan's
   * pass, scanned on this thread and, with scanEach's `first`, before the others (a command that asks for them)
   */
  metadataInScan?: boolean
}

/** one __transaction_state partition's coordinator records, and its partition scan when it was among the paths */
export interface CoordinatorPartition {
  dir: PartitionDir
  label: string
  read: TransactionStateRead
  scanned: ScannedPartition | null
}

export interface CoordinatorStates {
  partitions: CoordinatorPartition[]
  /** every partition's states, in partition order */
  states: TransactionalIdState[]
}

/**
 * A scan's hooks: the partition scan's own (without what the model sets), a command's tap on the frames (run after the
 * model's), and `scanned`, told each partition as its scan ends (`transactions` hands out its open runs there)
 */
export type ModelScanOptions = Omit<PartitionScanOptions, 'remote' | 'resync' | 'frames'> & {
  frames?: PartitionScanOptions['frames']
  scanned?: (s: ScannedPartition) => void
}

/** unusable: paths that cannot be used (exit 2); unreadable: partition directories inside them that cannot (exit 1) */
export interface Scanned {
  unusable: Finding[]
  unreadable: Finding[]
  scanned: ScannedPartition[]
}

/** two taps on a partition's frames: `second` reads what `first` passes on */
export function composeFrames(
  first: NonNullable<PartitionScanOptions['frames']>,
  second: NonNullable<PartitionScanOptions['frames']>,
): NonNullable<PartitionScanOptions['frames']> {
  return (dir) => {
    const a = first(dir)
    const b = second(dir)
    if (a === undefined || b === undefined) return a ?? b
    return (frames, src, file) => b(a(frames, src, file), src, file)
  }
}
