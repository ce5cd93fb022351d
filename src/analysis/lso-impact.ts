// What an open transaction costs, per topic, before how it looks: read_committed consumers see only the records below
// each partition's LSO, and every record it holds back that committed (or was never transactional) waits behind it
// until the transaction ends: the coordinator aborts it at txnStartTimestamp + transactionTimeoutMs
// (TransactionStateManager.timedOutTransactions), or an operator ends it now: `kafka-transactions.sh abort` per
// partition (KIP-664), or the whole transaction by its transactional id with kafka-transactions.sh 4.1+'s
// forceTerminateTransaction (analysis/broker-release.ts says which tools run it); and, for a Kafka Streams id,
// whether restarting the application ends it (analysis/transaction-join/streams-ids.ts restartVerdict).
import type { ForceTerminateAdvice } from './broker-release.js'
import { forceTerminateAdvice } from './broker-release.js'
import type { BlockingTransaction } from './lso.js'
import type { PartitionReport } from './partition-report.js'
import type { TransactionalIdState } from './transactional-id-state.js'
import type { RestartEffect } from './transaction-join/streams-ids.js'
import { restartFromStates } from './transaction-join/streams-ids.js'

/** what it takes of lso's partitions (partition-results.ts LsoPartitionFacts) */
export interface LsoPartitionFacts {
  label: string
  report: Pick<PartitionReport, 'topic' | 'readCommitted' | 'readUncommitted' | 'openTransactions'>
  blocking: BlockingTransaction | null
  commands: string[]
  ids: TransactionalIdState[]
}

export interface TopicImpact {
  topic: string
  /** the topic's partitions among the paths, and those this transaction holds */
  partitions: number
  held: string[]
  /** records read_committed consumers get now, of those read_uncommitted gets (every partition of the topic read) */
  readCommitted: number
  readUncommitted: number
  /** committed (or non-transactional) records in [LSO, HW) of the partitions it holds: invisible until it ends */
  committedBehind: number
  /** its own records there: discarded if it is aborted */
  ownRecords: number
}

export interface TransactionImpact {
  producerId: bigint
  producerEpoch: number
  /** from the coordinator's records among the paths; null when none names the producer */
  transactionalId: string | null
  topics: TopicImpact[]
  /** when the coordinator aborts it (start + transactionTimeoutMs); null without its __transaction_state record */
  deadlineMs: bigint | null
  /** the abort commands of each partition it holds (analysis/lso.ts abortCommands, the --start-offset form) */
  abortCommands: string[]
  /** kafka-transactions.sh forceTerminateTransaction (Kafka 4.1+'s tool), when the transactional id is known */
  forceTerminate: string | null
  /** which kafka-transactions.sh runs it, from the metadata log's metadata.version when one is among the paths */
  forceTerminateAdvice: ForceTerminateAdvice
  /** a Kafka Streams id: what restarting its application does to this transaction */
  streamsRestart: { applicationId: string; restart: RestartEffect; why: string } | null
}

/** what lsoImpact reads beyond the partitions: the coordinator's newest records, the metadata log's level (read only when asked) */
export interface ImpactContext {
  states?: readonly TransactionalIdState[]
  metadataVersion?: () => number | null
}

/** the committed records behind one partition's open transactions: those waiting, less the open transactions' own */
export function committedBehind(p: LsoPartitionFacts): number {
  const own = p.report.openTransactions.filter((t) => t.state === 'open').reduce((n, t) => n + t.records, 0)
  return Math.max(0, (p.blocking?.recordsWaiting ?? 0) - own)
}

/** Each open transaction holding an LSO, with its cost per topic and the commands that free it now. */
export function lsoImpact(
  partitions: readonly LsoPartitionFacts[],
  bootstrap: string,
  ctx: ImpactContext = {},
): TransactionImpact[] {
  const byTx = new Map<string, { t: BlockingTransaction; held: LsoPartitionFacts[] }>()
  for (const p of partitions) {
    const t = p.blocking
    if (t === null || t.state !== 'open' || t.damage !== undefined || t.twoPhaseCommit) continue
    const k = `${t.producerId}/${t.producerEpoch}`
    const g = byTx.get(k)
    if (g === undefined) byTx.set(k, { t, held: [p] })
    else g.held.push(p)
  }
  const out: TransactionImpact[] = []
  let level: number | null | undefined
  for (const { t, held } of byTx.values()) {
    const topics = [...new Set(held.map((p) => p.report.topic ?? p.label))].sort()
    const ids = held.flatMap((p) => p.ids).filter((s) => !s.deleted && s.producerId === t.producerId)
    const transactionalId = ids[0]?.transactionalId ?? null
    if (transactionalId !== null && level === undefined) level = ctx.metadataVersion?.() ?? null
    const advice = forceTerminateAdvice(transactionalId, bootstrap, level ?? null)
    const streamsRestart =
      transactionalId === null
        ? null
        : restartFromStates(
            transactionalId,
            ids[0]!.startTimestamp,
            held.map((p) => p.label),
            ctx.states ?? ids,
          )
    const deadlineMs = held.map((p) => p.blocking!.verdict.coordinatorAbortsAtMs).find((d) => d !== null) ?? null
    out.push({
      producerId: t.producerId,
      producerEpoch: t.producerEpoch,
      transactionalId,
      deadlineMs,
      topics: topics.map((topic) => {
        const all = partitions.filter((p) => (p.report.topic ?? p.label) === topic)
        const mine = held.filter((p) => (p.report.topic ?? p.label) === topic)
        return {
          topic,
          partitions: all.length,
          held: mine.map((p) => p.label),
          readCommitted: all.reduce((n, p) => n + p.report.readCommitted, 0),
          readUncommitted: all.reduce((n, p) => n + p.report.readUncommitted, 0),
          committedBehind: mine.reduce((n, p) => n + committedBehind(p), 0),
          ownRecords: mine.reduce(
            (n, p) =>
              n +
              (p.report.openTransactions.find((o) => o.producerId === t.producerId && o.state === 'open')?.records ??
                0),
            0,
          ),
        }
      }),
      abortCommands: held.flatMap((p) => p.commands.slice(0, 1)),
      forceTerminate: advice.command,
      forceTerminateAdvice: advice,
      streamsRestart,
    })
  }
  return out
}
