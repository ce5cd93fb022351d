// reconcile's text, written as its partitions come (ReconcileStream): one table row per partition, its columns as wide
// as their widest cell (format/table.ts fitColumns, the one table rule), so the table is written at the end. Until
// then a row is held as its cells' text only (about 80 bytes), with each column's widest cell so far, the topic
// totals, the notes under the table and the findings for stderr: never the partition's report. The rows and the
// findings are held in the queues the command gives (its scratch file past a bound, io/spill-queue.ts): a log dir of
// 40,000 partitions, each with a warning, held 30 MiB of them.
import type { ChalkInstance } from 'chalk'
import type { ReconciledPartition, ReconcileStream } from '../analysis/partition-results.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { rangeNote, rangeNoteHead } from './range-text.js'
import type { Column, TableCell } from './table.js'
import { fitColumns, headerLine, hiddenNote, rowLine } from './table.js'
import { formatFindings, formatTable } from './txn-text.js'
import type { TopicTotal } from './txn-json.js'
import { addTopicTotal } from './txn-json.js'
import type { HeldQueue, PrinterOutput } from './printer.js'
import { MemoryQueue } from './printer.js'

// Narrow form: the marker counts go first, then open transactions; the counts consumers see stay.
const RECONCILE_COLUMNS: Column[] = [
  { header: 'PARTITION' },
  { header: 'LEO', dropRank: 4 },
  { header: 'HW' },
  { header: 'LSO' },
  { header: 'READ_COMMITTED', short: 'COMMITTED' },
  { header: 'READ_UNCOMMITTED', short: 'UNCOMMITTED' },
  { header: 'ABORTED' },
  { header: 'PENDING' },
  { header: 'COMMIT', dropRank: 1 },
  { header: 'ABORT', dropRank: 1 },
  { header: 'OPEN_TXNS', short: 'OPEN', dropRank: 3 },
]
const LSO = 3
/** a row's cells are joined by NUL (no path holds one), after a first character: 'y' when the LSO is behind the HW */
const SEP = '\u0000'
/** the table is written in pieces of about this many characters */
const CHUNK = 64 * 1024

export class ReconcileTextStream implements ReconcileStream {
  private readonly rows: HeldQueue
  private readonly fullW = RECONCILE_COLUMNS.map((c) => c.header.length)
  private readonly shortW = RECONCILE_COLUMNS.map((c) => (c.short ?? c.header).length)
  private readonly filled = RECONCILE_COLUMNS.map(() => false)
  private readonly totals = new Map<string, TopicTotal>()
  private readonly ranges: string[] = []
  private hwFromLeo = false
  private otherKinds = false
  private readonly otherLines: string[] = []
  private readonly findings: HeldQueue

  constructor(
    private readonly out: PrinterOutput,
    private readonly chalk: ChalkInstance,
    private readonly plain: ChalkInstance,
    private readonly wide: boolean,
    /** the counts are of a range: each partition's line of what was in it is held for the note above the table */
    private readonly filtered: boolean,
    held: () => HeldQueue = () => new MemoryQueue(),
  ) {
    this.rows = held()
    this.findings = held()
  }

