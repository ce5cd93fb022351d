// lso's JSON document, written as its partitions are judged (LsoStream): the same text as JSON.stringify of
// `{schemaVersion, ..., impact, partitions, hanging, ...}`. The impact comes first and is known last, so each
// partition's text goes into the held output as it comes and is put out at the end after the impact.
import type { LsoEnd, LsoHead, LsoPartition, LsoStream } from '../analysis/partition-results.js'
import { hangingJson } from './hanging-text.js'
import { impactJson } from './lso-impact-text.js'
import type { HeldWriter } from './printer.js'
import { isoTime } from './timestamp.js'
import type { Json } from './txn-json.js'
import {
  findingJson,
  jsonInt64,
  jsonInt64OrNull,
  partitionTransactionJson,
  TRANSACTION_SCHEMA_VERSION,
} from './txn-json.js'
import { transactionalIdJson } from './txn-timeline-json.js'
import type { Writer } from './writer.js'

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

export class LsoJsonStream implements LsoStream {
  private partitions = 0

  constructor(
    private readonly w: Writer,
    private readonly held: HeldWriter,
    private readonly head: LsoHead,
  ) {}

  partition(b: LsoPartition): void {
    this.held.write((this.partitions++ === 0 ? '' : ',') + JSON.stringify(blockedJson(b)))
  }

  end(e: LsoEnd): void {
    const h = this.head
    const c = e.coordinator
    const head = JSON.stringify({
      schemaVersion: TRANSACTION_SCHEMA_VERSION,
      maxTransactionTimeoutMinutes: h.maxTransactionTimeoutMinutes,
      now: h.nowMs,
      nowIso: isoTime(h.nowMs),
      impact: impactJson(e.impact ?? []),
    })
    this.w.write(`${head.slice(0, -1)},"partitions":[`)
    this.held.writeTo(this.w)
    // the fields after the partitions, `{` made the array's `]` and a comma: `hanging` is always there
    const tail = JSON.stringify({
      hanging: e.hanging,
      hangingTransactions: e.hangingTransactions.map(hangingJson),
      ...(c !== null
        ? {
            coordinator: { ...c, topicPartition: c.partition === null ? null : `__transaction_state-${c.partition}` },
          }
        : {}),
      ...(e.coordinatorFindings !== undefined
        ? {
            coordinatorFindings: e.coordinatorFindings.map((x) => ({
              partition: x.label,
              findings: x.findings.map(findingJson),
            })),
          }
        : {}),
    })
    this.w.write(`],${tail.slice(1)}\n`)
  }
}
