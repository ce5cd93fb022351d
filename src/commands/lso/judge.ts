// lso's judgement one partition at a time, in partition order, as the broker model's scan hands them on: each data
// partition's blocking transaction, abort commands and hanging findings made as its scan ends, and of it kept only
// what the end needs (its topic's counts and, when an open transaction holds it, what the impact lines print; its
// find-hanging rows; the exit code; the newest timestamp). The library's lso() and doctor collect the partitions it
// makes; `tsdump lso` writes each and lets it go.
import { transactionStatePartitionFor, javaStringHashCode } from '../../analysis/coordinator.js'
import type { Finding } from '../../analysis/findings.js'
import { EXIT_FINDINGS, exitCodeFor } from '../../analysis/findings.js'
import type { HangingTransaction } from '../../analysis/hanging.js'
import { abortCommands, judgePartition } from '../../analysis/lso.js'
import { ImpactTally } from '../../analysis/lso-impact.js'
import type { LsoEnd, LsoHead, LsoPartition } from '../../analysis/partition-results.js'
import type { TransactionalIdState } from '../../analysis/transactional-id-state.js'
import type { BrokerModel } from '../../scan/broker-model.js'
import type { CoordinatorStates } from '../../scan/broker-model-types.js'
import { coordinatorPartitionCountFrom } from '../../scan/metadata-partitions.js'
import { metadataVersionOf } from '../../scan/metadata-version.js'
import type { ScannedPartition } from '../../scan/partition-scan.js'
import type { TopicPartitionFilter } from '../topic-partition-filter.js'
import { selectsPartition } from '../topic-partition-filter.js'

/** what the judgement takes of lso's options (commands/lso.ts LsoOptions) */
export interface JudgeOptions {
  bootstrapServer?: string
  maxTransactionTimeoutMinutes?: number
  transactionalId?: string
  transactionStatePartitions?: number
  now?: number
  /** the time when `now` is not given (the command's context's; default the clock) */
  clock?: () => number
  only?: TopicPartitionFilter
}

export class LsoJudge {
  readonly head: LsoHead
  private readonly timeoutMs: number
  private readonly bootstrap: string
  private coordinator: CoordinatorStates | undefined
  /** the partitions the coordinator's timeout aborts name, and which of them lso reports (set as they come) */
  private timedOutLabels: Map<string, boolean> | undefined
  private readonly tally = new ImpactTally()
  private readonly hanging: HangingTransaction[] = []
  /** exitCodeFor the reported partitions' findings so far */
  private worst = 0
  /** the newest timestamp of the reported partitions (warnIfNowBeforeData) */
  newest: bigint | null = null

  /** `usable`: false when a path could not be used (nothing is scanned then, and no coordinator read) */
  constructor(
    private readonly model: BrokerModel,
    private readonly opts: JudgeOptions,
    private readonly usable = true,
  ) {
    // ages are measured against the clock (or --now), as find-hanging does (analysis/hanging.ts)
    this.head = {
      maxTransactionTimeoutMinutes: opts.maxTransactionTimeoutMinutes ?? 15,
      nowMs: opts.now ?? (opts.clock ?? Date.now)(),
      nowGiven: opts.now !== undefined,
    }
    this.timeoutMs = this.head.maxTransactionTimeoutMinutes * 60_000
    this.bootstrap = opts.bootstrapServer ?? 'localhost:9092'
  }

  /**
   * The coordinator's states (the __transaction_state partitions given or beside them, each read once:
   * scan/broker-model.ts), read at the first data partition: the model's scan reads its coordinator partitions first
   */
  private states(): CoordinatorStates {
    if (this.coordinator !== undefined) return this.coordinator
    const c = this.usable ? this.model.transactionState() : { partitions: [], states: [] }
    this.timedOutLabels = new Map()
    for (const p of c.partitions)
      for (const a of p.read.timedOut) for (const l of a.partitions) this.timedOutLabels.set(l, false)
    this.coordinator = c
    return c
  }

