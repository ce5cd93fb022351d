// `tsdump remote` as text: per partition, one table row per remote segment (within 80 columns unless --wide),
// then the findings on stderr in the one finding format.
import { Chalk } from 'chalk'
import type { RemotePartitionInventory, RemoteResult, RemoteSegmentRow } from '../analysis/remote-inventory.js'
import type { Column, TableCell } from './table.js'
import { fitTable } from './table.js'
import { formatFinding } from './finding-text.js'
import { isoTime } from './timestamp.js'
import type { PrinterOutput } from './printer.js'
import type { PrintOptions } from './print-options.js'

const COLUMNS: Column[] = [
  { header: 'START' },
  { header: 'END' },
  { header: 'STATE', left: true },
  { header: 'EPOCHS', left: true, dropRank: 2 },
  { header: 'BYTES' },
  { header: 'STORED' },
  { header: 'BROKER', dropRank: 1 },
  { header: 'EVENT_TIME', short: 'EVENT', left: true, dropRank: 3 },
  { header: 'NOTE', left: true },
]

/** the narrow form of a state (RemoteLogSegmentState) */
const SHORT_STATE: Record<string, string> = {
  COPY_SEGMENT_STARTED: 'copying',
  COPY_SEGMENT_FINISHED: 'copied',
  DELETE_SEGMENT_STARTED: 'deleting',
  DELETE_SEGMENT_FINISHED: 'deleted',
}
/** what is wrong with a segment, in a word (the findings say it in full) */
const NOTE: Record<string, string> = {
  ok: '',
  deleted: '',
  listed: '',
  'copy-unfinished': 'unfinished',
  'delete-unfinished': 'unfinished',
  orphan: 'ORPHAN',
  missing: 'MISSING',
  'size-mismatch': 'SIZE DIFFERS',
  unknown: 'unknown',
}

function cells(r: RemoteSegmentRow, chalk: InstanceType<typeof Chalk>): TableCell[] {
  const bad = r.verdict === 'missing' || r.verdict === 'size-mismatch'
  const style = bad ? chalk.red : NOTE[r.verdict] !== '' ? chalk.yellow : undefined
  const state = r.state ?? 'no metadata'
  const time = r.eventTimestampMs === null ? '-' : isoTime(r.eventTimestampMs)
  return [
    { text: String(r.startOffset) },
    { text: r.endOffset === null ? '-' : String(r.endOffset) },
    { text: state, short: r.state === null ? 'unknown' : (SHORT_STATE[r.state] ?? state) },
    { text: r.leaderEpochs.map((e) => `${e.epoch}@${e.offset}`).join(',') || '-' },
    { text: r.sizeInBytes === null ? '-' : String(r.sizeInBytes) },
    { text: r.storedBytes === null ? '-' : String(r.storedBytes) },
    { text: r.brokerId === null ? '-' : String(r.brokerId) },
    { text: time, short: time.replace(/\.\d{3}Z$/, 'Z') },
    { text: NOTE[r.verdict] ?? r.verdict, ...(style !== undefined ? { style } : {}) },
  ]
}

function heading(p: RemotePartitionInventory): string {
  const id = p.topicId === null ? '' : `  topic id ${p.topicId}`
  const local = p.localStartOffset === null ? '  (no local directory given)' : `  local log from ${p.localStartOffset}`
  return `${p.topic}-${p.partition}${id}${local}`
}

export function printRemoteText(r: RemoteResult, out: PrinterOutput, opts: PrintOptions): void {
  const chalk = new Chalk({ level: opts.colorLevel })
  const wide = opts.wide
  const from =
    r.metadataFrom.length === 0
      ? 'no __remote_log_metadata partition found: the storage listing alone'
      : `metadata from ${r.metadataFrom.length} __remote_log_metadata partition${r.metadataFrom.length === 1 ? '' : 's'}`
  out.stdout.write(`Remote storage ${r.storage}\n${from}\n`)
  // one fit for every partition's table, so that all show the same columns in the same form
  const rows = r.partitions.map((p) => p.segments.map((x) => cells(x, chalk)))
  const fit = fitTable(COLUMNS, rows.flat(), chalk, { wide })
  const keep = COLUMNS.map((c, i) => ({ c, i })).filter(({ c }) => !fit.hidden.includes(c.header))
  const form = (c: Column): Column => (fit.shortened ? { ...c, header: c.short ?? c.header } : c)
  r.partitions.forEach((p, pi) => {
    out.stdout.write(`\n${chalk.bold(heading(p))}\n`)
    if (p.segments.length === 0) {
      out.stdout.write('no remote segments\n')
      return
    }
    const table = rows[pi]!.map((row) =>
      keep.map(({ i }) => (fit.shortened ? { ...row[i]!, text: row[i]!.short ?? row[i]!.text } : row[i]!)),
    )
    out.stdout.write(
      fitTable(
        keep.map(({ c }) => form(c)),
        table,
        chalk,
        { wide: true },
      ).text,
    )
  })
  if (fit.hidden.length > 0)
    out.stdout.write(
      `(--wide shows ${fit.hidden.length} more column${fit.hidden.length === 1 ? '' : 's'}: ${fit.hidden.join(', ')})\n`,
    )
  out.stdout.write("BYTES: size in the metadata; STORED: the .log object's size in the storage\n")
  for (const f of [...r.findings, ...r.partitions.flatMap((p) => p.findings)]) out.stderr.write(formatFinding(f) + '\n')
}