  partition(p: ReconciledPartition): void {
    const r = p.report
    const c = r.controlBatches
    const cells = [
      p.label,
      String(r.logEndOffset),
      `${r.highWatermark}${r.highWatermarkSource === 'logEndOffset' ? '*' : ''}`,
      String(r.lastStableOffset),
      String(r.readCommitted),
      String(r.readUncommitted),
      String(r.abortedRecords),
      String(r.pendingRecords),
      String(c.COMMIT ?? 0),
      String(c.ABORT ?? 0),
      String(r.openTransactions.length),
    ]
    for (let i = 0; i < cells.length; i++) {
      const t = cells[i]!
      if (t.length > this.fullW[i]!) this.fullW[i] = t.length
      if (t.length > this.shortW[i]!) this.shortW[i] = t.length
      if (t !== '') this.filled[i] = true
    }
    this.rows.push(Buffer.from((r.lastStableOffset < r.highWatermark ? 'y' : 'n') + cells.join(SEP)), true)
    addTopicTotal(this.totals, r)
    if (this.filtered) this.ranges.push(rangeNote(p))
    if (r.highWatermarkSource === 'logEndOffset') this.hwFromLeo = true
    const others = Object.entries(c).filter(([k]) => k !== 'COMMIT' && k !== 'ABORT')
    if (others.length > 0) this.otherKinds = true
    const parts = others.filter(([, v]) => v > 0).map(([k, v]) => `${k} ${v}`)
    // one partition per line: a list on one line outgrew the terminal
    if (parts.length > 0) this.otherLines.push(`  ${p.label} (${parts.join(', ')})\n`)
    const f = formatFindings(
      p.label,
      r.findings.filter((x) => x.severity !== 'info'),
      this.plain,
      r.omittedFindings,
    )
    if (f !== '') this.findings.push(Buffer.from(f), true)
  }

  end(filter: RangeSpec | undefined): void {
    const w = this.out.stdout
    if (filter !== undefined) w.write(rangeNoteHead(filter) + this.ranges.join('') + '\n')
    this.ranges.length = 0
    const uncommitted = this.table()
    if (!this.wide && uncommitted)
      w.write('COMMITTED, UNCOMMITTED: records read_committed, read_uncommitted consumers read\n')
    const totals = [...this.totals.values()]
    if (totals.length > 0)
      w.write(
        '\n' +
          formatTable(
            ['TOPIC', 'PARTITIONS', 'READ_COMMITTED', 'READ_UNCOMMITTED'],
            totals.map((t) => [
              { text: t.topic, left: true },
              { text: String(t.partitions) },
              { text: String(t.readCommitted) },
              { text: String(t.readUncommitted) },
            ]),
            this.chalk,
            this.wide,
          ),
      )
    if (this.hwFromLeo) w.write('\n* no replication-offset-checkpoint entry: high watermark = log end offset\n')
    if (this.otherKinds) w.write(`other control batches:\n${this.otherLines.join('')}`)
    for (let f = this.findings.shift(); f !== undefined; f = this.findings.shift()) this.out.stderr.write(f.toString())
    this.findings.close()
  }

  /** writes the table and lets its rows go; whether its text says 'UNCOMMITTED ' (the narrow header's) */
  private table(): boolean {
    const fit = fitColumns(RECONCILE_COLUMNS, this.fullW, this.shortW, this.filled, { wide: this.wide })
    const head = headerLine(RECONCILE_COLUMNS, fit, this.chalk)
    let said = head.includes('UNCOMMITTED ')
    let piece = head
    for (let b = this.rows.shift(); b !== undefined; b = this.rows.shift()) {
      const row = b.toString()
      const line = rowLine(this.cellsOf(row), RECONCILE_COLUMNS, fit)
      if (line.includes('UNCOMMITTED ')) said = true
      piece += '\n' + line
      if (piece.length >= CHUNK) {
        this.out.stdout.write(piece)
        piece = ''
      }
    }
    this.rows.close()
    const note = hiddenNote(fit.hidden)
    this.out.stdout.write(piece + '\n' + note)
    return said || note.includes('UNCOMMITTED ')
  }

  /** a held row's cells, styled as a count is: coloured when not 0 (the LSO when behind the HW) */
  private cellsOf(row: string): TableCell[] {
    const t = row.slice(1).split(SEP)
    const ch = this.chalk
    const num = (i: number, style?: (s: string) => string): TableCell =>
      style !== undefined && t[i] !== '0' ? { text: t[i]!, style } : { text: t[i]! }
    return [
      { text: t[0]!, left: true },
      num(1),
      num(2),
      row.startsWith('y') ? { text: t[LSO]!, style: ch.yellow } : num(LSO),
      num(4),
      num(5),
      num(6, ch.red),
      num(7, ch.yellow),
      num(8, ch.green),
      num(9, ch.red),
      num(10, ch.yellow),
    ]
  }
}
