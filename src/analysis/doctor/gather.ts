// What doctor takes of each analysis' result: its findings, with what the result around them says (the partition
// and broker they are under, how much, the fix the command prints), and lso's hanging transactions, which its
// result lists apart from its findings.
import type { Finding } from '../findings.js'
import type { HangingTransaction } from '../hanging.js'
import type { CleanupResult } from '../cleanup/result.js'
import type { TransactionImpact } from '../lso-impact.js'
import type { LsoPartition, LsoResult, ReconcileResult } from '../partition-results.js'
import { streamsRestartText } from '../transaction-join/streams-ids.js'
import type { RemoteResult } from '../remote-inventory.js'
import type { PartitionComparison } from '../replicas/compare.js'
import type { JoinedTransaction } from '../transaction-join/types.js'
import type { DoctorCollector } from './collect.js'
import type { DoctorFigures, DoctorTransactions } from './types.js'

/** the broker of a path (a partition directory, a file), null when not known */
export type BrokerOf = (path: string) => string | null

import { shellWord as shell } from './remedy.js'

const offsetsOf = (f: Finding): DoctorFigures =>
  f.firstOffset !== undefined && f.lastOffset !== undefined && f.lastOffset >= f.firstOffset
    ? { offsets: f.lastOffset - f.firstOffset + 1n }
    : {}

export function gatherReconcile(c: DoctorCollector, r: ReconcileResult, brokerOf: BrokerOf): void {
  for (const p of r.partitions) {
    for (const f of p.report.findings)
      c.add(f, {
        command: 'reconcile',
        broker: brokerOf(p.path),
        partition: p.label,
        figures: f.code.startsWith('REMOTE_') ? offsetsOf(f) : {},
      })
  }
}

/** lso's fix for a transaction of its partition: the commands it prints for the one that holds the LSO */
function fixOf(
  p: LsoPartition,
  firstOffset: bigint | undefined,
  producerId: bigint | null,
  r?: LsoResult,
): string[] | undefined {
  const b = p.blocking
  if (b === null || p.commands.length === 0 || b.firstOffset !== firstOffset) return undefined
  if (producerId !== null && producerId !== b.producerId) return undefined
  // and the whole transaction at once (which kafka-transactions.sh runs it: withImpactNotes)
  const force = impactOf(r, p)?.forceTerminateAdvice.command
  return force == null ? p.commands : [...p.commands, force]
}

/** lso's impact entry of the transaction that holds the partition's LSO */
function impactOf(r: LsoResult | undefined, p: LsoPartition): TransactionImpact | undefined {
  const b = p.blocking
  return b === null
    ? undefined
    : r?.impact?.find((i) => i.producerId === b.producerId && i.producerEpoch === b.producerEpoch)
}

/**
 * what lso says besides of the transaction holding the partition's LSO: which kafka-transactions.sh runs the
 * forceTerminateTransaction fix, and for a Kafka Streams id what restarting the application does to it
 */
function withImpactNotes<F extends { message: string }>(f: F, r: LsoResult | undefined, p: LsoPartition): F {
  const i = impactOf(r, p)
  if (i === undefined) return f
  const force = i.forceTerminate === null ? '' : `. forceTerminateTransaction ${i.forceTerminateAdvice.note}`
  const streams = i.streamsRestart === null ? '' : `. ${streamsRestartText(i.streamsRestart)}`
  return { ...f, message: `${f.message}${force}${streams}` }
}

