// Text of `tsdump transactions`: each transaction as a block (who, outcome, how it was joined, its
// partitions' runs and markers, its offset commits, the coordinator's records, its findings), then the
// coordinator's newest state of each id. Within 80 columns unless --wide.
import { Chalk } from 'chalk'
import type { ForceTerminateAdvice } from '../analysis/broker-release.js'
import type { HangingVerdict } from '../analysis/hanging.js'
import { ageSourceText } from '../analysis/hanging.js'
import type { ChalkInstance } from 'chalk'
import { ABORTED_BY_TEXT } from '../analysis/transaction-join/abort-cause.js'
import type { IdFamily } from '../analysis/transaction-join/id-families.js'
import { describeFamily, idFamily } from '../analysis/transaction-join/id-families.js'
import type { JoinedTransaction, TransactionsResult, TransactionsStreamed } from '../analysis/transaction-join/types.js'
import { stateLabel, unknownStatesNotes } from '../analysis/transactional-id-state.js'
import type { FlinkSink } from '../analysis/transaction-join/flink-ids.js'
import {
  flinkFamilyText,
  flinkKnowsOpen,
  flinkOpenCauses,
  flinkLossSummary,
  flinkTransactionNotes,
} from './flink-sink-text.js'
import type { PrintOptions } from './print-options.js'
import type { PrinterOutput } from './printer.js'
import { formatFinding } from './finding-text.js'
import { TABLE_WIDTH, fitTable, hiddenNote } from './table.js'
import { isoTime } from './timestamp.js'
import { fitsOneLine, spaced, wrapWords } from './wrap.js'
import { runTableLines, writeRunTable } from './run-table.js'
import { writeWrapped } from './wrap-bytes.js'
import type { Writer } from './writer.js'
import { streamsLines } from './streams-text.js'
import { wrapCommand } from './doctor-text.js'

const JOINED: Record<JoinedTransaction['joinedBy'], string> = {
  'producer-epoch': 'its producer epoch',
  coordinator: "the coordinator's records",
  'coordinator-timestamps': "the coordinator's record times",
  'marker-timestamps': "the markers' timestamps",
}
/** JOINED with the coordinator's held to its article (a no-break space), as the block's line wraps it */
const JOINED_HELD = Object.fromEntries(
  Object.entries(JOINED).map(([k, v]) => [k, v.replaceAll("the coordinator's", "the\u00a0coordinator's")]),
) as Record<JoinedTransaction['joinedBy'], string>

/** `text` wrapped under a two-space indent, its continuation lines four */
function hanging(text: string, wide: boolean, first = '  '): string[] {
  // (the one line wrapWords gives, its indent made `first` without a string of it first)
  if (fitsOneLine(text, 4, wide ? 10000 : 80)) return [first + spaced(text)]
  const lines = wrapWords(text, '    ', wide ? 10000 : 80)
  if (lines.length > 0) lines[0] = first + lines[0]!.slice(4)
  return lines
}

/** 15:36:13.773Z, the date said once in the block's first line */
const clock = (ms: bigint): string => isoTime(ms).slice(11)

/** an open run's age and the hanging rule's verdict, as lso words them */
function openRunText(label: string, v: HangingVerdict): string {
  const age = v.ageMs === null ? 'age unknown' : `open ${(Number(v.ageMs) / 60_000).toFixed(1)}\u00a0min`
  const verdict = v.hanging
    ? 'HANGING'
    : v.overdue
      ? "its coordinator's abort deadline passed long ago (TXN_COORDINATOR_OVERDUE)"
      : v.candidate && v.coordinatorLost !== null
        ? 'whether its coordinator still owns it is unknown: its records could not all be read (TXN_COORDINATOR_UNKNOWN)'
        : v.twoPhaseCommit
          ? 'two-phase commit, waiting for its external coordinator'
          : v.coordinatorOwner !== null
            ? 'its coordinator aborts it at its timeout'
            : 'within the timeout'
  return `${label}: ${age}, ${ageSourceText(v)}: ${verdict}`
}

/** the lines written, each ending in a newline, and forgotten: what a block holds before its runs' table and after it */
function writeLines(w: Writer, lines: string[]): void {
  if (lines.length > 0) w.write(`${lines.join('\n')}\n`)
  lines.length = 0
}

