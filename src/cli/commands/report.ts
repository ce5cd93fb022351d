// `tsdump report`: one self-contained HTML page of the partitions' transactions, LSO and HW.
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import {
  parseMinutes,
  remoteOptionOf,
  NO_RESYNC_FLAGS,
  NO_RESYNC_HELP,
  resyncOf,
  addRemoteOptions,
} from '../options.js'
import { parseInstant } from '../time-option.js'

const EXAMPLES = `
Examples:
  $ tsdump report fixtures/broker/orders/logs/orders-11-* -o orders-11.html
  $ tsdump report /var/lib/kafka/data -o broker.html --bootstrap-server kafka-1:9092
  $ tsdump report orders-11-0 -o - > report.html

The page is one file (inline CSS, JS and SVG; it loads nothing) that works offline from file://.
Per topic: reconcile's table. Per partition: a lane over offsets (switchable to time) with each
transaction as a bar (committed solid, aborted hatched, open dotted), non-transactional runs,
COMMIT/ABORT ticks, the LSO and HW lines and the transaction holding the LSO with its abort command;
then every finding with its file and byte position. Lanes with more runs than can be drawn are
aggregated into offset ranges. Exit status: 0 clean, 1 findings in the data, 2 usage error,
unreadable input or unwritable output.`

interface ReportCliOptions {
  output: string
  bootstrapServer: string
  maxTransactionTimeout: number
  now?: number
  title?: string
  remoteStorage?: string
  resync?: boolean
}

// Commands load their implementation on first use: start-up stays small for the command that runs.
export function registerReport(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = program
    .command('report')
    .description('write one self-contained HTML report: reconcile tables, transaction lanes, LSO/HW, findings')
    .argument('<path...>', 'partition directories, broker log directories or .log files')
    .requiredOption('-o, --output <file>', "the HTML file to write ('-' for stdout)")
    .option('--bootstrap-server <host:port>', 'bootstrap server placed in the abort commands', 'localhost:9092')
    .option('--max-transaction-timeout <minutes>', 'age above which an open transaction is hanging', parseMinutes, 15)
    .option(
      '--now <time>',
      'measure ages against this time (ISO-8601 with zone, or epoch ms) instead of the clock',
      parseInstant,
    )
    .option('--title <text>', 'page title')
  addRemoteOptions(command)
    .option(NO_RESYNC_FLAGS, NO_RESYNC_HELP)
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], o: ReportCliOptions) => {
      setExit(
        await (await import('../../commands/report.js')).runReport(
          {
            paths,
            output: o.output,
            bootstrapServer: o.bootstrapServer,
            maxTransactionTimeoutMinutes: o.maxTransactionTimeout,
            ...(o.now !== undefined ? { now: o.now } : {}),
            generator: `tsdump ${program.version() ?? ''}`,
            ...(o.title !== undefined ? { title: o.title } : {}),
            ...remoteOptionOf(o),
            ...resyncOf(o),
          },
          ctx,
        ),
      )
    })
}
