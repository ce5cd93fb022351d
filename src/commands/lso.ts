// `tsdump lso`: for each partition whose LSO < HW, the blocking transaction and how to abort it.
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import { transactionStatePartitionFor, javaStringHashCode } from '../analysis/coordinator.js'
import { hasErrors } from '../analysis/findings.js'
import type { BlockingTransaction } from '../analysis/lso.js'
import { abortCommands, coordinatorEpochOf, findBlockingTransaction } from '../analysis/lso.js'
import type { HangingTransaction } from '../analysis/hanging.js'
import { hangingTransactions } from '../analysis/hanging.js'
import { explainCoordinatorEpoch, formatHangingTable, hangingJson } from '../format/hanging-text.js'
import type { TransactionalIdState } from '../analysis/transaction-state.js'
import { lastTransactionStates } from '../analysis/transaction-state.js'
import type { CliContext } from '../cli/context.js'
import type { Json } from '../format/txn-json.js'
import { findingJson, jsonInt64, jsonInt64OrNull } from '../format/txn-json.js'
import { formatFindings } from '../format/txn-text.js'
import { transactionalIdJson } from '../format/txn-timeline-json.js'
import type { Reconciled } from './reconcile.js'
import { reconcilePaths } from './reconcile.js'
import { readTransactionLog } from './transaction-log-scan.js'
import { isoTime } from '../format/timestamp.js'

export interface LsoOptions {
  paths: string[]
  json?: boolean
  color?: boolean
  bootstrapServer?: string
  maxTransactionTimeoutMinutes?: number
  transactionalId?: string
  transactionStatePartitions?: number
  /** epoch ms that ages are measured against (--now); default the clock */
  now?: number
  /** every column of the table, whatever its width */
  wide?: boolean
}

interface Blocked { d: Reconciled, blocking: BlockingTransaction | null, commands: string[], ids: TransactionalIdState[] }

function ts (v: bigint | null): string { return v === null ? 'unknown' : `${isoTime(v)} (${v})` }

function formatBlocked (b: Blocked, timeoutMin: number, chalk: ChalkInstance, nowLabel: string): string {
  const r = b.d.report
  const label = chalk.bold(b.d.scanned.label)
  const t = b.blocking
  if (t === null) return `${label}: LSO ${r.lastStableOffset} = HW ${r.highWatermark}, nothing is blocked\n`
  const age = t.ageMs === null ? 'unknown' : `${(Number(t.ageMs) / 60000).toFixed(1)} min`
  const owner = t.verdict.coordinatorOwner
  const verdict = t.state === 'awaiting-high-watermark'
    ? chalk.green('ended; its marker is not below the high watermark yet')
    : t.hanging ? chalk.red(`HANGING (older than ${timeoutMin} min)`)
      : owner !== null ? chalk.yellow(`older than ${timeoutMin} min, but ${owner.transactionalId} (${owner.state ?? '?'}) still lists this partition: its coordinator aborts it at the transaction timeout`)
        : chalk.yellow(`open, within ${timeoutMin} min`)
  const aborted = t.abortedBeyondLso > 0 ? ` (${t.abortedBeyondLso} more already aborted)` : ''
  const lines = [
    `${label}: LSO ${r.lastStableOffset} < HW ${r.highWatermark} (${r.highWatermarkSource}), ${t.recordsWaiting} records waiting${aborted}`,
    `  blocking transaction: producerId ${t.producerId} producerEpoch ${t.producerEpoch}`,
    `  first offset ${t.firstOffset}${t.seeded ? ' (before the log start, from a producer snapshot)' : ''}, last data offset ${t.lastOffset ?? 'unknown'}, ${t.records} records`,
    `  first timestamp ${ts(t.firstTimestamp)}`,
    `  last timestamp  ${ts(t.lastTimestamp)}`,
    `  age ${age} at ${nowLabel}: ${verdict}`,
  ]
  // an open one gets the full story of its coordinator epoch (it goes into the abort command)
  if (t.state === 'open') lines.push(...explainCoordinatorEpoch(t))
  else lines.push(`  coordinatorEpoch ${t.coordinatorEpoch === null ? 'unknown' : `${t.coordinatorEpoch} (from the ${t.coordinatorEpochSource})`}`)
  for (const s of b.ids) lines.push(`  transactional id ${s.transactionalId}: ${s.deleted ? 'deleted' : `state ${s.state}, epoch ${s.producerEpoch}, partitions [${s.partitions.join(',')}]`}`)
  if (r.openTransactions.length > 1) lines.push(`  ${r.openTransactions.length - 1} more open transaction(s) behind it`)
  if (t.state === 'open') {
    lines.push('  to abort it:')
    for (const c of b.commands) lines.push(`    ${c}`)
  }
  return lines.join('\n') + '\n'
}

