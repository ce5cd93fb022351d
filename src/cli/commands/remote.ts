// `tsdump remote`: the remote segments of tiered storage (KIP-405), from __remote_log_metadata and the storage.
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import { remoteOf, printOf, addRemoteOptions } from '../options.js'

const EXAMPLES = `
Examples:
  $ tsdump remote /var/lib/kafka/data --remote-storage /mnt/tiered
  $ tsdump remote /var/lib/kafka/data/orders-0 --remote-storage s3://kafka-tier/prod/

Per partition, each remote segment's state, offsets, leader epochs, size, broker and event time from
__remote_log_metadata (read from the paths or their log directories), joined with the storage listing and the
local log: unfinished uploads and deletes, orphan objects, finished segments missing from storage, and gaps or
overlaps between remote and local offsets.
Exit status: 0 nothing wrong, 1 a finding of severity error (or a warning), 2 usage error or unreadable input.`

export function registerRemote(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  const command = program
    .command('remote')
    .description('list the remote segments of tiered storage and what is wrong with them')
    .argument('<path...>', 'partition directories or broker log directories (with __remote_log_metadata-*)')
  addRemoteOptions(command, {
    storageRequired:
      "the remote storage: a directory (Kafka's LocalTieredStorage layout or Aiven's plugin) or s3://bucket/prefix",
  })
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--wide', 'print every table column, even past 80 characters')
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], o: { remoteStorage: string; json?: boolean; color?: boolean; wide?: boolean }) => {
      setExit(
        await (await import('../../commands/remote.js')).runRemote(
          {
            paths,
            storage: remoteOf(o),
            ...printOf(o),
          },
          ctx,
        ),
      )
    })
}
