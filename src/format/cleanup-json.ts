// `cleanup --json`: one object, {schemaVersion, nowMs, metadataLog, partitions: [...]}.
import type { CleanupBlocker, CleanupResult } from '../analysis/cleanup/result.js'
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

export function cleanupJson(r: CleanupResult, top: number): string {
  return toJson({
    schemaVersion: JSON_SCHEMA_VERSION,
    nowMs: r.nowMs,
    metadataLog: r.metadataLog,
    ...(r.metadataLost !== undefined ? { metadataLost: r.metadataLost } : {}),
    partitions: r.partitions.map((p) => {
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
              topDirtyKeys: (c?.topDirtyKeys ?? [])
                .slice(0, top)
                .map((k) => ({ key: keyText(k.key), records: k.records })),
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
    }),
  })
}

/** `tsdump cleanup --json`, in the printers' one shape (format/print-options.ts); colour and width do not apply */
export function printCleanupJson(r: CleanupResult, out: PrinterOutput, opts: PrintOptions & { top: number }): void {
  out.stdout.write(cleanupJson(r, opts.top) + '\n')
}
