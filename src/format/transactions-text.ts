// Text of `tsdump transactions`: each transaction as a block (who, outcome, how it was joined, its
// partitions' runs and markers, its offset commits, the coordinator's records, its findings), then the
// coordinator's newest state of each id. Within 80 columns unless --wide.
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import type { JoinedTransaction, TransactionsResult } from '../analysis/transaction-join/types.js'
import type { Writer } from './writer.js'
import { formatFinding } from './finding-text.js'
import type { Column, TableCell } from './table.js'
import { fitTable, hiddenNote } from './table.js'
import { isoTime } from './timestamp.js'
import { wrapWords } from './wrap.js'

const RUN_COLUMNS: Column[] = [
  { header: 'PARTITION', left: true },
  { header: 'OFFSETS', left: true },
  { header: 'RECORDS', short: 'RECS' },
  { header: 'MARKER', left: true },
  { header: 'MARKER_AT', short: 'AT' },
  { header: 'COORDINATOR_EPOCH', short: 'CE' },
]

const JOINED: Record<JoinedTransaction['joinedBy'], string> = {
  'producer-epoch': 'its producer epoch',
  coordinator: "the coordinator's records",
  'coordinator-timestamps': "the coordinator's record times",
  'marker-timestamps': "the markers' timestamps",
}

/** `text` wrapped under a two-space indent, its continuation lines four */
function hanging (text: string, wide: boolean, first = '  '): string[] {
  return wrapWords(text, '    ', wide ? 10000 : 80).map((l, i) => (i === 0 ? first + l.slice(4) : l))
}

/** 15:36:13.773Z, the date said once in the block's first line */
const clock = (ms: bigint): string => isoTime(ms).slice(11)

function block (t: JoinedTransaction, chalk: ChalkInstance, wide: boolean): string[] {
  const out: string[] = []
  const outcome = t.outcome === 'committed' ? chalk.green(t.outcome) : t.outcome === 'aborted' ? chalk.yellow(t.outcome) : chalk.red(t.outcome)
  const who = t.transactionalId ?? '(transactional id unknown)'
  const rest = `producer ${t.producerId} epoch ${t.producerEpoch}  ${t.transactionVersion ?? 'TV?'}  ${t.outcome}`
  // a long id (Kafka Streams: <application.id>-<uuid>-<thread>) gets its line of its own
  if (wide || who.length + 2 + rest.length <= 80) out.push(`${chalk.bold(who)}  ${rest.replace(t.outcome, outcome)}`)
  else out.push(chalk.bold(who), `  ${rest.replace(t.outcome, outcome)}`)
  const span = t.firstTimestamp === null ? 'no timestamps' : `${isoTime(t.firstTimestamp)}${t.lastTimestamp !== null && t.lastTimestamp !== t.firstTimestamp ? ` .. ${clock(t.lastTimestamp)}` : ''}`
  for (const l of wrapWords(`${span}, joined by ${JOINED[t.joinedBy]}`.replaceAll("the coordinator's", 'the\u00a0coordinator\'s'), '  ')) out.push(l)
  if (t.runs.length > 0) {
    const rows = t.runs.map((r): TableCell[] => [
      { text: `${r.topic}-${r.partition}` },
      { text: r.lastOffset === null ? '-' : r.lastOffset === r.firstOffset ? String(r.firstOffset) : `${r.firstOffset}..${r.lastOffset}` },
      { text: String(r.records) },
      { text: r.marker === null ? 'none (open)' : r.marker.type },
      { text: r.marker === null ? '' : String(r.marker.offset) },
      { text: r.marker?.coordinatorEpoch === null || r.marker === null ? '' : String(r.marker.coordinatorEpoch) },
    ])
    const tbl = fitTable(RUN_COLUMNS, rows, chalk, { wide, width: 78 })
    for (const l of (tbl.text + hiddenNote(tbl.hidden)).split('\n').filter((x) => x !== '')) out.push('  ' + l)
  }
  if (t.offsetCommits.length > 0) {
    const groups = [...new Set(t.offsetCommits.map((c) => c.group))].sort()
    for (const g of groups) {
      const cs = t.offsetCommits.filter((c) => c.group === g).sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition)).map((c) => `${c.topic}-${c.partition}\u00a0->\u00a0${c.offset ?? 'deleted'}`)
      for (const l of hanging(`offsets of group ${g}: ${cs.join(', ')}`, wide)) out.push(l)
    }
  } else if (t.runs.some((r) => r.records > 0)) {
    out.push('  no offset commits in this transaction')
  }
  if (t.episode !== null) {
    const states = t.episode.states.map((s) => `${s.state}\u00a0${clock(s.timestamp)}${s.partitions.length > 0 && s.state !== 'Ongoing' ? `\u00a0(${s.partitions.length}\u00a0partition${s.partitions.length === 1 ? '' : 's'})` : ''}`)
    for (const l of hanging(`coordinator: ${states.join(', ')}`, wide)) out.push(l)
  }
  for (const f of t.findings) for (const l of hanging(`${f.severity} ${f.code}: ${f.message}${f.file !== undefined ? ` (${f.file}, position ${f.position ?? 0})` : ''}`, wide, '  ! ')) out.push(l)
  return out
}

