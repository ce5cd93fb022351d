// `tsdump replicas`: do the copies of each partition on these brokers agree, and if not, from where and what was lost.
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import { printOf } from '../options.js'

const EXAMPLES = `
Examples:
  $ tsdump replicas /backup/broker-1/data /backup/broker-2/data /backup/broker-3/data
  $ tsdump replicas --json b1 b2 b3 | jq '.partitions[] | select(any(.replicas[]; .divergenceOffset != null))'

Each argument is one broker's log directory (a log.dirs entry); the broker is named by meta.properties
(node.id), else by the directory's name. For every partition on two or more of them: the leader (the copy
with the newest leader epoch, then the longest log), and for each other copy the offset where it
diverges from the leader by Kafka's rule (KIP-101/KIP-279: the largest epoch both hold and its end
offset, as a follower truncates), checked batch by batch below it, and the records it holds past that
point. A partition on one broker only is listed, not compared.
Exit status: 0 every copy agrees, 1 a copy diverges (or other findings), 2 a path that is not a broker
log directory, or fewer than two.`

export function registerReplicas(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  program
    .command('replicas')
    .description('compare the copies of each partition across broker log directories (offline replica check)')
    .argument('<logdir...>', 'broker log directories, two or more (one per broker)')
    .option('--json', 'print one JSON object')
    .option('--no-color', 'disable colour')
    .option('--wide', 'do not wrap lines or shorten broker names at 80 columns')
    .addHelpText('after', EXAMPLES)
    .action(async (paths: string[], o: { json?: boolean; color?: boolean; wide?: boolean }) => {
      setExit(await (await import('../../commands/replicas.js')).runReplicas({ paths, ...printOf(o) }, ctx))
    })
}
