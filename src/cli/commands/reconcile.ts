// `tsdump reconcile`: per-partition LEO / HW / LSO and what read_committed and read_uncommitted consumers see.
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import type { RawFilterFlags } from '../options.js'
import { addFilterOptions, asUsageError, FILTER_HELP, filterFromFlags } from '../filter-options.js'
import {
  parseThreads,
  printOf,
  remoteOptionOf,
  NO_RESYNC_FLAGS,
  NO_RESYNC_HELP,
  resyncOf,
  addRemoteOptions,
} from '../options.js'

const EXAMPLES = `
Examples:
  $ tsdump reconcile /var/lib/kafka/data/orders-11-0
  $ tsdump reconcile /var/lib/kafka/data            # every partition of a broker log directory
  $ tsdump reconcile --json orders-11-0 orders-11-1 | jq '.topics'
  $ tsdump reconcile --start-offset 7 --end-offset 15 orders-11-0   # what each level sees of 7..15
  $ tsdump reconcile --transactional-id tx-rw-1 /var/lib/kafka/data/orders-11-0

The high watermark comes from the log directory's replication-offset-checkpoint when present,
else the log end offset (see highWatermarkSource in --json). Only batch headers and control
records are read. Exit status: 0 clean, 1 findings in the data, 2 usage error or unreadable input.
${FILTER_HELP}
  With a filter reconcile still reads every batch header (visibility inside a range depends on
  markers after it and on transactions open before it) and first says what it counted: COMMITTED,
  UNCOMMITTED, ABORTED and PENDING count the records in range (a batch cut by an offset bound counts
  its offsets inside; time bounds count whole batches), each judged by the whole log; LEO, HW, LSO,
  COMMIT/ABORT and OPEN stay the whole partition's. --json adds a "filter" object with the same.`

// Commands load their implementation on first use: start-up stays small for the command that runs.
export function registerReconcile(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = addFilterOptions(program.command('reconcile'), 'count records')
    .description('count records visible to read_committed and read_uncommitted consumers, per partition and topic')
    .argument('<path...>', 'partition directories, broker log directories or .log files')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--wide', 'print every table column, even past 80 characters')
    .option(
      '--threads <n>',
      'worker threads, a partition each (default: the available cores, at most 2; 1 = none)',
      parseThreads,
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
          threads?: number
          remoteStorage?: string
          resync?: boolean
        } & RawFilterFlags,
        cmd: Command,
      ) => {
        // --transactional-id is resolved from the command's own read of the coordinator's records
        const filter = await filterFromFlags(opts, paths, cmd, { resolveId: false })
        const { runReconcile } = await import('../../commands/reconcile.js')
        setExit(
          await asUsageError(cmd, () =>
            runReconcile(
              {
                paths,
                ...printOf(opts),
                ...(filter !== undefined ? { filter } : {}),
                ...(opts.threads !== undefined ? { threads: opts.threads } : {}),
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