function blockedJson (b: Blocked): Json {
  const r = b.d.report
  const t = b.blocking
  return {
    topic: r.topic, partition: r.partition, path: b.d.scanned.dir.path, highWatermark: jsonInt64(r.highWatermark),
    highWatermarkSource: r.highWatermarkSource, lastStableOffset: jsonInt64(r.lastStableOffset), blocked: t !== null,
    blocking: t === null ? null : {
      producerId: jsonInt64(t.producerId), producerEpoch: t.producerEpoch, coordinatorEpoch: t.coordinatorEpoch, coordinatorEpochSource: t.coordinatorEpochSource,
      firstOffset: jsonInt64(t.firstOffset), lastOffset: jsonInt64OrNull(t.lastOffset), records: t.records, recordsWaiting: t.recordsWaiting,
      firstTimestamp: jsonInt64OrNull(t.firstTimestamp), lastTimestamp: jsonInt64OrNull(t.lastTimestamp), newestTimestamp: jsonInt64OrNull(t.newestTimestamp),
      firstTimestampIso: t.firstTimestamp === null ? null : isoTime(t.firstTimestamp), lastTimestampIso: t.lastTimestamp === null ? null : isoTime(t.lastTimestamp),
      abortedBeyondLso: t.abortedBeyondLso, ageMs: jsonInt64OrNull(t.ageMs), durationMinutes: t.ageMs === null ? null : Number(t.ageMs / 60_000n),
      candidate: t.verdict.candidate, coordinatorOwner: t.verdict.coordinatorOwner?.transactionalId ?? null, abortCoordinatorEpoch: Math.max(0, t.coordinatorEpoch ?? 0), state: t.state, seeded: t.seeded, hanging: t.hanging, transactionalIds: b.ids.map(transactionalIdJson), commands: b.commands,
    },
    openTransactions: r.openTransactions.length,
    findings: r.findings.map(findingJson),
  }
}

export async function runLso (opts: LsoOptions, ctx: CliContext): Promise<number> {
  const done = reconcilePaths(opts.paths, ctx)
  if (done === 2) return 2
  const chalk = new Chalk({ level: opts.color === false ? 0 : ctx.colorLevel })
  const timeoutMin = opts.maxTransactionTimeoutMinutes ?? 15
  const bootstrap = opts.bootstrapServer ?? 'localhost:9092'
  const states = done.filter((d) => d.scanned.dir.topic === '__transaction_state').flatMap((d) => lastTransactionStates(readTransactionLog(d.scanned.dir).records))
  const nowMs = opts.now ?? ctx.now()
  const nowLabel = `${isoTime(nowMs)} (${opts.now !== undefined ? '--now' : 'now'})`
  const table: HangingTransaction[] = []
  const blocked: Blocked[] = done.filter((d) => d.scanned.dir.topic !== '__transaction_state').map((d) => {
    const label = d.scanned.label
    const blocking = findBlockingTransaction(d.report, d.scanned.snapshots, timeoutMin * 60_000, nowMs, label, states)
    table.push(...hangingTransactions(d.report, label, nowMs, timeoutMin * 60_000, states, (t) => coordinatorEpochOf(d.report, t, d.scanned.snapshots).epoch))
    const commands = blocking === null ? [] : abortCommands(bootstrap, d.report.topic, d.report.partition, blocking)
    const ids = blocking === null ? [] : states.filter((s) => s.producerId === blocking.producerId)
    return { d, blocking, commands, ids }
  })
  const n = opts.transactionStatePartitions ?? 50
  const coord = opts.transactionalId === undefined ? null
    : { transactionalId: opts.transactionalId, hashCode: javaStringHashCode(opts.transactionalId), partitionCount: n,
        partition: transactionStatePartitionFor(opts.transactionalId, n) }
  const hanging = table.length > 0
  if (opts.json === true) {
    ctx.stdout.write(JSON.stringify({ maxTransactionTimeoutMinutes: timeoutMin, now: nowMs, nowIso: isoTime(nowMs), partitions: blocked.map(blockedJson), hanging,
      hangingTransactions: table.map(hangingJson),
      ...(coord !== null ? { coordinator: { ...coord, topicPartition: `__transaction_state-${coord.partition}` } } : {}) }) + '\n')
  } else {
    for (const b of blocked) ctx.stdout.write(formatBlocked(b, timeoutMin, chalk, nowLabel))
    // find-hanging's rule, in one line: open, and its last timestamp older than the timeout
    const rule = `open > ${timeoutMin} min at ${nowLabel}`
    ctx.stdout.write(table.length === 0 ? `\nno hanging transactions (${rule})\n`
      : `\nhanging transactions (find-hanging: ${rule}):\n${formatHangingTable(table, chalk, opts.wide === true)}`)
    if (coord !== null) {
      ctx.stdout.write(`transactional id ${coord.transactionalId} is coordinated by __transaction_state-${coord.partition}` +
        ` (abs(hashCode ${coord.hashCode}) % ${n})\n`)
    }
    const plain = new Chalk({ level: 0 })
    for (const b of blocked) ctx.stderr.write(formatFindings(b.d.scanned.label, b.d.report.findings.filter((f) => f.severity !== 'info'), plain))
  }
  return hanging || blocked.some((b) => hasErrors(b.d.report.findings)) ? 1 : 0
}
