// The page's doctor picture from doctor's own result: its summary lines and its ranked list through the same
// functions doctor's text uses (format/doctor-text.ts, analysis/doctor/collect.ts rankedEntries), and the sections of
// each analysis doctor ran, from the results of that one run. Int64 values JSON-safe, as everywhere in the model.
import type { CleanupPartition, CleanupResult } from '../../analysis/cleanup/result.js'
import { rankedEntries } from '../../analysis/doctor/collect.js'
import type { DoctorFinding, DoctorGroup, DoctorResult, DoctorTransactions } from '../../analysis/doctor/types.js'
import type { RemoteResult } from '../../analysis/remote-inventory.js'
import type { PartitionComparison } from '../../analysis/replicas/compare.js'
import { figuresText, summaryLines, whereText } from '../doctor-text.js'
import { jsonInt64, jsonInt64OrNull } from '../txn-json.js'
import type {
  CapabilitiesModel,
  CleanupRow,
  DoctorModel,
  DoctorRow,
  ReplicaRow,
  TieredRow,
  TransactionsModel,
} from './model.js'

const unwrapped = (t: string, indent: string): string[] => [indent + t.replaceAll('\u00a0', ' ')]

function findingRow(f: DoctorFinding): DoctorRow {
  const l = f.location
  return {
    kind: 'finding',
    code: f.code,
    severity: f.severity,
    rank: f.rank,
    category: f.category,
    message: f.message,
    broker: l.broker,
    partition: l.partition,
    file: l.file,
    position: l.position,
    firstOffset: jsonInt64OrNull(l.firstOffset),
    lastOffset: jsonInt64OrNull(l.lastOffset),
    count: 1,
    where: whereText(l),
    figures: figuresText(f.figures).replaceAll('\u00a0', ' '),
    minutes: f.figures.minutes ?? null,
    fix: f.remedy.fix,
    look: f.remedy.look,
    examples: [],
  }
}

function groupRow(g: DoctorGroup): DoctorRow {
  const first = findingRow(g.examples[0]!)
  return {
    ...first,
    kind: 'group',
    count: g.count,
    broker: g.broker,
    fix: g.remedy.fix,
    look: g.remedy.look,
    figures: '',
    where: `${g.count} findings in ${g.partitions} partition${g.partitions === 1 ? '' : 's'}`,
    examples: g.examples.map((e) => whereText(e.location)),
  }
}

/** doctor's summary and ranked list, as its text gives them */
export function doctorModel(r: DoctorResult): DoctorModel {
  return {
    summary: summaryLines(r.summary, unwrapped).map((l) => l.trim()),
    nowMs: r.summary.nowMs,
    nowGiven: r.summary.nowGiven,
    counts: { ...r.summary.counts },
    rows: rankedEntries(r).map((e) => (e.kind === 'finding' ? findingRow(e.finding) : groupRow(e.group))),
  }
}

function transactionsModel(t: DoctorTransactions): TransactionsModel {
  return {
    count: t.count,
    outcomes: { ...t.outcomes },
    shown: t.first.map((x) => ({
      transactionalId: x.transactionalId,
      producerId: jsonInt64(x.producerId),
      producerEpoch: x.producerEpoch,
      outcome: x.outcome,
      runs: x.runs.map((r) => ({
        partition: `${r.topic}-${r.partition}`,
        firstOffset: jsonInt64(r.firstOffset),
        lastDataOffset: jsonInt64OrNull(r.lastDataOffset),
        records: r.records,
      })),
      codes: [...new Set(x.findings.map((f) => f.code))],
    })),
  }
}

function cleanupRows(c: CleanupResult): CleanupRow[] {
  return c.partitions.map(cleanupRow)
}

/** one partition's row of cleanup's section */
export function cleanupRow(p: CleanupPartition): CleanupRow {
  const k = p.compaction
  const b = p.blockedBy
  return {
    partition: p.label,
    policy: p.cleanupPolicy,
    logStartOffset: jsonInt64(p.logStartOffset),
    logEndOffset: jsonInt64(p.logEndOffset),
    highWatermark: jsonInt64(p.highWatermark),
    lastStableOffset: jsonInt64(p.lastStableOffset),
    firstDirtyOffset: k === null ? null : jsonInt64(k.firstDirtyOffset),
    firstUncleanableOffset: k === null ? null : jsonInt64(k.firstUncleanableOffset),
    uncleanableBecause: k?.uncleanableBecause ?? null,
    dirtyRatio: k?.dirtyRatio ?? null,
    cleanableNow: k?.cleanableNow ?? null,
    retentionDeletes: p.retention?.deleted.length ?? 0,
    logStartAfterRetention: p.retention === null ? null : jsonInt64(p.retention.logStartOffsetAfterRetention),
    blockedBy:
      b === null
        ? null
        : `producer ${b.producerId} epoch ${b.producerEpoch} from offset ${b.firstOffset}${b.hanging ? ' (hanging)' : ''}`,
  }
}

function replicaRows(ps: readonly PartitionComparison[]): ReplicaRow[] {
  return ps.map((p) => ({
    partition: `${p.topic}-${p.partition}`,
    leader: p.leader,
    copies: p.replicas.map((r) => ({
      broker: r.broker,
      isLeader: r.isLeader,
      logStartOffset: jsonInt64(r.logStartOffset),
      logEndOffset: jsonInt64(r.logEndOffset),
      highWatermark: jsonInt64OrNull(r.highWatermark),
      divergenceOffset: jsonInt64OrNull(r.divergenceOffset),
    })),
  }))
}

function tieredRows(r: RemoteResult): TieredRow[] {
  return r.partitions.map((p) => ({
    partition: `${p.topic}-${p.partition}`,
    localStartOffset: jsonInt64OrNull(p.localStartOffset),
    segments: p.segments.map((s) => ({
      startOffset: jsonInt64(s.startOffset),
      endOffset: jsonInt64OrNull(s.endOffset),
      state: s.state,
      verdict: s.verdict,
    })),
  }))
}

/** the sections of the analyses doctor ran (null: not run) */
export function capabilitiesModel(run: {
  transactions: DoctorTransactions | null
  cleanup: CleanupResult | null
  replicas: readonly PartitionComparison[] | null
  remote: RemoteResult | null
}): CapabilitiesModel {
  return {
    transactions: run.transactions === null ? null : transactionsModel(run.transactions),
    cleanup: run.cleanup === null ? null : cleanupRows(run.cleanup),
    replicas: run.replicas === null ? null : replicaRows(run.replicas),
    tiered: run.remote === null ? null : tieredRows(run.remote),
  }
}
