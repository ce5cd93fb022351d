// `tsdump doctor --json`: one object, its schema stable (schemaVersion): summary, then findings in the order of harm,
// each {code, severity, rank, category, message, location, figures, remedy, reportedBy}, then groups (a code with
// more findings than collect.ts lists one by one), each {code, severity, rank, category, broker, count, partitions,
// examples: [findings as above], remedy, reportedBy}. Version 2 added groups: findings is no longer every finding.
import { GROUP_EXAMPLES, LISTED_UP_TO } from '../analysis/doctor/collect.js'
import type { DoctorFigures, DoctorFinding, DoctorGroup, DoctorResult } from '../analysis/doctor/types.js'
import { isoTime } from './timestamp.js'
import type { Json } from './txn-json.js'
import { jsonInt64OrNull } from './txn-json.js'
import type { PrintOptions } from './print-options.js'
import type { PrinterOutput } from './printer.js'

export const DOCTOR_SCHEMA_VERSION = 2

function figuresJson(g: DoctorFigures): Json {
  const out: Record<string, Json> = {}
  if (g.records !== undefined) out.records = g.records
  if (g.recordsAcknowledged !== undefined) out.recordsAcknowledged = g.recordsAcknowledged
  if (g.recordsWaiting !== undefined) out.recordsWaiting = g.recordsWaiting
  if (g.offsets !== undefined) out.offsets = jsonInt64OrNull(g.offsets)
  if (g.minutes !== undefined) out.minutes = g.minutes
  if (g.since !== undefined) {
    out.since = jsonInt64OrNull(g.since)
    out.sinceIso = isoTime(g.since)
  }
  return out
}

function findingJson(f: DoctorFinding): Json {
  const l = f.location
  return {
    code: f.code,
    severity: f.severity,
    rank: f.rank,
    category: f.category,
    message: f.message,
    location: {
      broker: l.broker,
      partition: l.partition,
      file: l.file,
      position: l.position,
      firstOffset: jsonInt64OrNull(l.firstOffset),
      lastOffset: jsonInt64OrNull(l.lastOffset),
    },
    figures: figuresJson(f.figures),
    remedy: { fix: f.remedy.fix, look: f.remedy.look },
    reportedBy: f.reportedBy,
  }
}

function groupJson(g: DoctorGroup): Json {
  return {
    code: g.code,
    severity: g.severity,
    rank: g.rank,
    category: g.category,
    broker: g.broker,
    count: g.count,
    partitions: g.partitions,
    examples: g.examples.map(findingJson),
    remedy: { fix: g.remedy.fix, look: g.remedy.look },
    reportedBy: g.reportedBy,
  }
}

/** doctor's result as --json prints it (the report's page lists the same) */
export function doctorJsonValue(r: DoctorResult): Json {
  const s = r.summary
  const time = (t: bigint | null): Json => (t === null ? null : isoTime(t))
  const out: Json = {
    schemaVersion: DOCTOR_SCHEMA_VERSION,
    summary: {
      brokers: s.brokers.map((b) => ({ name: b.name, path: b.path })),
      partitions: s.partitions,
      segments: s.segments,
      bytes: s.bytes,
      firstTimestamp: jsonInt64OrNull(s.firstTimestamp),
      firstTimestampIso: time(s.firstTimestamp),
      newestTimestamp: jsonInt64OrNull(s.newestTimestamp),
      newestTimestampIso: time(s.newestTimestamp),
      now: s.nowMs,
      nowIso: isoTime(s.nowMs),
      nowGiven: s.nowGiven,
      maxTransactionTimeoutMinutes: s.maxTransactionTimeoutMinutes,
      remoteStorage: s.remoteStorage,
      checked: s.checked,
      counts: { ...s.counts },
      ranks: s.ranks.map((x) => ({ ...x })),
      unreadable: r.unusable.map((u) => ({ code: u.code, file: u.file ?? null, message: u.message })),
      grouping: { listedUpTo: LISTED_UP_TO, examples: GROUP_EXAMPLES },
    },
    findings: r.findings.map(findingJson),
    groups: r.groups.map(groupJson),
  }
  return out
}

export function doctorJson(r: DoctorResult): string {
  return JSON.stringify(doctorJsonValue(r)) + '\n'
}

/** `tsdump doctor --json`, in the printers' one shape (format/print-options.ts); colour and width do not apply */
export function printDoctorJson(r: DoctorResult, out: PrinterOutput, _opts: PrintOptions): void {
  out.stdout.write(doctorJson(r))
}
