// Which __transaction_state partition coordinates a transactional id:
// TransactionStateManager.partitionFor = Utils.abs(transactionalId.hashCode) % transactionTopicPartitionCount,
// where Utils.abs(Integer.MIN_VALUE) = 0 (unlike Math.abs) and String.hashCode runs over UTF-16 code units.

/** Java String.hashCode: s[0]*31^(n-1) + ... + s[n-1], in 32-bit two's complement. */
export function javaStringHashCode(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0
  return h
}

/** Kafka's Utils.abs */
export function kafkaAbs(n: number): number {
  return n === -2147483648 ? 0 : Math.abs(n)
}

/** The __transaction_state partition of a transactional id. */
export function transactionStatePartitionFor(transactionalId: string, partitionCount: number): number {
  return kafkaAbs(javaStringHashCode(transactionalId)) % partitionCount
}

/** where a coordinator topic's partition count came from */
export type PartitionCountSource = 'option' | 'metadata' | 'directories'

export interface CoordinatorPartitionCount {
  count: number
  source: PartitionCountSource
  /** directories present give only a lower bound: the broker may not hold every partition */
  atLeast: boolean
  /** in words, for the output: the option, the metadata log's path, or the directories seen */
  from: string
}

/**
 * The partition count of a coordinator topic (__transaction_state: TransactionStateManager.partitionFor;
 * __consumer_offsets: GroupCoordinator's partitionFor, the same rule), which the coordinator's hash is taken
 * modulo: an explicit option first, else the metadata log's PartitionRecords for the topic, else the highest
 * partition directory present + 1 (a lower bound); null when none is known. Never an assumed default: a broker
 * configured with transaction.state.log.num.partitions or offsets.topic.num.partitions other than 50 would
 * be sent to the wrong partition.
 */
export function coordinatorPartitionCount(
  topic: string,
  known: {
    option?: number | undefined
    metadata?: { path: string; count: number } | null
    present?: readonly number[]
  },
): CoordinatorPartitionCount | null {
  if (known.option !== undefined)
    return {
      count: known.option,
      source: 'option',
      atLeast: false,
      from: 'the option given (--transaction-state-partitions)',
    }
  if (known.metadata != null && known.metadata.count > 0) {
    return {
      count: known.metadata.count,
      source: 'metadata',
      atLeast: false,
      from: `the metadata log's PartitionRecords of ${topic} (${known.metadata.path})`,
    }
  }
  const present = known.present ?? []
  if (present.length === 0) return null
  const highest = Math.max(...present)
  return {
    count: highest + 1,
    source: 'directories',
    atLeast: true,
    from: `the ${topic} directories present (highest ${topic}-${highest}; the topic may have more partitions than this broker holds)`,
  }
}
