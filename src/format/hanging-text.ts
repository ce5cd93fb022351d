// `lso` text and JSON for the find-hanging table and the coordinator-epoch explanation. Pure.
import type { ChalkInstance } from 'chalk'
import type { HangingTransaction } from '../analysis/hanging.js'
import type { BlockingTransaction } from '../analysis/lso.js'
import type { Column, TableCell } from './table.js'
import { fitTable, hiddenNote } from './table.js'
import { isoTime } from './timestamp.js'
import type { Json } from './txn-json.js'
import { jsonInt64 } from './txn-json.js'

// find-hanging's HEADERS (TransactionsCommand.FindHangingTransactionsCommand), then the ISO time people read.
const COLUMNS: Column[] = [
  { header: 'Topic', left: true },
  { header: 'Partition', short: 'Part' },
  { header: 'ProducerId', short: 'PID' },
  { header: 'ProducerEpoch', short: 'Epoch' },
  { header: 'CoordinatorEpoch', short: 'CoordEpoch' },
  { header: 'StartOffset', short: 'Start' },
  { header: 'LastTimestamp', dropRank: 1 },
  // dropped only when a long topic name leaves no room for it (the duration stays)
  { header: 'LastTimestamp(ISO)', short: 'Last (UTC)', left: true, dropRank: 2 },
  { header: 'Duration(min)', short: 'Min' },
]

/** ISO-8601 without milliseconds, for narrow columns */
function isoSeconds(ms: bigint): string {
  return isoTime(ms).replace(/\.\d{3}Z$/, 'Z')
}

/** The table find-hanging prints (its headers even when empty), within 80 columns unless `wide`. */
export function formatHangingTable(rows: readonly HangingTransaction[], chalk: ChalkInstance, wide: boolean): string {
  const cells = rows.map((h): TableCell[] => [
    { text: h.topic ?? '<TOPIC>' },
    { text: String(h.partition ?? '?') },
    { text: String(h.producerId) },
    { text: String(h.producerEpoch) },
    { text: h.coordinatorEpoch === null ? '?' : String(h.coordinatorEpoch) },
    { text: String(h.firstOffset) },
    { text: String(h.lastTimestamp) },
    { text: isoTime(h.lastTimestamp), short: isoSeconds(h.lastTimestamp) },
    { text: String(h.durationMinutes), style: chalk.red },
  ])
  const t = fitTable(COLUMNS, cells, chalk, { wide })
  return t.text + hiddenNote(t.hidden)
}

export function hangingJson(h: HangingTransaction): Json {
  return {
    topic: h.topic,
    partition: h.partition,
    producerId: jsonInt64(h.producerId),
    producerEpoch: h.producerEpoch,
    coordinatorEpoch: h.coordinatorEpoch,
    firstOffset: jsonInt64(h.firstOffset),
    lastTimestamp: jsonInt64(h.lastTimestamp),
    lastTimestampIso: isoTime(h.lastTimestamp),
    durationMinutes: h.durationMinutes,
  }
}

/**
 * Where the coordinator epoch of the suggested abort comes from. The broker fences a marker whose
 * coordinator epoch is below the producer's (ProducerAppendInfo, TransactionCoordinatorFencedException),
 * so any value ≥ the producer's works; -1 means no marker was ever written for the producer, and
 * kafka-transactions.sh then sends 0 (--start-offset: describe-producers' empty epoch becomes 0;
 * --coordinator-epoch: a negative value is replaced by 0).
 */
export function explainCoordinatorEpoch(t: BlockingTransaction): string[] {
  const sent = Math.max(0, t.coordinatorEpoch ?? 0)
  if (t.coordinatorEpoch === null) {
    return [
      '  coordinatorEpoch unknown: no producer snapshot or marker names this producer.',
      '    The commands use 0, which the broker accepts unless a newer coordinator',
      '    already wrote a marker for the producer (then the abort says fenced).',
    ]
  }
  if (t.coordinatorEpoch < 0) {
    return [
      '  coordinatorEpoch -1 (producer snapshot): no COMMIT/ABORT marker was ever',
      `    written for producer ${t.producerId}, so describe-producers shows LatestCoordinatorEpoch`,
      "    -1. The broker rejects only a marker whose epoch is below the producer's,",
      '    so kafka-transactions.sh abort sends 0: --start-offset reads -1 from',
      '    describe-producers and uses 0; a negative --coordinator-epoch becomes 0.',
    ]
  }
  const from = t.coordinatorEpochSource === 'marker' ? 'its newest COMMIT/ABORT marker' : 'the producer snapshot'
  return [
    `  coordinatorEpoch ${sent} from ${from}: describe-producers'`,
    '    LatestCoordinatorEpoch, the lowest epoch the broker accepts for the abort',
  ]
}
