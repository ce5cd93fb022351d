// `tsdump txns`: the transaction timeline of each partition (and transactional ids of __transaction_state).
import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
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
  $ tsdump txns /var/lib/kafka/data/orders-11-0
      OFFSETS  PID/EPOCH  KIND  RECS  OUTCOME    MARKER_AT  CE  FIRST (UTC)
      0..5     4001/0     txn      6  committed  6           0  2026-11-29T15:36:33Z
      7..14    4001/1     txn      8  aborted    15          0  2026-11-29T15:36:35Z
  $ tsdump txns --json orders-11-0
  $ tsdump txns /var/lib/kafka/data/__transaction_state-2   # last state of each transactional id
  $ tsdump txns --transactional-id tx-rw-1 orders-11-0    # only that id's transactions
  $ tsdump txns --from-time 2026-11-29T15:42:00Z --to-time 2026-11-29T15:43:00Z orders-11-0

Lane legend: C committed, A aborted, O open, . plain (non-transactional), | COMMIT/ABORT marker,
+ other control batch (LEADER_CHANGE ...). One character per batch, scaled down for long logs.
${FILTER_HELP}
  With a filter txns lists only the runs of those producers whose offsets (a transaction's from
  its first batch to its marker) overlap the batches in range; each is shown whole. The first line,
  the lane and the findings stay the whole partition's. On a __transaction_state partition
  --transactional-id (or --producer-id) keeps that id's state only.`

function parseWidth(v: string): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 10 || n > 10000)
    throw new InvalidArgumentError('expected an integer between 10 and 10000')
  return n
}

// Commands load their implementation on first use: start-up stays small for the command that runs.
export function registerTxns(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = addFilterOptions(program.command('txns'), 'list transactions')
    .description(
      'show the transaction timeline of partitions: who wrote which offsets, how and where each transaction ended',
    )
    .argument('<path...>', 'partition directories, broker log directories or .log files')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--width <chars>', 'width of the lane picture', parseWidth, 70)
    .option('--wide', 'print every table column, even past 80 characters')
    .option(
      '--threads <n>',
      'threads: N-1 workers scan partitions, this one writes (default 1 = none: see README, Known limits)',
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
          width: number
          wide?: boolean
          threads?: number
          remoteStorage?: string
          resync?: boolean
        } & RawFilterFlags,
        cmd: Command,
      ) => {
        // --transactional-id is resolved from the command's own read of the coordinator's records
        const filter = await filterFromFlags(opts, paths, cmd, { resolveId: false })
        const { runTxns } = await import('../../commands/txns.js')
        setExit(
          await asUsageError(cmd, () =>
            runTxns(
              {
                paths,
                ...printOf(opts),
                width: opts.width,
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
