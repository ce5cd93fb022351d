// `tsdump export`: every record of the partitions given as a dataset that SQL engines read (Parquet or
// NDJSON), partitioned as topic=T/partition=P/<segment base offset>.<ext>, one file per input segment.
// Each partition is read once, damaged or not (scan/export-read.ts: the partition scan hands out the records as
// it reads them); the rare log that one read cannot answer (export-read.ts says which) is read again in
// export-scan.ts's two passes.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE, finding } from '../analysis/findings.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import type { ExportPartition, RowFile } from '../format/export-rows.js'
import { ndjsonRowFile, parquetRowFile } from '../format/export-rows.js'
import { formatFinding } from '../format/finding-text.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import type { OutputFile } from '../io/export-files.js'
import { openOutputFile, outputInsideInput } from '../io/export-files.js'
import { VERSION } from '../io/package-version.js'
import type { ExportVisitor, RecordsTap } from '../scan/export-scan.js'
import {
  StateRecordIds,
  exportRecords,
  idsFirst,
  resolveIdFilter,
  transactionalIds,
  visibilityFacts,
} from '../scan/export-scan.js'
import { exportInOneRead } from '../scan/export-read.js'
import { resolvePartitions } from '../scan/partition-paths.js'
import type { CommandContext } from './context.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'

export type ExportFormat = 'parquet' | 'ndjson'

const STATE_TOPIC = '__transaction_state'

/**
 * Rows a file holds before the next batch starts another (named by that batch's base offset): a Parquet footer
 * holds every row group's metadata until the file ends (hyparquet-writer keeps it in memory), so a 1 GiB segment
 * of small records (12 M rows) in one file made the peak RSS grow with the segment. 1 Mi rows: about 12 MiB files.
 */
export const FILE_ROWS = 1 << 20

/** exportDataset()'s options (the library) */
export interface ExportOptions {
  /** the dataset's root directory (created when missing; never inside an input) */
  out: string
  /** default parquet */
  format?: ExportFormat
  /** dump's filters: --start-offset/--end-offset, --from-time/--to-time, --producer-id, --transactional-id */
  filter?: RangeSpec
  /** rows a file holds before the next batch starts another (default FILE_ROWS) */
  fileRows?: number
}

export interface ExportedPartition {
  /** `topic-partition` */
  label: string
  /** files written, relative to the output directory */
  files: string[]
  rows: number
  /** rows a read_committed / read_uncommitted consumer receives */
  readCommitted: number
  readUncommitted: number
}

export interface ExportResult {
  partitions: ExportedPartition[]
  /** problems met reading the data (damage, CRC, records not exported) */
  findings: Finding[]
  /** paths that could not be used (nothing was written then) */
  unusable: Finding[]
}

/** `topic=T/partition=P`, the layout Hive, Spark, Trino and DuckDB read as columns */
function partitionDir(dir: PartitionDir): { topic: string; partition: number; rel: string } {
  const topic = dir.topic ?? path.basename(path.resolve(dir.path))
  const partition = dir.partition ?? -1
  return { topic, partition, rel: `topic=${topic}/partition=${partition}` }
}

