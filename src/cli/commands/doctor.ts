// `tsdump doctor`: every check over a broker's (or several brokers') log directories, ranked by harm, with what to do.
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import { parseMinutes, printOf, remoteOptionOf, addRemoteOptions } from '../options.js'
import { parseInstant } from '../time-option.js'

const EXAMPLES = `
Examples:
  $ tsdump doctor /var/lib/kafka/data
  $ tsdump doctor --now 2026-11-29T16:00:00Z /backup/b1/data /backup/b2/data /backup/b3/data
  $ tsdump doctor --remote-storage /var/lib/kafka/tiered /var/lib/kafka/data
  $ tsdump doctor --json /var/lib/kafka/data | jq '.findings[] | select(.rank <= 2)'

Runs reconcile, lso, transactions and cleanup over the paths; replicas when two or more
brokers' log directories hold the same partitions; remote with --remote-storage. Each
finding is listed once, in the order of harm: 1 data lost or at risk, 2 consumers stuck,
3 damage, 4 cleaner or retention blocked, 5 the rest; within a rank errors first, then
by broker, partition and offset. Each says where, how much where known, the command that
fixes it (lso's kafka-transactions.sh abort commands) or the tsdump command to look deeper.
Exit status: 0 healthy (notes at most), 1 problems found in the data, 2 usage error or
nothing readable.`

interface DoctorCliOptions {
  json?: boolean
  color?: boolean
  wide?: boolean
  now?: number
  maxTransactionTimeout: number
  bootstrapServer?: string
  remoteStorage?: string
}

export function registerDoctor(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = program
    .command('doctor')
    .description("every check over brokers' log directories, ranked by harm, with what to do")
    .argument('<logdir...>', 'broker log directories (one or several brokers), partition directories or .log files')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--wide', 'do not wrap at 80 columns')
    .option(
      '--now <time>',
      'measure ages against this time (ISO-8601 with zone, or epoch ms) instead of the clock',
      parseInstant,
    )
    .option('--max-transaction-timeout <minutes>', 'age above which an open transaction is hanging', parseMinutes, 15)
    .option('--bootstrap-server <host:port>', 'bootstrap server placed in the suggested commands', 'localhost:9092')
  addRemoteOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], o: DoctorCliOptions) => {
      setExit(
        (await import('../../commands/doctor.js')).runDoctor(
          {
            paths,
            ...printOf(o),
            maxTransactionTimeoutMinutes: o.maxTransactionTimeout,
            ...(o.bootstrapServer !== undefined ? { bootstrapServer: o.bootstrapServer } : {}),
            ...(o.now !== undefined ? { now: o.now } : {}),
            ...remoteOptionOf(o),
          },
          ctx,
        ),
      )
    })
}
