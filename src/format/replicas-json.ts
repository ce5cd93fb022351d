// `tsdump replicas --json`: one object, `{schemaVersion, logDirs, partitions: [{topic, partition, leader, replicas, findings}]}`.
import type { PartitionComparison, ReplicaComparison } from '../analysis/replicas/compare.js'
import type { EpochList } from '../analysis/replicas/epoch-rule.js'
import type { ReplicaBatch } from '../analysis/replicas/replica-input.js'
import { JSON_SCHEMA_VERSION } from './dump-json.js'
import type { Json } from './txn-json.js'
import type { PrintOptions } from './print-options.js'
import type { PrinterOutput } from './printer.js'
import { findingJson, jsonInt64, jsonInt64OrNull } from './txn-json.js'

/** a node id is a number in the JSON; a directory's name (no meta.properties) stays a string */
export function brokerJson(b: string): number | string {
  return /^\d{1,9}$/.test(b) ? Number(b) : b
}

function batchJson(b: ReplicaBatch): Json {
  return {
    baseOffset: jsonInt64(b.baseOffset),
    lastOffset: jsonInt64(b.lastOffset),
    count: b.count,
    partitionLeaderEpoch: b.partitionLeaderEpoch,
    producerId: jsonInt64(b.producerId),
    producerEpoch: b.producerEpoch,
    baseSequence: b.baseSequence,
    isTransactional: b.isTransactional,
    isControl: b.isControl,
    marker: b.marker,
    crc: b.crc,
    crcValid: b.crcValid,
    file: b.file,
    position: b.position,
    size: b.size,
    records: b.records === undefined ? null : b.records.map((r) => ({ offset: jsonInt64(r.offset), key: r.key })),
  }
}

/** epoch cache entries listed per copy (the newest): a damaged checkpoint can hold millions */
const EPOCHS_LISTED = 10_000

/** the newest EPOCHS_LISTED entries; epochCacheOmitted says how many older ones are left out, when any are */
function epochCacheJson(c: EpochList): { [k: string]: Json } {
  const from = Math.max(0, c.length - EPOCHS_LISTED)
  const entries: Json[] = []
  for (let i = from; i < c.length; i++) {
    const e = c.at(i)!
    entries.push({ epoch: e.epoch, startOffset: jsonInt64(e.startOffset) })
  }
  return from === 0 ? { epochCache: entries } : { epochCache: entries, epochCacheOmitted: from }
}

function replicaJson(r: ReplicaComparison): Json {
  return {
    broker: brokerJson(r.broker),
    logDir: r.logDir,
    topicId: r.topicId,
    isLeader: r.isLeader,
    logStartOffset: jsonInt64(r.logStartOffset),
    logEndOffset: jsonInt64(r.logEndOffset),
    highWatermark: jsonInt64OrNull(r.highWatermark),
    lastStableOffset: jsonInt64(r.lastStableOffset),
    leaderEpoch: r.leaderEpoch,
    ...epochCacheJson(r.epochCache),
    epochCacheFrom: r.epochCacheFrom,
    divergenceOffset: jsonInt64OrNull(r.divergenceOffset),
    truncation:
      r.truncation === null
        ? null
        : {
            offset: jsonInt64(r.truncation.offset),
            steps: r.truncation.steps.map((s) => ({
              requestedEpoch: s.requestedEpoch,
              leaderEpoch: s.leader.epoch,
              leaderEndOffset: jsonInt64(s.leader.endOffset),
              truncateTo: jsonInt64(s.truncateTo),
              again: s.again,
              rule: s.rule,
            })),
          },
    recordsPastDivergence: r.recordsPastDivergence,
    recordsPastDivergenceBelowHighWatermark: r.recordsPastDivergenceBelowHighWatermark,
    batchesPastDivergence: r.batchesPastDivergence.map(batchJson),
    ...(r.batchesPastDivergenceCount > r.batchesPastDivergence.length
      ? { batchesPastDivergenceOmitted: r.batchesPastDivergenceCount - r.batchesPastDivergence.length }
      : {}),
    recordsComparedBelowCleanedPoint: r.recordsComparedBelowCleanedPoint,
  }
}

export function replicasJson(
  logDirs: ReadonlyArray<{ path: string; broker: string }>,
  partitions: readonly PartitionComparison[],
): string {
  return (
    JSON.stringify({
      schemaVersion: JSON_SCHEMA_VERSION,
      logDirs: logDirs.map((d) => ({ path: d.path, broker: brokerJson(d.broker) })),
      partitions: partitions.map((p) => ({
        topic: p.topic,
        partition: p.partition,
        compared: p.compared,
        leader: p.leader === null ? null : brokerJson(p.leader),
        cleanedTo: jsonInt64OrNull(p.cleanedTo),
        replicas: p.replicas.map(replicaJson),
        findings: p.findings.map(findingJson),
      })),
    }) + '\n'
  )
}

/** `tsdump replicas --json`, in the printers' one shape (format/print-options.ts); colour and width do not apply */
export function printReplicasJson(
  r: { logDirs: ReadonlyArray<{ path: string; broker: string }>; partitions: readonly PartitionComparison[] },
  out: PrinterOutput,
  _opts: PrintOptions,
): void {
  out.stdout.write(replicasJson(r.logDirs, r.partitions))
}