/** Export the records of every partition under `paths` into `opts.out`. @throws the fs error when an output file cannot be written */
export function exportDataset(paths: string[], given: ExportOptions): ExportResult {
  const { partitions, unusable, unreadable } = resolvePartitions(paths)
  const inside = outputInsideInput(given.out, paths)
  if (inside !== null || unusable.length > 0) {
    // nothing is exported, yet an id with no record is still the command line's usage error, said first
    resolveIdFilter(paths, [], given.filter, idsFirst(given.filter).watch)
    if (unusable.length > 0 && inside === null) return { partitions: [], findings: [], unusable }
    return {
      partitions: [],
      findings: [],
      unusable: [
        finding(
          'UNREADABLE',
          `the output directory ${given.out} is inside the input ${inside}: tsdump never writes where it reads`,
          { file: given.out, position: 0 },
        ),
      ],
    }
  }
  // The __transaction_state partitions first: their one read writes their rows and gives every row's transactional
  // id and --transactional-id's producer ids (whose range holds none of a coordinator's rows: they carry no producer
  // id), so the other partitions' rows know them; each partition keeps its place in the result
  const cps = new Map<string, OffsetCheckpoint | null>()
  const { ids, watch, first } = idsFirst(given.filter)
  const stateFindings: Finding[] = []
  const done = new Map<PartitionDir, Exported>()
  try {
    const state = partitions.filter((p) => p.topic === STATE_TOPIC)
    for (const p of state) {
      const tap = new StateRecordIds(watch)
      const f: Finding[] = []
      const d = exportPartition(p, cps, ids, first === undefined ? given : { ...given, filter: first }, f, tap)
      if (d === null) {
        // not read cleanly: read for its ids as before, exported in its turn below
        transactionalIds([p], stateFindings, watch).forEach((id, pid) => ids.set(pid, id))
        continue
      }
      tap.ids.forEach((id, pid) => ids.set(pid, id))
      stateFindings.push(...tap.findings.listed)
      done.set(p, d)
    }
    const filter = resolveIdFilter(paths, state, given.filter, watch)
    const opts: ExportOptions = filter === undefined ? given : { ...given, filter }
    // a partition directory that could not be read (the others were) is one more finding
    const findings: Finding[] = [...stateFindings, ...unreadable]
    const result: ExportedPartition[] = []
    for (const p of partitions) {
      let d = done.get(p)
      done.delete(p)
      // a __transaction_state partition whose rows wait for every coordinator's ids: they go now, with the final filter
      if (d?.finish !== undefined && !d.finish(opts.filter)) d = undefined
      // a __transaction_state partition not done above was not read cleanly: the two passes
      d ??= exportPartition(p, cps, ids, opts, [], undefined, p.topic === STATE_TOPIC)!
      result.push(d.out)
      findings.push(...d.findings)
    }
    return { partitions: result, findings, unusable }
  } finally {
    // rows that still wait where an error came first (an id with no record): their scratch files go
    for (const d of done.values()) d.drop?.()
  }
}

/** a partition exported, its findings; `finish` when its rows wait for the final filter (OneReadResult) */
interface Exported {
  out: ExportedPartition
  findings: Finding[]
  finish?: (filter: RangeSpec | undefined) => boolean
  drop?: () => void
}

