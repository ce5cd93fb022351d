// --topic / --partition of lso and transactions (cli/topic-partition-option.ts): which partitions they report.

export interface TopicPartitionFilter {
  topic: string
  partition?: number
}

/** is this partition selected (everything is without a filter) */
export function selectsPartition(
  f: TopicPartitionFilter | undefined,
  topic: string | null,
  partition: number | null,
): boolean {
  return f === undefined || (topic === f.topic && (f.partition === undefined || partition === f.partition))
}
