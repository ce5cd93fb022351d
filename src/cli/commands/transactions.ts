// `tsdump transactions`: every transaction as one unit across partitions, offset commits and coordinator.
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import type { RawFilterFlags } from '../options.js'
import {
  parseMinutes,
  printOf,
  remoteOptionOf,
  NO_RESYNC_FLAGS,
  NO_RESYNC_HELP,
  resyncOf,
  addRemoteOptions,
} from '../options.js'
import { parseInstant } from '../time-option.js'
import { addFilterOptions, asUsageError, FILTER_HELP_NO_OFFSETS, filterFromFlags } from '../filter-options.js'
import { addTopicPartitionOptions, topicPartitionFrom } from '../topic-partition-option.js'

const EXAMPLES = `
Examples:
  $ tsdump transactions /var/lib/kafka/data     # a broker's log directory
  $ tsdump transactions orders-11-0 orders-11-2 __consumer_offsets-1 \\
      __transaction_state-2
  $ tsdump transactions --transactional-id tx-rw-1 /var/lib/kafka/data
  $ tsdump transactions --json DIR | jq '.transactions[] | select(.outcome=="open")'

Runs of one producer in several partitions are joined by producer epoch
(transaction version 2: one epoch per transaction); with version 1 through the
coordinator's records in __transaction_state (among the paths or in their log
directories), else by the markers' timestamps. Each transaction says which
(joinedBy); a join that cannot be made exactly is a TXN_JOIN_AMBIGUOUS finding.
${FILTER_HELP_NO_OFFSETS}
  --topic orders-11 --partition 0   the transactions that wrote to orders-11 (its partition 0)`

export function registerTransactions(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = addTopicPartitionOptions(
    addFilterOptions(program.command('transactions'), 'list transactions', { offsets: false }),
    'list transactions',
  )
    .description(
      'every transaction as one unit across the partitions it wrote, with its offset commits and coordinator records',
    )
    .argument('<path...>', 'partition directories, broker log directories or .log files')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--wide', 'print every table column, even past 80 characters')
    .option(
      '--now <time>',
      "measure open transactions' ages against this time (ISO-8601 with zone, or epoch ms) instead of the clock",
      parseInstant,
    )
    .option(
      '--max-transaction-timeout <minutes>',
      'age above which an open transaction is hanging (as lso)',
      parseMinutes,
      15,
    )
  addRemoteOptions(command)
    .option(NO_RESYNC_FLAGS, NO_RESYNC_HELP)
    .addHelpText('after', EXAMPLES)
    .action(
      async (
        paths: string[],
        opts: {
          json?: boolean
          color?: boolean
          wide?: boolean
          remoteStorage?: string
          resync?: boolean
          now?: number
          maxTransactionTimeout: number
          topic?: string
          partition?: number
        } & RawFilterFlags,
        cmd: Command,
      ) => {
        if (opts.startOffset !== undefined || opts.endOffset !== undefined) {
          cmd.error(
            'error: --start-offset / --end-offset are offsets of one partition; transactions takes --from-time/--to-time, --producer-id or --transactional-id',
            { exitCode: 2, code: 'tsdump.filter' },
          )
        }
        const only = topicPartitionFrom(opts, cmd)
        // --transactional-id is resolved from the command's own read of the coordinator's records
        const filter = await filterFromFlags(opts, paths, cmd, { resolveId: false })
        const { runTransactions } = await import('../../commands/transactions.js')
        setExit(
          await asUsageError(cmd, () =>
            runTransactions(
              {
                paths,
                ...printOf(opts),
                maxTransactionTimeoutMinutes: opts.maxTransactionTimeout,
                ...(opts.now !== undefined ? { now: opts.now } : {}),
                ...(filter !== undefined ? { filter } : {}),
                ...(only !== undefined ? { only } : {}),
                ...remoteOptionOf(opts),
                ...resyncOf(opts),
              },
              ctx,
            ),
          ),
        )
      },
    )
}
