// JSON printer of reconcile / txns / lso: one JSON document on stdout per run (findings are inside it).
import { impactJson } from './lso-impact-text.js'
import type {
  LsoPartition,
  LsoResult,
  PartitionResult,
  ReconcileResult,
  ReconcileStream,
  TransactionStatePartition,
  TxnsResult,
} from '../analysis/partition-results.js'
import type { Lane, TimelineRun } from '../analysis/timeline.js'
import { hangingJson } from './hanging-text.js'
import { writeJson } from './json-stream.js'
import { isoTime } from './timestamp.js'
import type { PartitionPrinter, PrinterOutput, TxnsStream } from './printer.js'
import { replayReconcile, replayTxns } from './txns-stream.js'
import { ReconcileJsonStream } from './reconcile-json.js'
import type { Json } from './txn-json.js'
import {
  findingJson,
  jsonInt64,
  jsonInt64OrNull,
  partitionTransactionJson,
  TRANSACTION_SCHEMA_VERSION,
} from './txn-json.js'
import { timelineHeadJson, transactionalIdJson } from './txn-timeline-json.js'
import { writeRunJson } from './run-json-bytes.js'

function blockedJson(b: LsoPartition): Json {
  const r = b.report
  const t = b.blocking
  return {
    topic: r.topic,
    partition: r.partition,
    path: b.path,
    highWatermark: jsonInt64(r.highWatermark),
    highWatermarkSource: r.highWatermarkSource,
    lastStableOffset: jsonInt64(r.lastStableOffset),
    blocked: t !== null,
    blocking:
      t === null
        ? null
        : {
            ...partitionTransactionJson(t),
            coordinatorEpoch: t.coordinatorEpoch,
            coordinatorEpochSource: t.coordinatorEpochSource,
            recordsWaiting: t.recordsWaiting,
            firstTimestamp: jsonInt64OrNull(t.firstTimestamp),
            lastTimestamp: jsonInt64OrNull(t.lastTimestamp),
            newestTimestamp: jsonInt64OrNull(t.newestTimestamp),
            firstTimestampIso: t.firstTimestamp === null ? null : isoTime(t.firstTimestamp),
            lastTimestampIso: t.lastTimestamp === null ? null : isoTime(t.lastTimestamp),
            abortedBeyondLso: t.abortedBeyondLso,
            ageMs: jsonInt64OrNull(t.ageMs),
            ageSource: t.ageSource,
            durationMinutes: t.ageMs === null ? null : Number(t.ageMs / 60_000n),
            overdue: t.verdict.overdue,
            ...(t.verdict.coordinatorLost !== null
              ? {
                  coordinatorUnknownPast: {
                    file: t.verdict.coordinatorLost.file,
                    position: t.verdict.coordinatorLost.position,
                    code: t.verdict.coordinatorLost.code,
                  },
                }
              : {}),
            candidate: t.verdict.candidate,
            coordinatorOwner: t.verdict.coordinatorOwner?.transactionalId ?? null,
            coordinatorAbortsAt: jsonInt64OrNull(t.verdict.coordinatorAbortsAtMs),
            coordinatorAbortsAtIso:
              t.verdict.coordinatorAbortsAtMs === null ? null : isoTime(t.verdict.coordinatorAbortsAtMs),
            abortCoordinatorEpoch: Math.max(0, t.coordinatorEpoch ?? 0),
            state: t.state,
            seeded: t.seeded,
            hanging: t.hanging,
            twoPhaseCommit: t.twoPhaseCommit,
            transactionalIds: b.ids.map(transactionalIdJson),
            commands: b.commands,
          },
    openTransactions: r.openTransactions.length,
    findings: [...r.findings, ...b.findings].map(findingJson),
    omittedFindings: { ...r.omittedFindings },
  }
}

export class JsonPartitionPrinter implements PartitionPrinter {
  constructor(private readonly out: PrinterOutput) {}

  reconcile(r: ReconcileResult): void {
    replayReconcile(this.reconcileStream(r.filter !== undefined), r)
  }

  reconcileStream(filtered: boolean): ReconcileStream {
    return new ReconcileJsonStream(this.out.stdout, filtered)
  }

  txns(r: TxnsResult): void {
    replayTxns(this.txnsStream(), r)
  }

  /**
   * One JSON object, `{"schemaVersion":2,"partitions":[...]}`, written in pieces as the runs stream: the same text as
   * JSON.stringify of the whole document (the partition's fields, then runs, lane, findings).
   */
  txnsStream(): TxnsStream {
    const w = this.out.stdout
    let partitions = 0
    let runs = 0
    const next = (): void => {
      w.write(partitions++ === 0 ? `{"schemaVersion":${TRANSACTION_SCHEMA_VERSION},"partitions":[` : ',')
    }
    return {
      timelineStart: (p: PartitionResult) => {
        next()
        runs = 0
        w.write(JSON.stringify(timelineHeadJson(p.report, p.path)).slice(0, -1) + ',"runs":[')
      },
      run: (x: TimelineRun) => {
        writeRunJson(w, x, runs++ === 0)
      },
      timelineEnd: (p: PartitionResult, lane: Lane) => {
        w.write(`],"lane":${JSON.stringify(lane.chars.join(''))},"findings":`)
        writeJson(w, p.report.findings.map(findingJson))
        w.write(`,"omittedFindings":${JSON.stringify(p.report.omittedFindings)}}`)
      },
      transactionStates: (p: TransactionStatePartition) => {
        next()
        writeJson(w, {
          topic: p.report.topic,
          partition: p.report.partition,
          path: p.path,
          transactionalIds: p.states.map(transactionalIdJson),
          findings: p.findings.map(findingJson),
          omittedFindings: { ...p.omittedFindings },
        })
      },
      end: () => {
        w.write(partitions === 0 ? `{"schemaVersion":${TRANSACTION_SCHEMA_VERSION},"partitions":[]}\n` : ']}\n')
      },
    }
  }

  lso(r: LsoResult): void {
    const c = r.coordinator
    this.out.stdout.write(
      JSON.stringify({
        schemaVersion: TRANSACTION_SCHEMA_VERSION,
        maxTransactionTimeoutMinutes: r.maxTransactionTimeoutMinutes,
        now: r.nowMs,
        nowIso: isoTime(r.nowMs),
        impact: impactJson(r.impact ?? []),
        partitions: r.partitions.map(blockedJson),
        hanging: r.hanging,
        hangingTransactions: r.hangingTransactions.map(hangingJson),
        ...(c !== null
          ? {
              coordinator: { ...c, topicPartition: c.partition === null ? null : `__transaction_state-${c.partition}` },
            }
          : {}),
        ...(r.coordinatorFindings !== undefined
          ? {
              coordinatorFindings: r.coordinatorFindings.map((x) => ({
                partition: x.label,
                findings: x.findings.map(findingJson),
              })),
            }
          : {}),
      }) + '\n',
    )
  }
}
