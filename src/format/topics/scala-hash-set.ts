// Iteration order of Scala 2.13's mutable.HashSet[TopicPartition], which Kafka 3.9/4.0's transaction-log
// text prints (TransactionMetadata.topicPartitions).

/** Java TopicPartition.hashCode */
function topicPartitionHash(topic: string, partition: number): number {
  let h = 0
  for (let i = 0; i < topic.length; i++) h = (Math.imul(h, 31) + topic.charCodeAt(i)) | 0
  return (Math.imul(31, 31 + partition) + h) | 0
}

/**
 * Iteration order of a Scala 2.13 mutable.HashSet[TopicPartition] (what 3.9's formatter prints):
 * buckets by improveHash(h) & (len - 1), ascending hash inside a bucket, table length 16 doubled
 * whenever size + 1 reaches 0.75 × length.
 */
export function scalaHashSetOrder(
  tps: ReadonlyArray<{ topic: string; partition: number }>,
): Array<{ topic: string; partition: number }> {
  const uniq = new Map<string, { topic: string; partition: number; hash: number }>()
  for (const tp of tps) {
    const h = topicPartitionHash(tp.topic, tp.partition)
    uniq.set(`${tp.topic}\u0000${tp.partition}`, { ...tp, hash: h ^ (h >>> 16) })
  }
  let len = 16
  while (uniq.size >= len * 0.75) len *= 2
  const items = [...uniq.values()]
  items.sort((a, b) => (a.hash & (len - 1)) - (b.hash & (len - 1)) || a.hash - b.hash)
  return items.map(({ topic, partition }) => ({ topic, partition }))
}