export function gatherLso(c: DoctorCollector, r: LsoResult, brokerOf: BrokerOf): void {
  let row = 0
  const rows = r.hangingTransactions
  for (const p of r.partitions) {
    const broker = brokerOf(p.path)
    for (const f of p.report.findings) c.add(f, { command: 'lso', broker, partition: p.label })
    // the hanging rule's own findings, where the result has them
    for (const f of (p as { findings?: readonly Finding[] }).findings ?? []) {
      const fix = fixOf(p, f.firstOffset, null, r)
      const t = p.report.openTransactions.find((o) => o.firstOffset === f.firstOffset)
      const held = p.blocking !== null && p.blocking.firstOffset === f.firstOffset ? p.blocking : null
      const figures: DoctorFigures = {
        ...(t !== undefined ? { records: t.records } : {}),
        ...(held !== null ? { recordsWaiting: held.recordsWaiting } : {}),
      }
      c.add(held !== null ? withImpactNotes(f, r, p) : f, {
        command: 'lso',
        broker,
        partition: p.label,
        figures,
        ...(fix !== undefined ? { remedy: { fix } } : {}),
      })
    }
    // find-hanging's rows come partition by partition, in the partitions' order
    for (; row < rows.length; row++) {
      const h = rows[row]!
      const t = p.report.openTransactions.find((o) => o.producerId === h.producerId && o.firstOffset === h.firstOffset)
      if (h.topic !== p.report.topic || h.partition !== p.report.partition || t === undefined) break
      addHanging(c, r, p, h, broker, t.records, t.lastDataOffset)
    }
  }
  // a row no partition took (not expected: said rather than dropped), without its broker
  for (; row < rows.length; row++) {
    const h = rows[row]!
    const p = r.partitions.find((x) => x.report.topic === h.topic && x.report.partition === h.partition)
    if (p !== undefined) addHanging(c, r, p, h, null, null, null)
  }
}

function addHanging(
  c: DoctorCollector,
  r: LsoResult,
  p: LsoPartition,
  h: HangingTransaction,
  broker: string | null,
  records: number | null,
  lastOffset: bigint | null,
): void {
  // lso's own TXN_HANGING of the same transaction, when its result has one, takes these figures (how long it is open)
  const blocker =
    p.blocking !== null && p.blocking.producerId === h.producerId && p.blocking.firstOffset === h.firstOffset
      ? p.blocking
      : null
  const figures: DoctorFigures = {
    minutes: h.durationMinutes,
    since: h.lastTimestamp,
    ...(records !== null ? { records } : {}),
    ...(blocker !== null ? { recordsWaiting: blocker.recordsWaiting } : {}),
  }
  const fix = fixOf(p, h.firstOffset, h.producerId, r)
  c.add(
    withImpactNotes(
      {
        code: 'TXN_HANGING',
        severity: 'warning',
        partition: p.label,
        firstOffset: h.firstOffset,
        ...(lastOffset !== null ? { lastOffset } : {}),
        message:
          `producer ${h.producerId} epoch ${h.producerEpoch} in ${p.label} from offset ${h.firstOffset}: open ${h.durationMinutes} min, more than ` +
          `${r.maxTransactionTimeoutMinutes} min (find-hanging's rule), and no coordinator record given lists ${p.label} in its transaction: nothing will end it` +
          (blocker !== null
            ? `; it holds the last stable offset at ${p.report.lastStableOffset} (high watermark ${p.report.highWatermark})`
            : ''),
      },
      blocker !== null ? r : undefined,
      p,
    ),
    { command: 'lso', broker, partition: p.label, figures, ...(fix !== undefined ? { remedy: { fix } } : {}) },
  )
}

function transactionContext(t: JoinedTransaction, paths: readonly string[]): { figures: DoctorFigures; look: string } {
  // its data, not its offset commits in __consumer_offsets
  const records = t.runs.reduce((n, r) => n + (r.topic.startsWith('__') ? 0 : r.records), 0)
  const who =
    t.transactionalId !== null ? `--transactional-id ${shell(t.transactionalId)}` : `--producer-id ${t.producerId}`
  return {
    figures: { records, ...(t.firstTimestamp !== null ? { since: t.firstTimestamp } : {}) },
    look: `tsdump transactions ${who} ${paths.map(shell).join(' ')}`,
  }
}

/**
 * Each transaction's findings as the transactions pass (none is held but the first `keep`), then the findings known
 * once all have passed; returns how many there were, by outcome.
 */
