// kafka-transactions.sh's --topic / --partition (find-hanging's: --partition needs --topic), taken by lso and
// transactions as filters of what they report: the partitions of that topic (that one partition), and the
// transactions that wrote to it. Every path is still read (the coordinator's and offset commits' partitions
// are what the join needs).
import { InvalidArgumentError } from 'commander'
import type { Command } from 'commander'
import type { TopicPartitionFilter } from '../commands/topic-partition-filter.js'

function partitionNumber(v: string): number {
  const n = Number(v)
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n))
    throw new InvalidArgumentError('expected a partition number (0, 1, ...)')
  return n
}

export function addTopicPartitionOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--topic <name>', `${what} of this topic only (kafka-transactions.sh's --topic)`)
    .option('--partition <n>', `${what} of this partition of --topic only`, partitionNumber)
}

/** the filter of --topic/--partition (undefined: none); a usage error for --partition without --topic */
export function topicPartitionFrom(
  f: { topic?: string; partition?: number },
  cmd: Command,
): TopicPartitionFilter | undefined {
  if (f.partition !== undefined && f.topic === undefined)
    cmd.error('error: --partition needs --topic (as kafka-transactions.sh)', { exitCode: 2, code: 'tsdump.filter' })
  if (f.topic === undefined) return undefined
  return f.partition === undefined ? { topic: f.topic } : { topic: f.topic, partition: f.partition }
}
