// `tsdump lso`: why a partition's last stable offset is behind its high watermark, and how to unblock it.
import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import {
  parseMinutes,
  parseThreads,
  printOf,
  remoteOptionOf,
  NO_RESYNC_FLAGS,
  NO_RESYNC_HELP,
  resyncOf,
  addRemoteOptions,
} from '../options.js'
import { parseInstant } from '../time-option.js'
import { addTopicPartitionOptions, topicPartitionFrom } from '../topic-partition-option.js'

const EXAMPLES = `
Examples:
  $ tsdump lso /var/lib/kafka/data/orders-11-0
  $ tsdump lso --bootstrap-server kafka-1:9092 --max-transaction-timeout 5 /var/lib/kafka/data
  $ tsdump lso --transactional-id tx-rw-1 orders-11-0   # __transaction_state's count: metadata log or directories
  $ tsdump lso --now 2026-11-29T16:00:00Z /backup/kafka-data   # post-mortem: ages as of that time
  $ tsdump lso --topic orders-11 --partition 0 /var/lib/kafka/data   # kafka-transactions.sh filters

For each partition whose LSO < HW, prints the blocking transaction and the kafka-transactions.sh
commands that abort it, then find-hanging's table. As kafka-transactions.sh find-hanging does, an
open transaction is hanging when its last timestamp is more than --max-transaction-timeout before
now (the clock, or --now) and no __transaction_state record given says its coordinator still owns it.
Exit status: 0 nothing hanging, 1 a transaction older than --max-transaction-timeout (or other
findings), 2 usage error or unreadable input.`

function partitionCount(v: string): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer')
  return n
}

interface LsoCliOptions {
  resync?: boolean
  json?: boolean
  color?: boolean
  bootstrapServer: string
  maxTransactionTimeout: number
  transactionalId?: string
  transactionStatePartitions?: number
  now?: number
  wide?: boolean
  threads?: number
  remoteStorage?: string
  topic?: string
  partition?: number
}

// Commands load their implementation on first use: start-up stays small for the command that runs.
export function registerLso(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = addTopicPartitionOptions(program.command('lso'), 'report partitions')
    .description('find the transaction holding back the last stable offset (offline find-hanging)')
    .argument('<path...>', 'partition directories, broker log directories or .log files')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--bootstrap-server <host:port>', 'bootstrap server placed in the suggested commands', 'localhost:9092')
    .option('--max-transaction-timeout <minutes>', 'age above which an open transaction is hanging', parseMinutes, 15)
    .option('--transactional-id <id>', 'also print the __transaction_state partition that coordinates this id')
    .option(
      '--transaction-state-partitions <n>',
      'partition count of __transaction_state (default: from the metadata log, else the directories present)',
      partitionCount,
    )
    .option(
      '--now <time>',
      'measure ages against this time (ISO-8601 with zone, or epoch ms) instead of the clock',
      parseInstant,
    )
    .option('--wide', 'print every table column, even past 80 characters')
    .option(
      '--threads <n>',
      'worker threads, a partition each (default: the available cores, at most 2; 1 = none)',
      parseThreads,
    )
  addRemoteOptions(command)
    .option(NO_RESYNC_FLAGS, NO_RESYNC_HELP)
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], o: LsoCliOptions, cmd: Command) => {
      const only = topicPartitionFrom(o, cmd)
      setExit(
        await (await import('../../commands/lso.js')).runLso(
          {
            paths,
            ...printOf(o),
            bootstrapServer: o.bootstrapServer,
            maxTransactionTimeoutMinutes: o.maxTransactionTimeout,
            ...(o.transactionStatePartitions !== undefined
              ? { transactionStatePartitions: o.transactionStatePartitions }
              : {}),
            ...(o.now !== undefined ? { now: o.now } : {}),
            ...(o.threads !== undefined ? { threads: o.threads } : {}),
            ...remoteOptionOf(o),
            ...(o.transactionalId !== undefined ? { transactionalId: o.transactionalId } : {}),
            ...resyncOf(o),
            ...(only !== undefined ? { only } : {}),
          },
          ctx,
        ),
      )
    })
}