export function gatherTransactions(
  c: DoctorCollector,
  r: { findings: Finding[]; items: Iterable<JoinedTransaction> },
  paths: readonly string[],
  keep = 0,
): DoctorTransactions {
  const tally: DoctorTransactions = { count: 0, outcomes: {}, first: [] }
  for (const t of r.items) {
    tally.count++
    tally.outcomes[t.outcome] = (tally.outcomes[t.outcome] ?? 0) + 1
    if (tally.first.length < keep) tally.first.push(t)
    addTransactionFindings(c, t, paths)
  }
  for (const f of r.findings) c.add(f, { command: 'transactions' })
  return tally
}

/**
 * gatherTransactions over transactions already counted (scan/transactions-tally.ts): the findings of those that
 * have any, in the listed order, then the findings known once all have passed
 */
export function gatherTallied(
  c: DoctorCollector,
  r: DoctorTransactions & { findings: Finding[]; withFindings: Iterable<JoinedTransaction> },
  paths: readonly string[],
): DoctorTransactions {
  for (const t of r.withFindings) addTransactionFindings(c, t, paths)
  for (const f of r.findings) c.add(f, { command: 'transactions' })
  return { count: r.count, outcomes: r.outcomes, first: r.first }
}

function addTransactionFindings(c: DoctorCollector, t: JoinedTransaction, paths: readonly string[]): void {
  // most transactions have no finding: their figures and command are not made
  if (t.findings.length === 0) return
  const ctx = transactionContext(t, paths)
  for (const f of t.findings) c.add(f, { command: 'transactions', figures: ctx.figures, remedy: { look: [ctx.look] } })
}

/**
 * cleanup's partitions carry no path: they come from the same partition scan of the same paths as reconcile's, so
 * the n-th partition of a label in one is the n-th of that label in the other.
 */
export function gatherCleanup(
  c: DoctorCollector,
  r: Pick<CleanupResult, 'partitions'>,
  pathsOfLabel: (label: string) => string[],
  brokerOf: BrokerOf,
): void {
  const seen = new Map<string, number>()
  for (const p of r.partitions) {
    const n = seen.get(p.label) ?? 0
    seen.set(p.label, n + 1)
    const dir = pathsOfLabel(p.label)[n]
    const fix = p.blockedBy?.commands
    for (const f of p.findings) {
      c.add(f, {
        command: 'cleanup',
        broker: dir === undefined ? null : brokerOf(dir),
        partition: p.label,
        ...(fix !== undefined && fix.length > 0 && f.firstOffset === p.blockedBy!.firstOffset
          ? { remedy: { fix } }
          : {}),
      })
    }
  }
}

export function gatherReplicas(
  c: DoctorCollector,
  partitions: readonly PartitionComparison[],
  brokerOf: BrokerOf,
): void {
  for (const cmp of partitions) {
    const label = `${cmp.topic}-${cmp.partition}`
    const leader = cmp.replicas.find((r) => r.isLeader)
    for (const f of cmp.findings) {
      // a copy's divergence: from its divergence point to its log end
      const copy =
        f.code === 'REPLICA_DIVERGED'
          ? cmp.replicas.find(
              (r) =>
                r.divergenceOffset !== null &&
                r.divergenceOffset === f.firstOffset &&
                r.logEndOffset - 1n === f.lastOffset,
            )
          : undefined
      const figures: DoctorFigures =
        copy === undefined
          ? {}
          : { records: copy.recordsPastDivergence, recordsAcknowledged: copy.recordsPastDivergenceBelowHighWatermark }
      const look =
        f.code === 'REPLICA_MARKER_LOST' && leader !== undefined
          ? { remedy: { look: [`tsdump lso ${shell(`${leader.logDir}/${label}`)}`] } }
          : {}
      c.add(f, {
        command: 'replicas',
        broker: copy?.broker ?? (f.file !== undefined ? brokerOf(f.file) : null),
        partition: label,
        figures,
        ...look,
      })
    }
  }
}

export function gatherRemote(c: DoctorCollector, r: RemoteResult): void {
  for (const f of r.findings) c.add(f, { command: 'remote', figures: offsetsOf(f) })
  for (const p of r.partitions) {
    for (const f of p.findings)
      c.add(f, { command: 'remote', partition: `${p.topic}-${p.partition}`, figures: offsetsOf(f) })
  }
}
