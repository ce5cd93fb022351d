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
  const tally = new ImpactTally()
  for (const p of partitions) tally.add(p)
  return tally.impacts(bootstrap, ctx)
}

/** what the impact keeps of a partition its transaction holds: its label, topic and counts, not its report */
interface HeldPartition {
  label: string
  topic: string
  /** the first abort command (the --start-offset form), when there is one */
  command: string | undefined
  committedBehind: number
  ownRecords: number
  deadlineMs: bigint | null
  ids: readonly TransactionalIdState[]
}

interface TopicCounts {
  partitions: number
  readCommitted: number
  readUncommitted: number
}

/**
 * lsoImpact told one partition at a time, in partition order (lso's stream): of each it keeps its topic's counts, and
 * of those an open transaction holds what the impact lines print; the same answer as lsoImpact over them all.
 */
export class ImpactTally {
  private readonly topics = new Map<string, TopicCounts>()
  private readonly byTx = new Map<string, { t: BlockingTransaction; held: HeldPartition[] }>()

  add(p: LsoPartitionFacts): void {
    const topic = p.report.topic ?? p.label
    const c = this.topics.get(topic)
    if (c === undefined)
      this.topics.set(topic, {
        partitions: 1,
        readCommitted: p.report.readCommitted,
        readUncommitted: p.report.readUncommitted,
      })
    else {
      c.partitions++
      c.readCommitted += p.report.readCommitted
      c.readUncommitted += p.report.readUncommitted
    }
    const t = p.blocking
    if (t === null || t.state !== 'open' || t.damage !== undefined || t.twoPhaseCommit) return
    const k = `${t.producerId}/${t.producerEpoch}`
    let g = this.byTx.get(k)
    if (g === undefined) {
      g = { t, held: [] }
      this.byTx.set(k, g)
    }
    const pid = g.t.producerId
    g.held.push({
      label: p.label,
      topic,
      command: p.commands[0],
      committedBehind: committedBehind(p),
      ownRecords: p.report.openTransactions.find((o) => o.producerId === pid && o.state === 'open')?.records ?? 0,
      deadlineMs: t.verdict.coordinatorAbortsAtMs,
      ids: p.ids,
    })
  }

  impacts(bootstrap: string, ctx: ImpactContext = {}): TransactionImpact[] {
    const out: TransactionImpact[] = []
    let level: number | null | undefined
    for (const { t, held } of this.byTx.values()) {
      const topics = [...new Set(held.map((p) => p.topic))].sort()
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
      out.push({
        producerId: t.producerId,
        producerEpoch: t.producerEpoch,
        transactionalId,
        deadlineMs: held.map((p) => p.deadlineMs).find((d) => d !== null) ?? null,
        topics: topics.map((topic) => {
          const all = this.topics.get(topic)!
          const mine = held.filter((p) => p.topic === topic)
          return {
            topic,
            partitions: all.partitions,
            held: mine.map((p) => p.label),
            readCommitted: all.readCommitted,
            readUncommitted: all.readUncommitted,
            committedBehind: mine.reduce((n, p) => n + p.committedBehind, 0),
            ownRecords: mine.reduce((n, p) => n + p.ownRecords, 0),
          }
        }),
        abortCommands: held.flatMap((p) => (p.command === undefined ? [] : [p.command])),
        forceTerminate: advice.command,
        forceTerminateAdvice: advice,
        streamsRestart,
      })
    }
    return out
  }
}
