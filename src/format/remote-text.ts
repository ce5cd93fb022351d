// `tsdump remote` as text: per partition, one table row per remote segment (within 80 columns unless --wide),
// then the findings on stderr in the one finding format.
import { Chalk } from 'chalk'
import type { Finding } from '../analysis/findings.js'
import type { RemotePartitionInventory, RemoteResult, RemoteSegmentRow } from '../analysis/remote-inventory.js'
import type { Column, TableCell } from './table.js'
import { fitColumns, fitTable } from './table.js'
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

/**
 * The text of an inventory whose partitions are joined as they are iterated, twice: once for the one fit of the
 * columns over every partition's rows (their widths only are kept), once to print each partition's table and drop
 * it, so that no partition's rows wait for the last one (they were about 0.9 KiB a segment, all held).
 */
export function printRemoteText(
  r: Omit<RemoteResult, 'partitions'> & { partitions: Iterable<RemotePartitionInventory> },
  out: PrinterOutput,
  opts: PrintOptions,
): void {
  const chalk = new Chalk({ level: opts.colorLevel })
  const wide = opts.wide
  const from =
    r.metadataFrom.length === 0
      ? 'no __remote_log_metadata partition found: the storage listing alone'
      : `metadata from ${r.metadataFrom.length} __remote_log_metadata partition${r.metadataFrom.length === 1 ? '' : 's'}`
  out.stdout.write(`Remote storage ${r.storage}\n${from}\n`)
  // one fit for every partition's table, so that all show the same columns in the same form (table.ts fitTable's
  // widths, gathered partition by partition)
  const fullW = COLUMNS.map((c) => c.header.length)
  const shortW = COLUMNS.map((c) => (c.short ?? c.header).length)
  const filled = COLUMNS.map(() => false)
  for (const p of r.partitions)
    for (const x of p.segments)
      cells(x, chalk).forEach((c, i) => {
        if (c.text.length > fullW[i]!) fullW[i] = c.text.length
        const short = c.short ?? c.text
        if (short.length > shortW[i]!) shortW[i] = short.length
        if (c.text !== '') filled[i] = true
      })
  const fit = fitColumns(COLUMNS, fullW, shortW, filled, { wide })
  const keep = COLUMNS.map((c, i) => ({ c, i })).filter(({ c }) => !fit.hidden.includes(c.header))
  const form = (c: Column): Column => (fit.shortened ? { ...c, header: c.short ?? c.header } : c)
  const findings: Finding[] = [...r.findings]
  for (const p of r.partitions) {
    findings.push(...p.findings)
    out.stdout.write(`\n${chalk.bold(heading(p))}\n`)
    if (p.segments.length === 0) {
      out.stdout.write('no remote segments\n')
      continue
    }
    const table = p.segments.map((x) => {
      const row = cells(x, chalk)
      return keep.map(({ i }) => (fit.shortened ? { ...row[i]!, text: row[i]!.short ?? row[i]!.text } : row[i]!))
    })
    out.stdout.write(
      fitTable(
        keep.map(({ c }) => form(c)),
        table,
        chalk,
        { wide: true },
      ).text,
    )
  }
  if (fit.hidden.length > 0)
    out.stdout.write(
      `(--wide shows ${fit.hidden.length} more column${fit.hidden.length === 1 ? '' : 's'}: ${fit.hidden.join(', ')})\n`,
    )
  out.stdout.write("BYTES: size in the metadata; STORED: the .log object's size in the storage\n")
  for (const f of findings) out.stderr.write(formatFinding(f) + '\n')
}