function exportPartition(
  dir: PartitionDir,
  cps: Map<string, OffsetCheckpoint | null>,
  ids: Map<bigint, string>,
  opts: ExportOptions,
  findings: Finding[],
  tap?: RecordsTap,
  twoPasses = false,
): Exported | null {
  const { topic, partition, rel } = partitionDir(dir)
  const p: ExportPartition = { topic, partition, transactionalIds: ids }
  const ext = opts.format === 'ndjson' ? 'ndjson' : 'parquet'
  const out: ExportedPartition = { label: '', files: [], rows: 0, readCommitted: 0, readUncommitted: 0 }
  let file: { rows: RowFile; out: OutputFile; rowCount: number } | null = null
  let segment: KafkaFile | null = null
  let lastBatch = -1
  let filesOfSegment = 0
  const close = (): void => {
    if (file !== null) {
      file.rows.close()
      file.out.close()
      file = null
    }
  }
  const visitor: ExportVisitor = {
    segment: (f) => {
      close()
      segment = f
      lastBatch = -1
      filesOfSegment = 0
    },
    record: (rec, b, vis, controlType) => {
      // a file holds whole batches; past FILE_ROWS the next batch starts a file named by its base offset
      if (b.position !== lastBatch) {
        if (file !== null && file.rowCount >= (opts.fileRows ?? FILE_ROWS)) close()
        lastBatch = b.position
      }
      if (file === null) {
        // opened at its first row: a segment the filter leaves empty gives no file
        const first = filesOfSegment++ === 0 ? (segment?.baseOffset ?? 0n) : b.header.baseOffset
        const name = `${rel}/${String(first).padStart(20, '0')}.${ext}`
        const o = openOutputFile(opts.out, name)
        const sink = (bytes: Uint8Array): void => o.write(bytes)
        file = {
          out: o,
          rows: ext === 'ndjson' ? ndjsonRowFile(p, sink) : parquetRowFile(p, sink, `tsdump ${VERSION}`),
          rowCount: 0,
        }
        out.files.push(name)
      }
      file.rowCount++
      file.rows.add(rec, b, vis, controlType)
      out.rows++
      if (vis.visibleReadCommitted) out.readCommitted++
      if (vis.visibleReadUncommitted) out.readUncommitted++
    },
    // handed out again from its start: its files are written again (the same records make the same names)
    restart: () => {
      close()
      Object.assign(out, { files: [], rows: 0, readCommitted: 0, readUncommitted: 0 })
      segment = null
    },
  }
  const mark = findings.length
  let open = false
  try {
    // one read (scan/export-read.ts), damaged or not; a log it cannot answer (export-read.ts says which) is read
    // again in the two passes, whose files replace the same files (the same records make the same names) and whose
    // findings replace its own
    const once = twoPasses ? null : exportInOneRead(dir, cps, visitor, findings, opts.filter, tap)
    if (once !== null) {
      out.label = once.scanned.label
      const rest = once.finish
      if (rest === undefined) return { out, findings }
      // the output file stays open for the rows that wait
      open = true
      const finish = (filter: RangeSpec | undefined): boolean => {
        try {
          return rest(filter)
        } finally {
          close()
        }
      }
      const drop = (): void => {
        once.drop?.()
        close()
      }
      return { out, findings, finish, drop }
    }
    close()
    if (tap !== undefined) return null
    findings.length = mark
    Object.assign(out, { files: [], rows: 0, readCommitted: 0, readUncommitted: 0 })
    segment = null
    const { facts, scanned } = visibilityFacts(dir, cps)
    out.label = scanned.label
    exportRecords(dir, facts, visitor, findings, opts.filter)
  } finally {
    if (!open) close()
  }
  return { out, findings }
}

export interface ExportCommandOptions extends ExportOptions {
  paths: string[]
}

/**
 * `tsdump export`: the dataset, one line per partition on stdout, findings on stderr.
 * @throws TsdumpError NOT_FOUND for a filter's transactional id with no record, USAGE for crossed bounds
 */
export async function runExport(
  opts: ExportCommandOptions,
  ctx: CommandContext,
  minWorkerBytes?: number,
): Promise<number> {
  let r: ExportResult
  try {
    const { paths, ...o } = opts
    // 16 MiB or more: in a worker thread with a small young generation (workers/export-pool.ts says why)
    const pool = await import('./workers/export-pool.js')
    r =
      pool.logBytes(paths) >= (minWorkerBytes ?? pool.MIN_WORKER_BYTES)
        ? await pool.exportInWorker<ExportResult>({ paths, opts: o })
        : exportDataset(paths, o)
  } catch (e) {
    // a transactional id with no record: the command line's usage error (cli/filter-options.ts asUsageError)
    if (e instanceof TsdumpError || typeof (e as NodeJS.ErrnoException).code !== 'string') throw e
    ctx.stderr.write(`tsdump: error: ${opts.out}: ${describeFsError(e)} [OUTPUT_WRITE_FAILED]\n`)
    return EXIT_USAGE
  }
  if (r.unusable.length > 0) {
    writeUnusable(r.unusable, ctx)
    return EXIT_USAGE
  }
  for (const p of r.partitions) {
    const where =
      p.files.length === 0
        ? 'no rows in range, no file'
        : `${p.files.length} ${p.files.length === 1 ? 'file' : 'files'} in ${path.dirname(p.files[0]!)}/`
    ctx.stdout.write(
      `${p.label}: ${p.rows} rows (read_committed ${p.readCommitted}, read_uncommitted ${p.readUncommitted}), ${where}\n`,
    )
  }
  for (const f of r.findings) ctx.stderr.write(formatFinding(f) + '\n')
  return partitionExitCode(r.unusable, r.findings)
}
