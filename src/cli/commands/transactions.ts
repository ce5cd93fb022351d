// `tsdump transactions`: every transaction as one unit across partitions, offset commits and coordinator.
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import type { RawFilterFlags } from '../options.js'
import { REMOTE_KEY_FLAGS, REMOTE_KEY_HELP, REMOTE_LAYOUT_FLAGS, REMOTE_LAYOUT_HELP, REMOTE_PREFIX_FLAGS, REMOTE_PREFIX_HELP, REMOTE_STORAGE_FLAGS, REMOTE_STORAGE_HELP, parseRemoteLayout, remoteOf, NO_RESYNC_FLAGS, NO_RESYNC_HELP, resyncOf } from '../options.js'
import { addFilterOptions, FILTER_HELP, filterFromFlags } from '../filter-options.js'

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
${FILTER_HELP}
  --start-offset / --end-offset are offsets of one partition: not taken here.`

export function registerTransactions (program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  addFilterOptions(program.command('transactions'), 'list transactions')
    .description('every transaction as one unit across the partitions it wrote, with its offset commits and coordinator records')
    .argument('<path...>', 'partition directories, broker log directories or .log files')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--wide', 'print every table column, even past 80 characters')
    .option(REMOTE_STORAGE_FLAGS, REMOTE_STORAGE_HELP)
    .option(REMOTE_LAYOUT_FLAGS, REMOTE_LAYOUT_HELP, parseRemoteLayout).option(REMOTE_PREFIX_FLAGS, REMOTE_PREFIX_HELP).option(REMOTE_KEY_FLAGS, REMOTE_KEY_HELP)
    .option(NO_RESYNC_FLAGS, NO_RESYNC_HELP)
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], opts: { json?: boolean, color?: boolean, wide?: boolean, remoteStorage?: string, resync?: boolean } & RawFilterFlags, cmd: Command) => {
      if (opts.startOffset !== undefined || opts.endOffset !== undefined) {
        cmd.error('error: --start-offset / --end-offset are offsets of one partition; transactions takes --from-time/--to-time, --producer-id or --transactional-id', { exitCode: 2, code: 'tsdump.filter' })
      }
      const filter = await filterFromFlags(opts, paths, cmd)
      setExit((await import('../../commands/transactions.js')).runTransactions({ paths, format: opts.json === true ? 'json' : 'text', color: opts.color !== false,
        wide: opts.wide === true, ...(filter !== undefined ? { filter } : {}), ...(opts.remoteStorage !== undefined ? { remote: remoteOf(opts) } : {}), ...resyncOf(opts) }, ctx))
    })
}