  /** a partition as its scan ends: its judgement, or null for one lso does not report (a coordinator's, --topic's) */
  partition(s: ScannedPartition): LsoPartition | null {
    const r = s.report
    if (s.dir.topic === '__transaction_state' || !selectsPartition(this.opts.only, r.topic, r.partition)) return null
    const states = this.states().states
    if (this.timedOutLabels!.has(s.label)) this.timedOutLabels!.set(s.label, true)
    const { nowMs } = this.head
    const j = judgePartition(r, s.snapshots, s.label, nowMs, this.timeoutMs, states)
    const blocking = j.blocking
    for (const h of j.hanging) this.hanging.push(h)
    const commands = blocking === null ? [] : abortCommands(this.bootstrap, r.topic, r.partition, blocking)
    const ids: TransactionalIdState[] =
      blocking === null ? [] : states.filter((x) => x.producerId === blocking.producerId)
    const p = { label: s.label, path: s.dir.path, report: r, blocking, commands, ids, findings: j.findings }
    this.tally.add(p)
    this.worst = Math.max(this.worst, exitCodeFor(r.findings), exitCodeFor(j.findings))
    const t = r.newestTimestamp
    if (t !== null && (this.newest === null || t > this.newest)) this.newest = t
    return p
  }

  /** what comes after the partitions: the impact, find-hanging's table, the coordinator lookup and its findings */
  end(): LsoEnd {
    const coordinator = this.states()
    const coordinatorFindings: NonNullable<LsoEnd['coordinatorFindings']> = []
    for (const p of coordinator.partitions) {
      // the partition's own findings (its framing damage among them) and what reading its records found besides;
      // lso answers for the data partitions it reports: a coordinator timeout abort elsewhere is not its to say
      const own = p.scanned?.report.findings ?? []
      const said = new Set(own.map((f) => `${f.code} ${f.file ?? ''} ${f.position ?? ''}`))
      for (const a of p.read.timedOut)
        if (!a.partitions.some((l) => this.timedOutLabels!.get(l) === true))
          said.add(`TXN_TIMED_OUT ${a.file} ${a.position}`)
      const findings = [
        ...own,
        ...p.read.findings.listed.filter((f) => !said.has(`${f.code} ${f.file ?? ''} ${f.position ?? ''}`)),
      ]
      if (findings.length > 0) coordinatorFindings.push({ label: p.label, findings })
    }
    const model = this.model
    return {
      impact: this.tally.impacts(this.bootstrap, {
        states: coordinator.states,
        metadataVersion: () => metadataVersionOf(model.metadataConfigs()),
      }),
      hanging: this.hanging.length > 0,
      hangingTransactions: this.hanging,
      coordinator: this.lookup(),
      ...(coordinatorFindings.length > 0 ? { coordinatorFindings } : {}),
    }
  }

  /** --transactional-id: the partition of __transaction_state that coordinates it */
  private lookup(): LsoEnd['coordinator'] {
    const id = this.opts.transactionalId
    if (id === undefined) return null
    const n = coordinatorPartitionCountFrom(
      '__transaction_state',
      this.model.paths,
      () => this.model.partitionCounts(),
      this.opts.transactionStatePartitions,
    )
    return {
      transactionalId: id,
      hashCode: javaStringHashCode(id),
      partitionCount: n?.count ?? null,
      partitionCountFrom: n,
      partition: n === null ? null : transactionStatePartitionFor(id, n.count),
    }
  }

  /** the exit code once end() ran: partition-command.ts partitionExitCode's rule over what was judged */
  exitCode(end: LsoEnd, unreadable: readonly Finding[]): number {
    const coordinator = (end.coordinatorFindings ?? []).flatMap((c) => c.findings)
    const found = Math.max(this.worst, exitCodeFor(coordinator), exitCodeFor(unreadable))
    return Math.max(end.hanging ? EXIT_FINDINGS : 0, Math.min(found, EXIT_FINDINGS))
  }
}
