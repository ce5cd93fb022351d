// `tsdump export`: the records as a Parquet or NDJSON dataset for SQL engines (DuckDB, Spark, Trino).
import { Option } from 'commander'
import type { Command } from 'commander'
import type { CommandContext } from '../../commands/context.js'
import type { RawFilterFlags } from '../options.js'
import { addFilterOptions, asUsageError, FILTER_HELP, filterFromFlags } from '../filter-options.js'

const EXAMPLES = `
Examples:
  $ tsdump export /var/lib/kafka/data -o /tmp/ds
  $ tsdump export --format ndjson orders-11-0 -o /tmp/ds
  $ duckdb -c "select topic, partition, count(*) from '/tmp/ds/**/*.parquet'
      where visibleReadCommitted group by all"

One row per record, control records included (isControl, controlType), with
its batch's fields and what each isolation level makes of it:
visibleReadCommitted, visibleReadUncommitted, transactionOutcome (committed,
aborted, open, none; unknown where damage may hide the marker), and
transactionalId when __transaction_state partitions are among the paths.
Files: DIR/topic=T/partition=P/<segment base offset>.parquet, one per segment
(past 1 Mi rows the next batch starts a file named by its base offset; files
present are replaced). Each partition is read twice: its batch headers first
(a transaction's outcome is written after its records), then its records.
The output directory may not be inside an input.
Exit status: 0 clean, 1 findings in the data, 2 usage error or unreadable input.
${FILTER_HELP}`

// Commands load their implementation on first use: start-up stays small for the command that runs.
export function registerExport(program: Command, ctx: CommandContext, setExit: (code: number) => void): void {
  addFilterOptions(program.command('export'), 'export records')
    .description('write every record as Parquet or NDJSON rows with its batch and visibility, for SQL engines')
    .argument('<path...>', 'partition directories, broker log directories or .log files')
    .requiredOption('-o, --out <dir>', 'the dataset directory (made when missing)')
    .addOption(new Option('--format <format>', 'file format').choices(['parquet', 'ndjson']).default('parquet'))
    .addHelpText('after', EXAMPLES)
    .action(
      async (paths: string[], opts: { out: string; format: 'parquet' | 'ndjson' } & RawFilterFlags, cmd: Command) => {
        // --transactional-id is resolved by the export, from the read that gives the rows' transactional ids
        const filter = await filterFromFlags(opts, paths, cmd, { resolveId: false })
        setExit(
          await asUsageError(cmd, async () =>
            (await import('../../commands/export.js')).runExport(
              { paths, out: opts.out, format: opts.format, ...(filter !== undefined ? { filter } : {}) },
              ctx,
            ),
          ),
        )
      },
    )
}
