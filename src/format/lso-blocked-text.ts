// lso's text of one partition: the transaction holding its last stable offset, its age and the hanging verdict, its
// coordinator, and the commands that abort it (cut with shell continuations within 80 columns unless --wide).
import type { ChalkInstance } from 'chalk'
import { flinkOpenCauses } from './flink-sink-text.js'
import { describeFamily, idFamily } from '../analysis/transaction-join/id-families.js'
import type { LsoPartition } from '../analysis/partition-results.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { lostText } from '../analysis/lost-records.js'
import { ageSourceText } from '../analysis/hanging.js'
import { explainCoordinatorEpoch } from './hanging-text.js'
import { TABLE_WIDTH } from './table.js'
import { isoTime } from './timestamp.js'
import { commandLines, wrapWords } from './wrap.js'

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

export function formatBlocked(
  b: LsoPartition,
  timeoutMin: number,
  chalk: ChalkInstance,
  nowLabel: string,
  nowMs: number,
  width: number,
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
  // held together: a cut falls before it, not inside
  const aborted =
    t.abortedBeyondLso > 0
      ? ` (${t.abortedBeyondLso} more already aborted)`.replaceAll(' ', '\u00a0').replace('\u00a0(', ' (')
      : ''
  // the label in bold after the cut, so that its escapes do not count as columns
  const head = wrapWords(
    `${b.label}: LSO ${r.lastStableOffset} < HW ${r.highWatermark} (${r.highWatermarkSource}), ${t.recordsWaiting} records waiting${aborted}`,
    '    ',
    width,
  )
  const lines = [
    `${label}${head[0]!.slice(4 + b.label.length)}`,
    ...head.slice(1),
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
    if (head.length + state.length + partitions.length + 2 <= width) lines.push(`${head}${state}, ${partitions}`)
    else if (head.length + state.length + 1 <= width) lines.push(`${head}${state},`, `    ${partitions}`)
    else lines.push(head.trimEnd(), `    ${state},`, `    ${partitions}`)
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
    for (const c of b.commands) lines.push(...commandLines(c, '    ', width))
  }
  return lines.join('\n') + '\n'
}
