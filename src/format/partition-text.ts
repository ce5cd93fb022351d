// Text printer of reconcile / txns / lso: tables and stories on stdout (colour at the chosen level),
// the findings that are not info on stderr, uncoloured, partition by partition.
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import type { OmittedFindings } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import type {
  LsoHead,
  LsoResult,
  LsoStream,
  PartitionResult,
  ReconcileResult,
  ReconcileStream,
  TransactionStatePartition,
  TxnsResult,
} from '../analysis/partition-results.js'
import type { Lane, TimelineRun } from '../analysis/timeline.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { stateLabel, unknownStatesNotes } from '../analysis/transactional-id-state.js'
import type { ColorLevel, HeldQueue, HeldWriter, PartitionPrinter, PrinterOutput, TxnsStream } from './printer.js'
import { MemoryQueue } from './printer.js'
import { LsoTextStream } from './lso-text.js'
import { heldInMemory, replayLso } from './lso-stream.js'
import { TABLE_WIDTH, fitTable, hiddenNote } from './table.js'
import type { Column } from './table.js'
import { RunsTableWriter } from './timeline-table.js'
import { replayReconcile, replayTxns } from './txns-stream.js'
import { isoTime } from './timestamp.js'
import { formatFindings, formatLane, formatTimelineHead } from './txn-text.js'
import { ReconcileTextStream } from './reconcile-text.js'
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
    whole
      .flatMap((s) =>
        wrapWords(
          `${s.transactionalId}: partitions ${s.partitions.join(', ') || 'none'}`,
          '    ',
          wide ? Number.POSITIVE_INFINITY : TABLE_WIDTH,
        ).map((l, i) => `${i === 0 ? `  ${l.slice(4)}` : l}\n`),
      )
      .join('') +
    states.map((s) => taggedLine(s, wide ? Number.POSITIVE_INFINITY : TABLE_WIDTH)).join('') +
    unknownStatesNotes(states)
      .flatMap((u) =>
        wrapWords(u, '    ', wide ? 10000 : TABLE_WIDTH).map((l, i) => `${i === 0 ? `  ${l.slice(4)}` : l}\n`),
      )
      .join('')
  )
}

/** the v1 tagged fields (KIP-890, KIP-939) of one id, when any is set; a two-phase-commit id says so */
function taggedLine(s: TransactionalIdState, width: number): string {
  const parts: string[] = []
  if (s.previousProducerId !== null && s.previousProducerId >= 0n)
    parts.push(`previousProducerId ${s.previousProducerId}`)
  if (s.nextProducerId !== null && s.nextProducerId >= 0n) parts.push(`nextProducerId ${s.nextProducerId}`)
  if (s.nextProducerEpoch !== null && s.nextProducerEpoch >= 0) parts.push(`nextProducerEpoch ${s.nextProducerEpoch}`)
  if (s.clientTransactionVersion !== null && s.clientTransactionVersion > 0)
    parts.push(`clientTransactionVersion ${s.clientTransactionVersion}`)
  if (s.twoPhaseCommit)
    parts.push('two-phase commit (KIP-939: no timeout; a prepared transaction waits for its external coordinator)')
  if (parts.length === 0) return ''
  return wrapWords(`${s.transactionalId}: ${parts.join(', ')}`, '    ', width)
    .map((l, i) => `${i === 0 ? `  ${l.slice(4)}` : l}\n`)
    .join('')
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
    replayReconcile(this.reconcileStream(r.filter !== undefined), r)
  }

  reconcileStream(filtered: boolean, held: () => HeldQueue = () => new MemoryQueue()): ReconcileStream {
    return new ReconcileTextStream(this.out, this.chalk, this.plain, this.wide, filtered, held)
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
    replayLso(this.lsoStream(r, heldInMemory()), r)
  }

  lsoStream(head: LsoHead, held: HeldWriter): LsoStream {
    return new LsoTextStream(this.out, held, head, this.chalk, this.plain, this.wide)
  }
}
