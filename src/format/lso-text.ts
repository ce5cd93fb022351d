// lso's text, written as its partitions are judged (LsoStream): the impact lines of every open transaction come
// first and are known last, so each partition's lines (format/lso-blocked-text.ts) are written into the held output
// as it comes, and put out at the end after the impact; then find-hanging's table and the coordinator lookup. Its
// findings go to stderr as it is judged. Nothing of a partition's report is kept.
import type { ChalkInstance } from 'chalk'
import type { OmittedFindings } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import type { LsoEnd, LsoHead, LsoPartition, LsoStream } from '../analysis/partition-results.js'
import { formatHangingTable } from './hanging-text.js'
import { formatBlocked } from './lso-blocked-text.js'
import { impactLines } from './lso-impact-text.js'
import type { HeldWriter, PrinterOutput } from './printer.js'
import { TABLE_WIDTH } from './table.js'
import { isoTime } from './timestamp.js'
import { formatFindings } from './txn-text.js'
import { wrapWords } from './wrap.js'

export class LsoTextStream implements LsoStream {
  private readonly width: number
  private readonly nowLabel: string

  constructor(
    private readonly out: PrinterOutput,
    private readonly held: HeldWriter,
    private readonly head: LsoHead,
    private readonly chalk: ChalkInstance,
    private readonly plain: ChalkInstance,
    private readonly wide: boolean,
  ) {
    this.width = wide ? Number.POSITIVE_INFINITY : TABLE_WIDTH
    this.nowLabel = `${isoTime(head.nowMs)} (${head.nowGiven ? '--now' : 'now'})`
  }

  partition(b: LsoPartition): void {
    const h = this.head
    this.held.write(formatBlocked(b, h.maxTransactionTimeoutMinutes, this.chalk, this.nowLabel, h.nowMs, this.width))
    // a partition's warnings go out as it is judged, ahead of the held lines on a terminal shared by both
    const f = this.findings(b.label, [...b.report.findings, ...b.findings], b.report.omittedFindings)
    if (f !== '') this.out.stderr.write(f)
  }

  end(e: LsoEnd): void {
    const { stdout, stderr } = this.out
    const timeoutMin = this.head.maxTransactionTimeoutMinutes
    const nowMs = this.head.nowMs
    // the coordinator's findings after the partitions' and before stdout, as every warning comes
    for (const x of e.coordinatorFindings ?? []) stderr.write(this.findings(x.label, x.findings, {}))
    // the cost first: what consumers miss, until when, and the commands that end it
    stdout.write(impactLines(e.impact ?? [], nowMs, this.width).join('\n'))
    this.held.writeTo(stdout)
    // find-hanging's rule, in one line: open, and its last timestamp older than the timeout
    const rule = `open > ${timeoutMin} min at ${this.nowLabel}`
    const table = e.hangingTransactions
    stdout.write(
      table.length === 0
        ? `\nno hanging transactions (${rule})\n`
        : // the time without its source (said on each age line above), so that the heading fits 80 columns
          `\n${wrapWords(`hanging transactions (find-hanging: open > ${timeoutMin} min at ${isoTime(nowMs)}):`, '', this.width).join('\n')}\n` +
            formatHangingTable(table, this.chalk, this.wide),
    )
    const c = e.coordinator
    if (c !== null) {
      const from = c.partitionCountFrom
      stdout.write(
        (c.partition === null || from === null
          ? wrapWords(
              `transactional id ${c.transactionalId}: its coordinator partition is unknown: no metadata log and no __transaction_state ` +
                'directory among the paths or beside them gives the partition count; give --transaction-state-partitions N ' +
                "(the broker's transaction.state.log.num.partitions)",
              '',
            )
          : wrapWords(
              `transactional id ${c.transactionalId} is coordinated by __transaction_state-${c.partition} (abs(hashCode ${c.hashCode}) % ` +
                `${c.partitionCount}; ${c.partitionCount} partitions${from.atLeast ? ' at least' : ''}, from ${from.from}` +
                `${from.atLeast ? '; give --transaction-state-partitions N if it has more' : ''})`,
              '',
            )
        ).join('\n') + '\n',
      )
    }
  }

  /** the findings that are not info, for stderr, uncoloured */
  private findings(label: string, findings: readonly Finding[], omitted: OmittedFindings): string {
    return formatFindings(
      label,
      findings.filter((f) => f.severity !== 'info'),
      this.plain,
      omitted,
    )
  }
}