/** a transaction's block written to `w`, after an empty line (its runs' table as bytes: run-table.ts writeRunTable) */
const NO_FAMILY = { family: null, named: null } as const
/** each id's family and its words (a million transactions of a thousand ids: two regular expressions each), the last 4,096 ids' */
const families = new Map<string, { family: IdFamily; named: string | null }>()
function familyOf(id: string): { family: IdFamily; named: string | null } {
  let f = families.get(id)
  if (f === undefined) {
    const family = idFamily(id)
    f = { family, named: describeFamily(family) }
    if (families.size >= 4096) families.clear()
    families.set(id, f)
  }
  return f
}

function block(
  w: Writer,
  t: JoinedTransaction,
  chalk: ChalkInstance,
  wide: boolean,
  sinks?: FlinkSink[],
  endIt?: (id: string) => ForceTerminateAdvice,
): void {
  // the empty line before the block
  const out: string[] = ['']
  const width = wide ? 10000 : 80
  /** hanging(text, wide, first)'s lines written, as bytes where the text is plain ASCII (wrap-bytes.ts), after what `out` holds */
  const say = (text: string, first = '  '): void => {
    writeLines(w, out)
    if (!writeWrapped(w, text, first, '    ', width)) for (const l of hanging(text, wide, first)) out.push(l)
  }
  const outcome =
    t.outcome === 'committed'
      ? chalk.green(t.outcome)
      : t.outcome === 'aborted'
        ? chalk.yellow(t.outcome)
        : chalk.red(t.outcome)
  const who = t.transactionalId ?? '(transactional id unknown)'
  const rest = `producer ${t.producerId} epoch ${t.producerEpoch}  ${t.transactionVersion ?? 'TV?'}  ${t.outcome}`
  // a long id (Kafka Streams: <application.id>-<uuid>-<thread>) gets its line of its own
  const said = outcome === t.outcome ? rest : rest.replace(t.outcome, outcome)
  if (wide || who.length + 2 + rest.length <= 80) out.push(`${chalk.bold(who)}  ${said}`)
  else out.push(chalk.bold(who), `  ${said}`)
  const { family, named } = t.transactionalId === null ? NO_FAMILY : familyOf(t.transactionalId)
  if (named !== null) say(named)
  for (const n of flinkTransactionNotes(sinks, t.transactionalId, t.outcome)) say(n)
  if (family?.kind === 'flink-kafka-sink' && t.outcome === 'open' && !flinkKnowsOpen(sinks, t.transactionalId)) {
    // FlinkKafkaInternalProducer ids are aborted on restore only for the subtasks and prefix the job still has
    say(
      `a Flink sink transaction left open: known causes are ${flinkOpenCauses(family.subtask)}; the coordinator aborts it only after transaction.timeout.ms`,
    )
  }
  if (t.outcome === 'open' && t.transactionalId !== null && endIt !== undefined) {
    // the whole transaction at once, as lso offers it (analysis/broker-release.ts: which kafka-transactions.sh runs it)
    const a = endIt(t.transactionalId)
    say(`to end it now, the whole transaction at once (${a.note}):`)
    for (const l of wide ? [`    ${a.command ?? ''}`] : wrapCommand(a.command ?? '', '    ')) out.push(l)
  }
  const span =
    t.firstTimestamp === null
      ? 'no timestamps'
      : `${isoTime(t.firstTimestamp)}${t.lastTimestamp !== null && t.lastTimestamp !== t.firstTimestamp ? ` .. ${clock(t.lastTimestamp)}` : ''}`
  // (the span is timestamps: only the basis's words are held together)
  const joined = `${span}, joined by ${JOINED_HELD[t.joinedBy]}`
  writeLines(w, out)
  if (!writeWrapped(w, joined, '  ', '  ', TABLE_WIDTH)) for (const l of wrapWords(joined, '  ')) out.push(l)
  if (t.runs.length > 0) {
    writeLines(w, out)
    if (!writeRunTable(w, t.runs, chalk, wide, 78, '  '))
      for (const l of runTableLines(t.runs, chalk, wide, 78)) out.push('  ' + l)
    for (const r of t.runs) if (r.verdict !== undefined) say(openRunText(`${r.topic}-${r.partition}`, r.verdict))
  }
  if (t.offsetCommits.length > 0) {
    // (one group, as nearly every transaction commits to: no set of them)
    const one = t.offsetCommits.every((c) => c.group === t.offsetCommits[0]!.group)
    const groups = one ? [t.offsetCommits[0]!.group] : [...new Set(t.offsetCommits.map((c) => c.group))].sort()
    for (const g of groups) {
      const cs = t.offsetCommits
        .filter((c) => c.group === g)
        .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition))
        .map(
          (c) =>
            `${c.topic}-${c.partition}\u00a0${c.committedBefore ?? 'none'}\u00a0->\u00a0${c.offset ?? 'deleted'}` +
            (t.outcome === 'aborted'
              ? `\u00a0(aborted:\u00a0group\u00a0at\u00a0${c.committedAfter ?? 'none'})`
              : t.outcome === 'committed' && c.committedAfter !== c.offset
                ? `\u00a0(group\u00a0at\u00a0${c.committedAfter ?? 'none'}:\u00a0a\u00a0later\u00a0plain\u00a0commit)`
                : ''),
        )
      say(`offsets of group ${g}: ${cs.join(', ')}`)
    }
  } else if (t.notRead.some((p) => p.startsWith('__consumer_offsets-'))) {
    say(
      `offset commits in ${t.notRead.filter((p) => p.startsWith('__consumer_offsets-')).join(', ')}, not among the paths`,
    )
  } else if (t.runs.some((r) => r.records > 0)) {
    out.push('  no offset commits in this transaction')
  }
  const others = t.notRead.filter((p) => !p.startsWith('__consumer_offsets-'))
  if (others.length > 0)
    say(
      `${t.runs.length === 0 ? 'none of its partitions among the paths; ' : ''}also listed by the coordinator, not among the paths: ${others.join(', ')}`,
    )
  if (t.episode !== null) {
    const states = t.episode.states.map(
      (s) =>
        `${s.state}\u00a0${clock(s.timestamp)}${s.partitions.length > 0 && s.state !== 'Ongoing' ? `\u00a0(${s.partitions.length}\u00a0partition${s.partitions.length === 1 ? '' : 's'})` : ''}`,
    )
    say(`coordinator: ${states.join(', ')}`)
  }
  if (t.abortCause !== null) {
    const c = t.abortCause
    const timing =
      c.by === 'coordinator-timeout'
        ? `: began ${clock(c.startedAt)}, deadline ${clock(c.deadline)} (transactionTimeoutMs ${c.transactionTimeoutMs}), PrepareAbort ${clock(c.preparedAt)}`
        : ''
    say(`aborted by ${ABORTED_BY_TEXT[c.by]}${timing}`)
  }
  for (const f of t.findings)
    say(
      `${f.severity} ${f.code}: ${f.message}${f.file !== undefined ? ` (${f.file}, position ${f.position ?? 0})` : ''}`,
      '  ! ',
    )
  writeLines(w, out)
}

