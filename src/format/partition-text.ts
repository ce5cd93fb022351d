// Text printer of reconcile / txns / lso: tables and stories on stdout (colour at the chosen level),
// the findings that are not info on stderr, uncoloured, partition by partition.
import { flinkOpenCauses } from './flink-sink-text.js'
import { impactLines } from './lso-impact-text.js'
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import { describeFamily, idFamily } from '../analysis/transaction-join/id-families.js'
import type { OmittedFindings } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import type {
  LsoPartition,
  LsoResult,
  PartitionResult,
  ReconcileResult,
  TransactionStatePartition,
  TxnsResult,
} from '../analysis/partition-results.js'
import type { Lane, TimelineRun } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { stateLabel, unknownStatesNotes } from '../analysis/transactional-id-state.js'
import { lostText } from '../analysis/lost-records.js'
import type { ColorLevel, PartitionPrinter, PrinterOutput, TxnsStream } from './printer.js'
import { explainCoordinatorEpoch, formatHangingTable } from './hanging-text.js'
import { ageSourceText } from '../analysis/hanging.js'
import { TABLE_WIDTH, fitTable, hiddenNote } from './table.js'
import type { Column } from './table.js'
import { RunsTableWriter } from './timeline-table.js'
import { replayTxns } from './txns-stream.js'
import { isoTime } from './timestamp.js'
import { formatFindings, formatLane, formatReconcile, formatTable, formatTimelineHead } from './txn-text.js'
import { rangeNoteText } from './range-text.js'
import { wrapWords } from './wrap.js'

// narrow form: short headers, ISO time to the second, long ids and partition lists shortened (told in full under
// the table), then the offset, the timeout and last the update time go
const STATE_COLUMNS: Column[] = [
  { header: 'TRANSACTIONAL_ID' },
  { header: 'PRODUCER_ID', short: 'PID' },
  { header: 'EPOCH' },
  { header: 'STATE' },
  { header: 'TIMEOUT_MS', short: 'TIMEOUT', dropRank: 2 },
  { header: 'LAST_UPDATE', short: 'LAST_UPDATE (UTC)', dropRank: 3 },
  { header: 'OFFSET', dropRank: 1 },
  { header: 'PARTITIONS' },
]
// a Kafka Streams id (<application.id>-<process uuid>-<thread>) is 50 characters and more: its head and its thread
// index say whose it is
const ID_NARROW = 18
const PARTITIONS_NARROW = 16

function narrowId(id: string): string {
  return id.length <= ID_NARROW ? id : `${id.slice(0, ID_NARROW - 7)}...${id.slice(-4)}`
}

function narrowPartitions(partitions: readonly string[]): string {
  const all = partitions.join(',')
  return all.length <= PARTITIONS_NARROW || partitions.length < 2 ? all : `${partitions.length} partitions`
}

function formatStates(p: TransactionStatePartition, chalk: ChalkInstance, wide: boolean): string {
  const states = p.states
  const stateStyle = (s: string | null): ((x: string) => string) | undefined =>
    s === 'CompleteCommit' || s === 'PrepareCommit'
      ? chalk.green
      : s === 'CompleteAbort' || s === 'PrepareAbort'
        ? chalk.red
        : s === 'Ongoing'
          ? chalk.yellow
          : undefined
  const rows = states.map((s) => {
    const style = stateStyle(s.state)
    return [
      { text: s.transactionalId, short: narrowId(s.transactionalId), left: true },
      { text: s.producerId === null ? '-' : String(s.producerId) },
      { text: s.producerEpoch === null ? '-' : String(s.producerEpoch) },
      {
        text: stateLabel(s, '<DELETE>'),
        left: true,
        ...(style !== undefined && s.unknownPast === undefined ? { style } : {}),
      },
      { text: s.transactionTimeoutMs === null ? '-' : String(s.transactionTimeoutMs) },
      s.lastUpdateTimestamp === null
        ? { text: '-', left: true }
        : {
            text: isoTime(s.lastUpdateTimestamp),
            short: isoTime(s.lastUpdateTimestamp).replace(/\.\d{3}Z$/, 'Z'),
            left: true,
          },
      { text: String(s.offset) },
      { text: s.partitions.join(',') || '-', short: narrowPartitions(s.partitions) || '-', left: true },
    ]
  })
  const t = fitTable(STATE_COLUMNS, rows, chalk, { wide })
  // what the narrow form shortened, whole: the id a kafka-transactions.sh command needs, the partitions it holds
  const whole = t.shortened
    ? states.filter(
        (s) =>
          narrowId(s.transactionalId) !== s.transactionalId ||
          narrowPartitions(s.partitions) !== s.partitions.join(','),
      )
    : []
  return (
    `${chalk.bold(p.label)}  ${states.length} transactional id${states.length === 1 ? '' : 's'}\n` +
    t.text +
    hiddenNote(t.hidden) +
    whole.map((s) => `  ${s.transactionalId}: partitions ${s.partitions.join(', ') || 'none'}\n`).join('') +
    states
      .map(taggedLine)
      .filter((l) => l !== '')
      .join('') +
    unknownStatesNotes(states)
      .flatMap((u) =>
        wrapWords(u, '    ', wide ? 10000 : TABLE_WIDTH).map((l, i) => `${i === 0 ? `  ${l.slice(4)}` : l}\n`),
      )
      .join('')
  )
}

