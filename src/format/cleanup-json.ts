// `cleanup --json`: one object, {schemaVersion, nowMs, metadataLog, partitions: [...]}.
import type { CleanupBlocker, CleanupPartition, CleanupResult } from '../analysis/cleanup/result.js'
import { JSON_SCHEMA_VERSION } from './dump-json.js'
import { toJson } from './json-int64.js'
import { keyText } from './cleanup-text.js'
import { findingJson, partitionTransactionJson } from './txn-json.js'
import type { PrintOptions } from './print-options.js'
import type { PrinterOutput } from './printer.js'

// the partition-level transaction's fields, named as every command names them, then cleanup's own
function blockerJson(b: CleanupBlocker | null): object | null {
  return b === null
    ? null
    : {
        ...partitionTransactionJson(b),
        lastTimestamp: b.lastTimestamp,
        ageMs: b.ageMs,
        ageSource: b.ageSource,
        hanging: b.hanging,
        overdue: b.overdue,
        commands: b.commands,
      }
}

/** one partition's object of `cleanup --json`'s partitions */
function partitionJson(p: CleanupPartition, top: number): object {
  const c = p.compaction
  return {
    topic: p.topic,
    partition: p.partition,
    cleanupPolicy: p.cleanupPolicy,
    configs: p.configs,
    logStartOffset: p.logStartOffset,
    lastStableOffset: p.lastStableOffset,
    highWatermark: p.highWatermark,
    logEndOffset: p.logEndOffset,
    firstDirtyOffset: c?.firstDirtyOffset ?? null,
    firstUncleanableOffset: c?.firstUncleanableOffset ?? null,
    uncleanableBecause: c?.uncleanableBecause ?? null,
    dirtyRatio: c === null ? null : Math.round(c.dirtyRatio * 10000) / 10000,
    cleanableBytes: c?.cleanableBytes ?? null,
    cleanableNow: c?.cleanableNow ?? false,
    compactionForced: c?.compactionForced ?? false,
    cleanedUpTo: c?.cleanedUpTo ?? null,
    recordsAfterCleaning: c?.recordsAfterCleaning ?? null,
    tombstones: c === null ? null : c.tombstones,
    markers: c === null ? null : c.markers,
    abortedRecordsRemovable: c?.abortedRecordsRemovable ?? null,
    dirtyKeys: c === null ? null : { count: c.dirtyKeys, offsetMapFull: c.offsetMapFull },
    ...(top > 0
      ? {
          topDirtyKeys: (c?.topDirtyKeys ?? []).slice(0, top).map((k) => ({ key: keyText(k.key), records: k.records })),
        }
      : {}),
    retentionDeletes: p.retention?.deleted ?? [],
    logStartOffsetAfterRetention:
      p.retention?.logStartOffsetAfterRetention ??
      (p.tieredRetention !== undefined && !('unknown' in p.tieredRetention)
        ? p.tieredRetention.logStartOffsetAfter
        : null),
    ...(p.tieredRetention !== undefined ? { tieredRetention: p.tieredRetention } : {}),
    blockedBy: blockerJson(p.blockedBy),
    openTransaction: blockerJson(p.openTransaction),
    findings: p.findings.map(findingJson),
  }
}

/** the object around the partitions */
function headJson(r: Omit<CleanupResult, 'partitions'>): object {
  return {
    schemaVersion: JSON_SCHEMA_VERSION,
    nowMs: r.nowMs,
    metadataLog: r.metadataLog,
    ...(r.metadataLost !== undefined ? { metadataLost: r.metadataLost } : {}),
  }
}

export function cleanupJson(r: CleanupResult, top: number): string {
  return toJson({ ...headJson(r), partitions: r.partitions.map((p) => partitionJson(p, top)) })
}

/**
 * `tsdump cleanup --json` written as its partitions come: the same text as cleanupJson, the object around them
 * first, each partition as soon as it is known, nothing kept of it
 */
export class CleanupJsonStream {
  private first = true

  constructor(
    private readonly out: PrinterOutput,
    private readonly opts: PrintOptions & { top: number },
  ) {}

  head(r: Omit<CleanupResult, 'partitions'>): void {
    // the object with its partitions still empty, cut before their closing `[]}`
    this.out.stdout.write(toJson({ ...headJson(r), partitions: [] }).slice(0, -2))
  }

  partition(p: CleanupPartition): void {
    this.out.stdout.write((this.first ? '' : ',') + toJson(partitionJson(p, this.opts.top)))
    this.first = false
  }

  end(): void {
    this.out.stdout.write(']}\n')
  }
}