export function printTransactionsText(
  r: TransactionsResult | TransactionsStreamed,
  out: PrinterOutput,
  opts: PrintOptions & { endIt?: (id: string) => ForceTerminateAdvice },
): void {
  const chalk = new Chalk({ level: opts.colorLevel })
  const lines: string[] = []
  const count = 'items' in r ? r.count : r.transactions.length
  const producers = 'items' in r ? r.producers : new Set(r.transactions.map((t) => t.producerId)).size
  lines.push(`${count} transaction${count === 1 ? '' : 's'} of ${producers} producer${producers === 1 ? '' : 's'}`)
  const where =
    r.stateLogs.length > 0
      ? `transactional ids from ${r.stateLogs.map((p) => p.replace(/\/?$/, '')).join(', ')}`
      : `no __transaction_state partition among the paths or in their log directories (${r.lookedIn.join(', ') || 'none'}): transactional ids unknown, runs of one producer epoch joined by their markers' timestamps`
  for (const l of wrapWords(where, '', opts.wide ? Number.POSITIVE_INFINITY : undefined)) lines.push(l)
  // written a block at a time: one string of a million transactions' lines is not needed
  out.stdout.write(lines.join('\n') + '\n')
  lines.length = 0
  // as they come: the exactly-once check and the id families below are complete once they all passed
  for (const t of 'items' in r ? r.items : r.transactions)
    block(out.stdout, t, chalk, opts.wide, r.flinkSinks, opts.endIt)
  const eos = r.exactlyOnce.filter((p) => p.groups.length > 0 || p.groupsAdvancingOutside.length > 0)
  if (eos.length > 0) {
    lines.push('', 'Offsets carried by each transactional producer (exactly-once check):')
    for (const p of eos) {
      const who = p.transactionalId ?? `producer ${p.producerIds.join(',')}`
      const carried =
        p.groups.length === 0
          ? 'no offsets'
          : p.groups.map((g) => `${g.group}\u00a0(${g.transactions}\u00a0of\u00a0${p.transactions})`).join(', ')
      const mixed = p.mixedCommits
        .map((m) => `; ${m.group} also committed ${m.plainCommits}\u00a0times outside transactions (mixed commits)`)
        .join('')
      const adv =
        p.groupsAdvancingOutside.length === 0
          ? ''
          : `; meanwhile ${p.groupsAdvancingOutside.map((g) => `${g.group} committed ${g.commits}\u00a0times outside transactions`).join(', ')}`
      for (const l of hanging(`${who}: ${carried}${mixed}${adv}`, opts.wide, '')) lines.push(l)
    }
  }
  const notChecked = r.exactlyOnceNotChecked
  if (notChecked !== undefined) {
    const n = (x: number): string => x.toLocaleString('en-US')
    const text =
      `The exactly-once check took the first ${n(notChecked.checked)} producers: ${n(notChecked.producerIds)} more ` +
      `producer ids (${n(notChecked.transactions)} transactions) were not checked`
    lines.push('')
    for (const l of hanging(text, opts.wide, '')) lines.push(l)
  }
  const families = r.idFamilies.filter((f) => f.kind !== 'plain')
  if (families.length > 0) {
    lines.push('', 'Transactional id families:')
    for (const f of families) {
      const hours = f.perHour.map((h) => `${h.hour}\u00a0${h.ids}`).join(', ')
      const sink = f.kind === 'flink-kafka-sink' ? r.flinkSinks?.find((x) => x.prefix === f.prefix) : undefined
      const what =
        sink !== undefined
          ? flinkFamilyText(sink)
          : f.kind === 'flink-kafka-sink'
            ? `Flink KafkaSink prefix ${f.prefix}: ${f.ids} ids, subtasks ${(f.subtasks ?? []).join(',')}, counters up to ${f.maxCounter ?? 0} (a new id per checkpoint and subtask)`
            : `Kafka Streams application ${f.prefix}: ${f.ids} id${f.ids === 1 ? '' : 's'} of ${(f.processIds ?? []).length} process${(f.processIds ?? []).length === 1 ? '' : 'es'}`
      for (const l of hanging(`${what}; created per hour: ${hours}`, opts.wide, '')) lines.push(l)
    }
  }
  const lost = flinkLossSummary(r.flinkSinks)
  if (lost.length > 0) {
    lines.push('', 'Data lost by Flink sinks:')
    for (const l of lost) for (const w of hanging(l, opts.wide, '')) lines.push(w)
  }
  for (const l of streamsLines(r.streams ?? [], opts.wide ? 1e9 : undefined)) lines.push(l)
  if (r.transactionalIds.length > 0) {
    lines.push('', "The coordinator's newest state of each transactional id:")
    const tbl = fitTable(
      [
        { header: 'TRANSACTIONAL_ID', left: true },
        { header: 'PRODUCER', short: 'PID' },
        { header: 'EPOCH' },
        { header: 'STATE', left: true },
        { header: 'PARTITIONS', left: true, dropRank: 1 },
        { header: 'TIMEOUT_MS', dropRank: 2 },
        { header: 'UPDATED (UTC)', left: true, dropRank: 3 },
      ],
      r.transactionalIds.map((s) => [
        { text: s.transactionalId },
        { text: s.producerId === null ? '' : String(s.producerId) },
        { text: s.producerEpoch === null ? '' : String(s.producerEpoch) },
        { text: stateLabel(s) },
        { text: s.partitions.join(',') },
        { text: s.transactionTimeoutMs === null ? '' : String(s.transactionTimeoutMs) },
        {
          text: s.lastUpdateTimestamp === null ? '' : isoTime(s.lastUpdateTimestamp),
          short: s.lastUpdateTimestamp === null ? '' : isoTime(s.lastUpdateTimestamp).replace(/\.\d{3}Z$/, 'Z'),
        },
      ]),
      chalk,
      { wide: opts.wide },
    )
    for (const l of (tbl.text + hiddenNote(tbl.hidden)).split('\n').filter((x) => x !== '')) lines.push(l)
    for (const u of unknownStatesNotes(r.transactionalIds)) for (const l of hanging(u, opts.wide)) lines.push(l)
  }
  if (lines.length > 0) out.stdout.write(lines.join('\n') + '\n')
  for (const f of r.findings) out.stderr.write(formatFinding(f) + '\n')
}