/** the v1 tagged fields (KIP-890, KIP-939) of one id, when any is set; a two-phase-commit id says so */
function taggedLine(s: TransactionalIdState): string {
  const parts: string[] = []
  if (s.previousProducerId !== null && s.previousProducerId >= 0n)
    parts.push(`previousProducerId ${s.previousProducerId}`)
  if (s.nextProducerId !== null && s.nextProducerId >= 0n) parts.push(`nextProducerId ${s.nextProducerId}`)
  if (s.nextProducerEpoch !== null && s.nextProducerEpoch >= 0) parts.push(`nextProducerEpoch ${s.nextProducerEpoch}`)
  if (s.clientTransactionVersion !== null && s.clientTransactionVersion > 0)
    parts.push(`clientTransactionVersion ${s.clientTransactionVersion}`)
  if (s.twoPhaseCommit)
    parts.push('two-phase commit (KIP-939: no timeout; a prepared transaction waits for its external coordinator)')
  return parts.length === 0 ? '' : `  ${s.transactionalId}: ${parts.join(', ')}\n`
}

function ts(v: bigint | null): string {
  return v === null ? 'unknown' : `${isoTime(v)} (${v})`
}

/**
 * Why an open transaction whose coordinator still lists the partition is not hanging: the coordinator aborts it
 * itself at its start + transactionTimeoutMs (analysis/hanging.ts coordinatorAbortsAtMs); a time already past means
 * that coordinator has not run since (a stopped broker, or files copied from one).
 */
function coordinatorAborts(owner: TransactionalIdState, atMs: bigint | null, older: boolean, nowMs: number): string[] {
  const lists = `its coordinator ${older ? 'still lists' : 'lists'} this partition in ${owner.transactionalId} (${owner.state ?? '?'})`
  const timeout = owner.transactionTimeoutMs === null ? '' : ` (transactionTimeoutMs ${owner.transactionTimeoutMs})`
  if (atMs === null) return wrapWords(`${lists} and aborts it at its timeout${timeout}.`, '    ')
  const minutes = (Number(atMs) - nowMs) / 60000
  const when =
    (minutes >= 0 ? `in ${minutes.toFixed(1)} min` : `${(-minutes).toFixed(1)} min ago`).replaceAll(' ', '\u00a0') +
    (minutes >= 0 ? '' : ', not done yet')
  return wrapWords(
    `${lists} and aborts it at ${isoTime(atMs)}, its start + transactionTimeoutMs ${owner.transactionTimeoutMs}: ${when}.`,
    '    ',
  )
}

