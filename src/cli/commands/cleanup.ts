// `tsdump cleanup`: what the log cleaner and retention will do next, and what holds them back.
import type { Command } from 'commander'
import { InvalidArgumentError } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import { parseInstant } from '../time-option.js'
import { checkConfigFlag } from '../../analysis/cleanup/config-flags.js'
import { NO_RESYNC_FLAGS, NO_RESYNC_HELP, resyncOf } from '../options.js'
import { printOf, remoteOptionOf, addRemoteOptions } from '../options.js'
import { parseMinutes } from '../options.js'

const EXAMPLES = `
Examples:
  $ tsdump cleanup /var/lib/kafka/data
  $ tsdump cleanup --now 2026-12-01T23:42:01Z --json /backup/kafka-data
  $ tsdump cleanup --config log.cleaner.min.cleanable.ratio=0.1 orders-0
  $ tsdump cleanup --remote-storage /var/lib/kafka/tiered /var/lib/kafka/data

Configs come from the KRaft metadata log (__cluster_metadata-0 among the paths or in their log
directory: topic configs, then the cluster-wide broker default), else --config (topic or broker
names, e.g. what server.properties sets), else Kafka's default. A topic with remote storage:
local.retention.ms/bytes delete copied local segments, retention.ms/bytes remote ones.
Exit status: 0 nothing wrong, 1 findings in the data, 2 usage error or unreadable input.`

function collectConfig(v: string, prev: Map<string, string>): Map<string, string> {
  const i = v.indexOf('=')
  if (i <= 0) throw new InvalidArgumentError(`'${v}' is not key=value`)
  const problem = checkConfigFlag(v.slice(0, i).trim(), v.slice(i + 1).trim())
  if (problem !== null) throw new InvalidArgumentError(problem)
  return new Map(prev).set(v.slice(0, i).trim(), v.slice(i + 1).trim())
}

function positive(v: string): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('expected a positive integer')
  return n
}

interface CleanupCliOptions {
  json?: boolean
  color?: boolean
  wide?: boolean
  now?: number
  maxTransactionTimeout: number
  config: Map<string, string>
  bootstrapServer: string
  top?: number
  resync?: boolean
  remoteStorage?: string
}

export function registerCleanup(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = program
    .command('cleanup')
    .description('predict what the log cleaner and retention will do, and what holds them back')
    .argument('<path...>', 'partition directories or broker log directories')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--wide', 'do not wrap lines at 80 columns')
    .option(
      '--now <time>',
      'apply the rules as of this time (ISO-8601 with zone, or epoch ms) instead of the clock',
      parseInstant,
    )
    .option(
      '--max-transaction-timeout <minutes>',
      'age above which an open transaction is hanging (as lso)',
      parseMinutes,
      15,
    )
    .option(
      '--config <key=value>',
      'a topic or broker config the metadata log does not give (repeatable)',
      collectConfig,
      new Map<string, string>(),
    )
    .option('--bootstrap-server <host:port>', 'bootstrap server placed in the suggested commands', 'localhost:9092')
    .option('--top <n>', 'list the n keys with most records in the dirty section', positive)
    .option(NO_RESYNC_FLAGS, NO_RESYNC_HELP)
  addRemoteOptions(command)
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], o: CleanupCliOptions) => {
      setExit(
        (await import('../../commands/cleanup.js')).runCleanup(
          {
            paths,
            ...printOf(o),
            configs: o.config,
            bootstrapServer: o.bootstrapServer,
            maxTransactionTimeoutMinutes: o.maxTransactionTimeout,
            ...(o.now !== undefined ? { now: o.now } : {}),
            ...(o.top !== undefined ? { top: o.top } : {}),
            ...remoteOptionOf(o),
            ...resyncOf(o),
          },
          ctx,
        ),
      )
    })
}