export function printTransactionsText (r: TransactionsResult, out: { stdout: Writer, stderr: Writer }, opts: { colorLevel: 0 | 1 | 2 | 3, wide: boolean }): void {
  const chalk = new Chalk({ level: opts.colorLevel })
  const lines: string[] = []
  const producers = new Set(r.transactions.map((t) => t.producerId)).size
  lines.push(`${r.transactions.length} transaction${r.transactions.length === 1 ? '' : 's'} of ${producers} producer${producers === 1 ? '' : 's'}`)
  const where = r.stateLogs.length > 0
    ? `transactional ids from ${r.stateLogs.map((p) => p.replace(/\/?$/, '')).join(', ')}`
    : `no __transaction_state partition among the paths or in their log directories (${r.lookedIn.join(', ') || 'none'}): transactional ids unknown, runs of one producer epoch joined by their markers' timestamps`
  for (const l of wrapWords(where, '')) lines.push(l)
  for (const t of r.transactions) {
    lines.push('')
    for (const l of block(t, chalk, opts.wide)) lines.push(l)
  }
  if (r.transactionalIds.length > 0) {
    lines.push('', "The coordinator's newest state of each transactional id:")
    const tbl = fitTable([{ header: 'TRANSACTIONAL_ID', left: true }, { header: 'PRODUCER', short: 'PID' }, { header: 'EPOCH' }, { header: 'STATE', left: true },
      { header: 'PARTITIONS', left: true, dropRank: 1 }, { header: 'TIMEOUT_MS', dropRank: 2 }, { header: 'UPDATED (UTC)', left: true, dropRank: 3 }],
    r.transactionalIds.map((s) => [{ text: s.transactionalId }, { text: s.producerId === null ? '' : String(s.producerId) }, { text: s.producerEpoch === null ? '' : String(s.producerEpoch) },
      { text: s.deleted ? 'deleted' : s.state ?? '' }, { text: s.partitions.join(',') }, { text: s.transactionTimeoutMs === null ? '' : String(s.transactionTimeoutMs) },
      { text: s.lastUpdateTimestamp === null ? '' : isoTime(s.lastUpdateTimestamp), short: s.lastUpdateTimestamp === null ? '' : isoTime(s.lastUpdateTimestamp).replace(/\.\d{3}Z$/, 'Z') }]),
    chalk, { wide: opts.wide })
    for (const l of (tbl.text + hiddenNote(tbl.hidden)).split('\n').filter((x) => x !== '')) lines.push(l)
  }
  out.stdout.write(lines.join('\n') + '\n')
  for (const f of r.findings) out.stderr.write(formatFinding(f) + '\n')
}