/** the age and the verdict on one line when its first line fits 80 columns, else the verdict indented below */
function ageLine(head: string, verdict: string): string[] {
  // eslint-disable-next-line no-control-regex
  const first = (verdict.split('\n')[0] ?? '').replace(/\u001b\[[0-9;]*m/g, '')
  return head.length + 1 + first.length <= TABLE_WIDTH ? [`${head} ${verdict}`] : [head, `    ${verdict}`]
}

function formatBlocked(
  b: LsoPartition,
  timeoutMin: number,
  chalk: ChalkInstance,
  nowLabel: string,
  nowMs: number,
): string {
  const r = b.report
  const label = chalk.bold(b.label)
  const t = b.blocking
  if (t === null) return `${label}: LSO ${r.lastStableOffset} = HW ${r.highWatermark}, nothing is blocked\n`
  const age = t.ageMs === null ? 'unknown' : `${(Number(t.ageMs) / 60000).toFixed(1)} min`
  const owner = t.verdict.coordinatorOwner
  const verdict =
    t.damage !== undefined
      ? chalk.yellow(
          `outcome unknown: its marker or data may lie in the bytes that could not be read at ${t.damage.file}:${t.damage.position}`,
        )
      : t.state === 'awaiting-high-watermark'
        ? chalk.green('ended; its marker is not below the high watermark yet')
        : t.twoPhaseCommit
          ? chalk.cyan(
              'prepared (two-phase commit, KIP-939: transactionTimeoutMs 2147483647), waiting for its external coordinator; not hanging',
            )
          : t.hanging
            ? chalk.red(`HANGING (older than ${timeoutMin} min)`)
            : t.verdict.candidate && t.verdict.coordinatorLost !== null
              ? chalk.yellow(
                  `older than ${timeoutMin} min; whether its coordinator still owns it is ` +
                    `unknown: ${lostText(t.verdict.coordinatorLost)} (TXN_COORDINATOR_UNKNOWN); no abort is advised`,
                )
              : t.verdict.overdue && owner !== null
                ? chalk.red(
                    `COORDINATOR OVERDUE (its abort deadline passed more than ${timeoutMin} min ago)\n` +
                      coordinatorAborts(owner, t.verdict.coordinatorAbortsAtMs, t.verdict.candidate, nowMs).join('\n'),
                  )
                : owner !== null
                  ? chalk.yellow(
                      `${t.verdict.candidate ? `older than ${timeoutMin} min, not hanging` : `open, within ${timeoutMin} min`}\n` +
                        coordinatorAborts(owner, t.verdict.coordinatorAbortsAtMs, t.verdict.candidate, nowMs).join(
                          '\n',
                        ),
                    )
                  : chalk.yellow(`open, within ${timeoutMin} min`)
  const aborted = t.abortedBeyondLso > 0 ? ` (${t.abortedBeyondLso} more already aborted)` : ''
  const lines = [
    `${label}: LSO ${r.lastStableOffset} < HW ${r.highWatermark} (${r.highWatermarkSource}), ${t.recordsWaiting} records waiting${aborted}`,
    `  blocking transaction: producerId ${t.producerId} producerEpoch ${t.producerEpoch}`,
    `  first offset ${t.firstOffset}${t.seeded ? ' (before the log start, from a producer snapshot)' : ''}, last data offset ${t.lastDataOffset ?? 'unknown'}, ${t.records} records`,
    `  first timestamp ${ts(t.firstTimestamp)}`,
    `  last timestamp  ${ts(t.lastTimestamp)}`,
    ...ageLine(`  age ${age} at ${nowLabel}:`, verdict),
    ...wrapWords(`age ${ageSourceText(t.verdict)}`, '    ').map((l, i) => (i === 0 ? `  ${l.trimStart()}` : l)),
  ]
  // an open one gets the full story of its coordinator epoch (it goes into the abort command)
  if (t.state === 'open') lines.push(...explainCoordinatorEpoch(t))
  else
    lines.push(
      `  coordinatorEpoch ${t.coordinatorEpoch === null ? 'unknown' : `${t.coordinatorEpoch} (from the ${t.coordinatorEpochSource})`}`,
    )
  for (const s of b.ids) {
    const head = `  transactional id ${s.transactionalId}: `
    if (s.deleted) {
      lines.push(`${head}deleted`)
      continue
    }
    const state =
      s.unknownPast !== undefined
        ? `state unknown (last read ${s.state}), epoch ${s.producerEpoch}`
        : `state ${s.state}, epoch ${s.producerEpoch}`
    const partitions = `partitions [${s.partitions.join(',')}]`
    // a long id or partition list goes on a line of its own rather than past 80 columns
    if (head.length + state.length + partitions.length + 2 <= TABLE_WIDTH) lines.push(`${head}${state}, ${partitions}`)
    else lines.push(`${head}${state},`, `    ${partitions}`)
    // who it is, by the id's shape (analysis/transaction-join/id-families.ts)
    const family = idFamily(s.transactionalId)
    const named = describeFamily(family)
    if (named !== null) lines.push(...wrapWords(named, '    '))
    if (family.kind === 'flink-kafka-sink' && t.state === 'open') {
      lines.push(
        ...wrapWords(`known causes of a Flink sink transaction left open: ${flinkOpenCauses(family.subtask)}`, '    '),
      )
    }
  }
  if (r.openTransactions.length > 1) lines.push(`  ${r.openTransactions.length - 1} more open transaction(s) behind it`)
  if (t.damage !== undefined) {
    lines.push(
      ...wrapWords(
        'not judged hanging and no abort advice: repair the damage first (copy the segment from an in-sync replica), ' +
          `and check the live broker: kafka-transactions.sh describe-producers --topic ${r.topic ?? '<TOPIC>'} --partition ${r.partition ?? '<PARTITION>'} ` +
          'shows whether the producer still has a transaction open',
        '  ',
      ),
    )
  } else if (t.state === 'open' && b.commands.length === 0) {
    // the coordinator's state is unknown, or it is committing this transaction (analysis/lso.ts abortCommands)
    lines.push(
      ...wrapWords(
        'no abort advice: ask the live cluster first (kafka-transactions.sh find-hanging --broker-id N, describe ' +
          '--transactional-id ID) and abort only what find-hanging lists',
        '  ',
      ),
    )
  } else if (t.state === 'open') {
    lines.push('  to abort it:')
    for (const c of b.commands) lines.push(`    ${c}`)
  }
  return lines.join('\n') + '\n'
}

export class TextPartitionPrinter implements PartitionPrinter {
  private readonly chalk: ChalkInstance
  private readonly plain = new Chalk({ level: 0 })

  constructor(
    private readonly out: PrinterOutput,
    color: ColorLevel,
    private readonly wide = false,
  ) {
    this.chalk = new Chalk({ level: color })
  }

  private findings(label: string, findings: readonly Finding[], omitted: OmittedFindings): void {
    this.out.stderr.write(
      formatFindings(
        label,
        findings.filter((f) => f.severity !== 'info'),
        this.plain,
        omitted,
      ),
    )
  }

  reconcile(r: ReconcileResult): void {
    if (r.filter !== undefined) this.out.stdout.write(rangeNoteText(r.filter, r.partitions))
    this.out.stdout.write(
      formatReconcile(
        r.partitions.map((p) => p.report),
        r.partitions.map((p) => p.label),
        this.chalk,
        this.wide,
      ),
    )
    for (const p of r.partitions) this.findings(p.label, p.report.findings, p.report.omittedFindings)
  }

  txns(r: TxnsResult): void {
    replayTxns(this.txnsStream(), r)
  }

  txnsStream(): TxnsStream {
    const { stdout } = this.out
    const chalk = this.chalk
    let runs = 0
    let table = new RunsTableWriter(stdout, chalk, this.wide)
    return {
      timelineStart: (p: PartitionResult) => {
        runs = 0
        table = new RunsTableWriter(stdout, chalk, this.wide)
        stdout.write(formatTimelineHead(p.label, p.report, chalk))
      },
      run: (x: TimelineRun) => {
        runs++
        table.add(x)
      },
      timelineEnd: (p: PartitionResult, lane: Lane) => {
        table.flush()
        stdout.write(
          `${runs === 0 ? '  (no batches)\n' : ''}  ${formatLane(lane.chars, lane.batchesPerChar, chalk)}\n\n`,
        )
        this.findings(p.label, p.report.findings, p.report.omittedFindings)
      },
      transactionStates: (p: TransactionStatePartition) => {
        stdout.write(formatStates(p, chalk, this.wide) + '\n')
        this.findings(p.label, p.findings, p.omittedFindings)
      },
      end: () => {},
    }
  }

  lso(r: LsoResult): void {
    const timeoutMin = r.maxTransactionTimeoutMinutes
    const nowLabel = `${isoTime(r.nowMs)} (${r.nowGiven ? '--now' : 'now'})`
    // the cost first: what consumers miss, until when, and the commands that end it
    this.out.stdout.write(impactLines(r.impact ?? [], r.nowMs, this.wide ? 1e9 : undefined).join('\n'))
    for (const b of r.partitions) this.out.stdout.write(formatBlocked(b, timeoutMin, this.chalk, nowLabel, r.nowMs))
    // find-hanging's rule, in one line: open, and its last timestamp older than the timeout
    const rule = `open > ${timeoutMin} min at ${nowLabel}`
    const table = r.hangingTransactions
    this.out.stdout.write(
      table.length === 0
        ? `\nno hanging transactions (${rule})\n`
        : `\nhanging transactions (find-hanging: ${rule}):\n${formatHangingTable(table, this.chalk, this.wide)}`,
    )
    const c = r.coordinator
    if (c !== null) {
      const from = c.partitionCountFrom
      this.out.stdout.write(
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
    for (const b of r.partitions)
      this.findings(b.label, [...b.report.findings, ...b.findings], b.report.omittedFindings)
    for (const c of r.coordinatorFindings ?? []) this.findings(c.label, c.findings, {})
  }
}
