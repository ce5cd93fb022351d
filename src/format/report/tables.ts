// The report's tables: per-topic reconcile tables (the numbers the lanes draw), the blocking
// transaction with its abort commands, each lane's text alternative and the findings.
import { isoTime } from '../timestamp.js'
import { attrs, esc } from './escape.js'
import type { FindingRow, Int64, PartitionModel, TopicRow } from './model.js'
import { bucketTitle, plainTitle, txnTitle } from './lane-svg.js'

function row(cells: ReadonlyArray<string | number | null>, left = 1, rowAttrs = ''): string {
  return (
    `<tr${rowAttrs}>` +
    cells.map((c, i) => `<td${i < left ? ' class="l"' : ''}>${esc(c ?? '-')}</td>`).join('') +
    '</tr>'
  )
}

function head(cols: readonly string[], left = 1): string {
  return (
    '<thead><tr>' +
    cols.map((c, i) => `<th${i < left ? ' class="l"' : ''} scope="col">${esc(c)}</th>`).join('') +
    '</tr></thead>'
  )
}

const PARTITION_COLS = [
  'partition',
  'LEO',
  'HW',
  'LSO',
  'read_committed',
  'read_uncommitted',
  'aborted',
  'waiting',
  'COMMIT',
  'ABORT',
  'open txns',
]

/** reconcile's table for the partitions of one topic, with the topic's totals */
export function reconcileTable(parts: readonly PartitionModel[], total: TopicRow | null): string {
  return reconcileTableHead() + parts.map(reconcileRow).join('') + reconcileTableTail(total)
}

export function reconcileTableHead(): string {
  return `<table class="reconcile">${head(PARTITION_COLS)}<tbody>`
}

/** one partition's row of its topic's reconcile table */
export function reconcileRow(p: PartitionModel): string {
  return row([
    p.id,
    p.logEndOffset,
    p.highWatermark,
    p.lastStableOffset,
    p.readCommitted,
    p.readUncommitted,
    p.abortedRecords,
    p.recordsWaiting,
    p.controlBatches.COMMIT ?? 0,
    p.controlBatches.ABORT ?? 0,
    p.transactions.open,
  ])
}

/** the topic's totals, and the table's end */
export function reconcileTableTail(total: TopicRow | null): string {
  if (total === null) return '</tbody></table>'
  return (
    `<tr class="total"${attrs({ 'data-topic': total.topic, 'data-read-committed': total.readCommitted, 'data-read-uncommitted': total.readUncommitted })}>` +
    `<td class="l">${esc(total.topic)} (${total.partitions} partition${total.partitions === 1 ? '' : 's'})</td><td></td><td></td><td></td><td>${total.readCommitted}</td><td>${total.readUncommitted}</td>` +
    `<td>${total.abortedRecords}</td><td>${total.recordsWaiting}</td><td></td><td></td><td>${total.openTransactions}</td></tr></tbody></table>`
  )
}

export function topicsTable(topics: readonly TopicRow[]): string {
  const body = topics
    .map((t) =>
      row(
        [
          t.topic,
          t.partitions,
          t.readCommitted,
          t.readUncommitted,
          t.abortedRecords,
          t.recordsWaiting,
          t.openTransactions,
        ],
        1,
        attrs({
          'data-topic': t.topic,
          'data-read-committed': t.readCommitted,
          'data-read-uncommitted': t.readUncommitted,
        }),
      ),
    )
    .join('')
  return `<table class="topics">${head(['topic', 'partitions', 'read_committed', 'read_uncommitted', 'aborted', 'waiting', 'open txns'])}<tbody>${body}</tbody></table>`
}

function ts(v: Int64 | null): string {
  return v === null ? 'unknown' : `${v} (${isoTime(Number(v))})`
}

