// JSON of `tsdump transactions`: one object (schemaVersion, transactions, transactionalIds).
import { idFamily } from '../analysis/transaction-join/id-families.js'
import type {
  JoinedTransaction,
  PartitionRun,
  ProducerOffsets,
  TransactionsResult,
  TransactionsStreamed,
} from '../analysis/transaction-join/types.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import { unknownStateFields } from '../analysis/transactional-id-state.js'
import type { Json } from './txn-json.js'
import { findingJson, jsonInt64, jsonInt64OrNull, TRANSACTION_SCHEMA_VERSION } from './txn-json.js'
import { streamsJson } from './streams-text.js'
import type { PrintOptions } from './print-options.js'
import type { PrinterOutput } from './printer.js'
import { flinkSinksJson } from './flink-sink-text.js'
import { writeTransactionJson } from './transaction-json-bytes.js'

// a partition's run with the names every command gives a partition-level transaction (PartitionTransaction)
function runJson(r: PartitionRun): Json {
  return {
    topic: r.topic,
    partition: r.partition,
    producerEpoch: r.producerEpoch,
    firstOffset: jsonInt64(r.firstOffset),
    lastDataOffset: jsonInt64OrNull(r.lastDataOffset),
    records: r.records,
    outcome: r.outcome,
    marker:
      r.marker === null
        ? null
        : {
            offset: jsonInt64(r.marker.offset),
            type: r.marker.type,
            producerEpoch: r.marker.epoch,
            coordinatorEpoch: r.marker.coordinatorEpoch,
          },
    ...(r.damage !== undefined ? { damage: { file: r.damage.file, position: r.damage.position } } : {}),
    ...(r.verdict !== undefined
      ? {
          ageMs: jsonInt64OrNull(r.verdict.ageMs),
          ageSource: r.verdict.ageSource,
          hanging: r.verdict.hanging,
          overdue: r.verdict.overdue,
          coordinatorAbortsAt: jsonInt64OrNull(r.verdict.coordinatorAbortsAtMs),
        }
      : {}),
  }
}

export function transactionJson(t: JoinedTransaction): Json {
  return {
    transactionalId: t.transactionalId,
    producerId: jsonInt64(t.producerId),
    producerEpoch: t.producerEpoch,
    transactionVersion: t.transactionVersion,
    outcome: t.outcome,
    joinedBy: t.joinedBy,
    idFamily: t.transactionalId === null ? null : idFamily(t.transactionalId),
    firstTimestamp: jsonInt64OrNull(t.firstTimestamp),
    lastTimestamp: jsonInt64OrNull(t.lastTimestamp),
    partitions: t.runs.map(runJson),
    offsetCommits: t.offsetCommits.map((c) => ({
      group: c.group,
      topic: c.topic,
      partition: c.partition,
      offset: jsonInt64OrNull(c.offset),
      metadata: c.metadata,
      committedBefore: jsonInt64OrNull(c.committedBefore),
      committedAfter: jsonInt64OrNull(c.committedAfter),
    })),
    coordinator: (t.episode?.states ?? []).map((s) => ({
      state: s.state,
      timestamp: jsonInt64(s.timestamp),
      partitions: s.partitions,
      producerEpoch: s.producerEpoch,
    })),
    abortedBy: t.abortCause?.by ?? null,
    transactionDeadline: t.abortCause === null ? null : jsonInt64(t.abortCause.deadline),
    partitionsNotRead: t.notRead,
    findings: t.findings.map(findingJson),
  }
}

export function transactionalIdStateJson(s: TransactionalIdState): Json {
  return {
    transactionalId: s.transactionalId,
    producerId: jsonInt64OrNull(s.producerId),
    producerEpoch: s.producerEpoch,
    state: s.unknownPast !== undefined ? 'unknown' : s.deleted ? 'deleted' : s.state,
    partitions: s.partitions,
    transactionTimeoutMs: s.transactionTimeoutMs,
    lastUpdateTimestamp: jsonInt64OrNull(s.lastUpdateTimestamp),
    ...(unknownStateFields(s) as Record<string, Json>),
  }
}

function producerOffsetsJson(p: ProducerOffsets): Json {
  return {
    transactionalId: p.transactionalId,
    producerIds: p.producerIds.map(jsonInt64),
    transactions: p.transactions,
    withOutput: p.withOutput,
    groups: p.groups,
    mixedCommits: p.mixedCommits,
    noOffsets: p.noOffsets,
    groupsAdvancingOutside: p.groupsAdvancingOutside,
  }
}

export function transactionsJson(r: TransactionsResult): Json {
  return {
    schemaVersion: TRANSACTION_SCHEMA_VERSION,
    transactions: r.transactions.map(transactionJson),
    transactionalIds: r.transactionalIds.map(transactionalIdStateJson),
    exactlyOnce: r.exactlyOnce.map(producerOffsetsJson),
    ...(r.exactlyOnceNotChecked !== undefined ? { exactlyOnceNotChecked: r.exactlyOnceNotChecked } : {}),
    idFamilies: r.idFamilies as unknown as Json,
    streams: streamsJson(r.streams ?? []),
    flinkSinks: flinkSinksJson(r.flinkSinks),
    transactionStateLogs: r.stateLogs,
    lookedIn: r.lookedIn,
    findings: r.findings.map(findingJson),
    now: r.nowMs,
    maxTransactionTimeoutMinutes: r.maxTransactionTimeoutMinutes,
  }
}

/**
 * `tsdump transactions --json`, in the printers' one shape (format/print-options.ts; colour and width do not apply):
 * the same object as transactionsJson, written one transaction at a time as they come (no single string of them
 * all); what follows the transactions is taken once they are all written (the exactly-once check is complete then)
 */
export function printTransactionsJson(
  r: TransactionsResult | TransactionsStreamed,
  po: PrinterOutput,
  _opts: PrintOptions,
): void {
  const out = po.stdout
  out.write(`{"schemaVersion":${JSON.stringify(TRANSACTION_SCHEMA_VERSION)},"transactions":[`)
  let i = 0
  for (const t of 'items' in r ? r.items : r.transactions) {
    // as bytes (transaction-json-bytes.ts), or as the object's text where it holds what only that writes
    if (!writeTransactionJson(out, t, i === 0)) out.write((i === 0 ? '' : ',') + JSON.stringify(transactionJson(t)))
    i++
  }
  out.write(']')
  const {
    items: _items,
    count: _count,
    producers: _producers,
    ...head
  } = r as Partial<TransactionsStreamed> & TransactionsResult
  const rest = transactionsJson({ ...head, transactions: [] }) as Record<string, Json>
  for (const [k, v] of Object.entries(rest)) {
    if (k === 'schemaVersion' || k === 'transactions') continue
    // a list (a million producers' exactly-once entries) an element at a time, never one string of it
    if (Array.isArray(v)) {
      out.write(`,${JSON.stringify(k)}:[`)
      v.forEach((x, i) => {
        out.write((i === 0 ? '' : ',') + JSON.stringify(x))
      })
      out.write(']')
    } else out.write(`,${JSON.stringify(k)}:${JSON.stringify(v)}`)
  }
  out.write('}\n')
}