/** the transaction holding the LSO, highlighted, with the commands that end it */
export function blockingCallout(p: PartitionModel): string {
  const b = p.blocking
  if (b === null)
    return `<p class="ok">LSO ${esc(p.lastStableOffset)} = HW ${esc(p.highWatermark)}: nothing is blocked.</p>`
  const age =
    b.ageMs === null ? 'unknown' : `${(Number(b.ageMs) / 60000).toFixed(1)} min at ${isoTime(b.nowMs)}, ${b.ageFrom}`
  const verdict =
    b.state === 'awaiting-high-watermark'
      ? 'ended; its marker is not below the high watermark yet'
      : b.hanging
        ? 'HANGING (older than the transaction timeout)'
        : b.overdue
          ? "open; its coordinator's abort deadline passed long ago: the coordinator is not aborting it"
          : 'open'
  const cmds =
    b.commands.length === 0 ? '' : `<p>To abort it:</p><pre>${b.commands.map((c) => esc(c)).join('\n')}</pre>`
  return (
    `<div${attrs({ class: `blocked${b.hanging || b.overdue ? ' hanging' : ''}`, role: 'note', 'data-blocking-producer-id': b.producerId, 'data-blocking-first-offset': b.firstOffset })}>` +
    `<strong>LSO ${esc(p.lastStableOffset)} &lt; HW ${esc(p.highWatermark)}: ${b.recordsWaiting} records wait behind a transaction (${esc(verdict)}).</strong><br>` +
    `Blocking transaction: producerId <code>${esc(b.producerId)}</code> producerEpoch <code>${b.producerEpoch}</code> coordinatorEpoch ` +
    `<code>${esc(b.coordinatorEpoch ?? 'unknown')}</code> (${esc(b.coordinatorEpochSource)}), first offset <code>${esc(b.firstOffset)}</code>` +
    `${b.seeded ? ' (before the log start, from a producer snapshot)' : ''}, last data offset <code>${esc(b.lastDataOffset ?? 'unknown')}</code>, ${b.records} record${b.records === 1 ? '' : 's'}; ` +
    `first timestamp ${esc(ts(b.firstTimestamp))}, last timestamp ${esc(ts(b.lastTimestamp))}; age ${esc(age)}.${cmds}</div>`
  )
}

/** the lane as a table (text alternative), in drawing order */
export function laneTable(p: PartitionModel): string {
  const rows: string[] = []
  if (p.buckets !== null) {
    for (const b of p.buckets) rows.push(row([`${b.firstOffset}..${b.lastOffset}`, bucketTitle(b)]))
  } else {
    for (const it of p.items ?? []) {
      if (it.kind === 'txn') rows.push(row([`${it.firstOffset}..${it.lastDataOffset ?? '?'}`, txnTitle(it)]))
      else if (it.kind === 'plain') rows.push(row([`${it.firstOffset}..${it.lastOffset}`, plainTitle(it)]))
      else rows.push(row([String(it.offset), `${it.typeName} control batch, producerId ${it.producerId}`]))
    }
  }
  for (const t of p.open)
    if (p.items === null) rows.push(row([`${t.firstOffset}..${t.lastDataOffset ?? '?'}`, txnTitle(t)]))
  const what =
    p.buckets !== null
      ? `${p.buckets.length} offset ranges (aggregated)`
      : `${rows.length} run${rows.length === 1 ? '' : 's'}`
  return `<details><summary>The lane as a table: ${esc(what)}</summary><table class="lane-table">${head(['offsets', 'what'], 2)}<tbody>${rows.join('')}</tbody></table></details>`
}

export function findingsTable(findings: readonly FindingRow[]): string {
  return [...findingsChunks(findings.length, findings.map(findingRow))].join('')
}

/** one finding's row of the findings table */
export function findingRow(f: FindingRow): string {
  return (
    `<tr${attrs({ 'data-code': f.code, 'data-severity': f.severity })}><td class="l">${esc(f.partition)}</td>` +
    `<td class="l sev-${esc(f.severity)}">${esc(f.severity)}</td><td class="l"><code>${esc(f.code)}</code></td><td class="l">${esc(f.file ?? '-')}</td>` +
    `<td>${esc(f.position ?? '-')}</td><td class="l">${esc(f.message)}</td></tr>`
  )
}

/** the findings table of `count` findings, its rows (findingRow) as they come */
export function* findingsChunks(count: number, rows: Iterable<string>): Generator<string> {
  if (count === 0) {
    yield '<p class="ok">No findings: the files read cleanly.</p>'
    return
  }
  yield `<table class="findings">${head(['partition', 'severity', 'code', 'file', 'byte position', 'message'], 6)}<tbody>`
  yield* rows
  yield '</tbody></table>'
}
