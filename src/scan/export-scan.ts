// `tsdump export`'s reads of one partition in two passes, for the partitions export-read.ts's one read does not
// answer exactly (damaged ones), and what both share. A transaction's outcome (its COMMIT or ABORT marker) is
// written after its records, so:
//   1. the partition scan every partition command shares (headers and control records only), with a sink that
//      keeps the aborted transactions' ranges (what Kafka's .txnindex holds) and the report's HW, LSO and open
//      transactions;
//   2. a record pass (exportRecords, readLog as `dump` reads) that decides each batch's visibility from those facts
//      and hands out every record with its batch in log order (exportBatch, export-read.ts's too).
// Memory: one read window, the aborted ranges (16 bytes each) and the open transactions.
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { decodeFinding, corruptFinding, tailFinding } from '../analysis/log-findings.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { RangeFilter } from '../analysis/range-filter.js'
import type { BatchVisibility, VisibilityFacts } from '../analysis/record-visibility.js'
import { AbortedRanges, RecordVisibility } from '../analysis/record-visibility.js'
import type { V2Batch } from '../decode/log-reader.js'
import { readLog } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import { DEFAULT_MAX_BATCH, DEFAULT_WINDOW, frameProblem } from '../decode/frame-scanner.js'
import type { CorruptEvent, TailEvent } from '../decode/frame.js'
import * as L from '../decode/layout.js'
import { batchRecords } from '../decode/streamed-batch.js'
import { DecodeError } from '../decode/errors.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import { describeFsError } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import { openKafkaFile } from '../io/remote/open.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { scanPartition } from './partition-scan.js'
import type { ScannedPartition } from './partition-scan.js'
import type { PartitionReport } from '../analysis/partition-report.js'
import { scanTransactionLog, transactionLogRecord } from './transaction-log-scan.js'
import { FindingList } from '../analysis/finding-list.js'
import type { TransactionStateRecord } from '../analysis/transactional-id-state.js'
import type { BatchHeader } from '../decode/batch-header.js'
import * as path from 'node:path'
import { TsdumpError } from '../analysis/tsdump-error.js'
import { checkFilterBounds, needsIdResolved } from './filter-resolve.js'
import { coordinatorPartitionCountOf } from './metadata-partitions.js'
import { IdProducerIds, stateDirs, transactionalIdAnswer } from './transactional-id.js'

const STATE_TOPIC = '__transaction_state'

/** Pass 1: the partition scan, and what the record pass needs of it. */
export function visibilityFacts(
  dir: PartitionDir,
  checkpoints: Map<string, OffsetCheckpoint | null>,
): { scanned: ScannedPartition; facts: VisibilityFacts } {
  const aborted = new AbortedRanges()
  const scanned = scanPartition(dir, checkpoints, { analyzer: () => ({ sink: aborted, markerEpochs: false }) })
  return { scanned, facts: { ...finalFacts(scanned.report), aborted } }
}

/** the partition's HW, LSO, log start and the transactions still open at its end, from its report */
export function finalFacts(r: PartitionReport): Omit<VisibilityFacts, 'aborted'> {
  const open = new Map<bigint, bigint>()
  const unknown = new Set<bigint>()
  for (const t of r.openTransactions) {
    if (t.state === 'open' && !open.has(t.producerId)) open.set(t.producerId, t.firstOffset)
    if (t.damage !== undefined) unknown.add(t.producerId)
  }
  return {
    logStartOffset: r.logStartOffset,
    highWatermark: r.highWatermark,
    lastStableOffset: r.lastStableOffset,
    open,
    unknown,
  }
}

/**
 * producer id -> transactional id, from every record of the __transaction_state partitions given (KIP-890's previous
 * and next ids too); `watch` is told every record as well (--transactional-id's producer ids, from the same read)
 */
export function transactionalIds(
  stateDirs: readonly PartitionDir[],
  findings: Finding[],
  watch?: IdProducerIds,
): Map<bigint, string> {
  const ids = new Map<bigint, string>()
  for (const d of stateDirs) {
    const f = scanTransactionLog(d, (r) => noteIds(r, ids, watch))
    for (const x of f.findings.listed) findings.push(x)
  }
  return ids
}

function noteIds(r: TransactionStateRecord, ids: Map<bigint, string>, watch: IdProducerIds | undefined): void {
  watch?.see(r)
  const v = r.value
  if (v === null) return
  for (const pid of [v.producerId, v.previousProducerId, v.nextProducerId])
    if (pid >= 0n) ids.set(pid, r.transactionalId)
}

/**
 * Told every record of the data batches, in or out of the filter's range (a __transaction_state partition's records
 * give the rows' transactional ids): what scan/internal-records.ts forEachInternalRecord hands out, a DecodeError
 * a finding in `findings` and the rest of that batch skipped, as there.
 */
export interface RecordsTap {
  record: (rec: KafkaRecord, header: BatchHeader, file: KafkaFile) => void
  findings: FindingList
}

/**
 * transactionalIds of one __transaction_state partition told its records by export's one read of it
 * (export-read.ts RecordsTap): its ids, merged in partition order as transactionalIds adds them, and its findings
 */
export class StateRecordIds implements RecordsTap {
  readonly ids = new Map<bigint, string>()
  readonly findings = new FindingList()
  constructor(private readonly watch: IdProducerIds | undefined) {}
  record(rec: KafkaRecord, header: BatchHeader, file: KafkaFile): void {
    const r = transactionLogRecord(rec, header, file, this.findings)
    if (r !== null) noteIds(r, this.ids, this.watch)
  }
}

/**
 * Before the __transaction_state partitions' one read: the filter they are read with (--transactional-id's range
 * holds none of a coordinator's batches, which carry no producer id, whatever the id's producers: so none; the rows
 * of a batch that carries one wait for the final filter, export-read.ts OneReadResult.finish) and what collects the
 * id's producer ids.
 * @throws TsdumpError USAGE for crossed bounds
 */
export function idsFirst(filter: RangeSpec | undefined): {
  ids: Map<bigint, string>
  watch: IdProducerIds | undefined
  first: RangeSpec | undefined
} {
  checkFilterBounds(filter)
  if (!needsIdResolved(filter)) return { ids: new Map(), watch: undefined, first: filter }
  return { ids: new Map(), watch: new IdProducerIds(filter.transactionalId), first: { ...filter, producerIds: [] } }
}

/**
 * `filter` with --transactional-id's producer ids, `watch` told the records of the __transaction_state partitions
 * exported (`read`); those beside the paths are read here for the id alone.
 * @throws TsdumpError NOT_FOUND when the id has no record there
 */
export function resolveIdFilter(
  paths: readonly string[],
  read: readonly PartitionDir[],
  filter: RangeSpec | undefined,
  watch: IdProducerIds | undefined,
): RangeSpec | undefined {
  if (watch === undefined || filter === undefined) return filter
  const { dirs, logDirs } = stateDirs(paths)
  const seen = new Set(read.map((p) => path.resolve(p.path)))
  for (const d of dirs) if (!seen.has(path.resolve(d.path))) scanTransactionLog(d, (r) => watch.see(r))
  const r = transactionalIdAnswer(watch, {
    dirs,
    logDirs,
    count: () => coordinatorPartitionCountOf(STATE_TOPIC, paths),
  })
  if ('error' in r) throw new TsdumpError('NOT_FOUND', r.error)
  return { ...filter, producerIds: r.producerIds }
}

/** What the record pass hands out: each record with its batch, the batch's visibility and where it is. */
export interface ExportVisitor {
  /** a segment begins (its file and base offset) */
  segment: (file: KafkaFile) => void
  /** a record; `controlType` for a control batch's record. All arguments are views valid until the next call. */
  record: (rec: KafkaRecord, batch: V2Batch, vis: BatchVisibility, controlType: string | null) => void
  /**
   * what was handed out so far is void: the partition is handed out again from its start (export-read.ts, when the
   * final facts reach back to rows already written). Without it, that read gives up and the two passes run.
   */
  restart?: () => void
}

/**
 * Pass 2: every record of the partition's segments in log order, with what each isolation level makes of it,
 * through `filter` as dump applies it (whole batches out of range skipped, the edge batches' records cut).
 * Findings (damage, CRC, codec, records not exported) go to `findings`.
 */
export function exportRecords(
  dir: PartitionDir,
  facts: VisibilityFacts,
  visit: ExportVisitor,
  findings: Finding[],
  filter?: RangeSpec,
): void {
  const vis = new RecordVisibility(facts)
  const range = filter === undefined ? undefined : new RangeFilter(filter)
  for (const f of dir.files) {
    if (f.kind !== 'log') continue
    let src: SegmentSource
    try {
      src = openKafkaFile(f)
    } catch (e) {
      findings.push(
        finding(e instanceof InputError ? e.code : 'UNREADABLE', describeFsError(e), { file: f.path, position: 0 }),
      )
      continue
    }
    try {
      visit.segment(f)
      if (segmentRecords(src, f.path, vis, visit, findings, range)) break
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      findings.push(finding(e.code, e.message, { file: f.path, position: e.position }))
    } finally {
      src.close()
    }
  }
}

/** the record pass's read window: a batch up to this size is read whole, a larger one streamed (readLog streamLarge) */
export const RECORD_PASS_WINDOW = 1024 * 1024

/**
 * One batch of the record pass in log order: its visibility stepped (every batch, in range or not: an ABORT marker
 * out of range still ends its transaction), then its records in range handed to `visit`. True when the filter says
 * nothing later can be in range.
 */
export function exportBatch(
  ev: V2Batch,
  src: SegmentSource,
  file: string,
  vis: RecordVisibility,
  range: RangeFilter | undefined,
  visit: ExportVisitor,
  findings: Finding[],
): boolean {
  const h = ev.header
  const v = vis.batch(h, ev.control?.type)
  const verdict = range?.batch(h) ?? 'in'
  if (verdict === 'stop') return true
  for (const p of ev.problems) findings.push(decodeFinding(p, file))
  if (verdict === 'out') return false
  const partial = range?.partial === true
  const control = h.isControl ? (ev.control?.typeName ?? 'UNKNOWN') : null
  try {
    for (const rec of batchRecords(h, ev.bytes, ev.complete, src, { window: DEFAULT_WINDOW })) {
      if (partial && !range!.record(rec.offset, rec.timestamp)) continue
      if (rec.valuePieces !== undefined) {
        findings.push(
          finding(
            'VALUE_NOT_DECODED',
            `offset ${rec.offset}: the value of ${rec.valueSize ?? -1} bytes is larger than the read window (${DEFAULT_WINDOW} bytes): exported as null`,
            { file, position: rec.filePosition },
          ),
        )
      }
      visit.record(rec, ev, v, control)
    }
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e
    findings.push(decodeFinding(e, file))
  }
  return false
}

/** one segment's records; true when the filter says nothing later can be in range */
function segmentRecords(
  src: SegmentSource,
  file: string,
  vis: RecordVisibility,
  visit: ExportVisitor,
  findings: Finding[],
  range: RangeFilter | undefined,
): boolean {
  let legacy = 0
  // a 1 MiB read window: a larger batch is streamed, and batchRecords reads its records through a window of its own
  // (DEFAULT_WINDOW, made only for such a batch), so values up to DEFAULT_WINDOW are still exported; a second
  // 8 MiB window held for the whole pass was 7 MiB of the 1 GiB export's peak (bench/RESULTS.md, "export")
  for (const ev of readLog(src, { window: RECORD_PASS_WINDOW, streamLarge: 'crc' })) {
    if (ev.kind === 'tail') {
      findings.push(tailFinding(ev, file))
      continue
    }
    if (ev.kind === 'corrupt') {
      findings.push(corruptFinding(ev, file))
      continue
    }
    if (ev.kind === 'legacy') {
      legacy++
      continue
    }
    if (exportBatch(ev, src, file, vis, range, visit, findings)) return true
  }
  if (legacy > 0) findings.push(legacyFinding(legacy, file))
  return false
}

/** the record pass's finding for a segment's legacy entries, after its last event */
export function legacyFinding(legacy: number, file: string): Finding {
  return finding(
    'RECORDS_SKIPPED',
    `${legacy} magic 0/1 ${legacy === 1 ? 'entry' : 'entries'} not exported (export writes v2 records)`,
    { file },
  )
}

/**
 * The record pass's event where the partition scan met framing damage or a tail: the scan resyncs past damage
 * (frame-scanner.ts damaged, pastEnd), the record pass's readLog does not and stops there, at the same position.
 * Its entry header (17 bytes, read again) says which: one the framing rule refuses is damage to the segment's end,
 * one that runs past the end a truncated tail. Undefined for a length that fails its batch's CRC and runs into a
 * valid batch (overlappedBatch): the record pass reads that batch, whose bytes the scan skipped.
 */
export function unresynced(ev: TailEvent | CorruptEvent, src: SegmentSource): TailEvent | CorruptEvent | undefined {
  if (ev.kind === 'tail' || ev.resyncPosition === undefined) return ev
  const h = Buffer.alloc(L.HEADER_SIZE_UP_TO_MAGIC)
  if (src.readInto(h, ev.position, h.length) !== h.length) return undefined
  const size = h.readInt32BE(L.SIZE_OFFSET)
  const total = L.LOG_OVERHEAD + size
  const left = src.size - ev.position
  if (frameProblem(size, h.readInt8(L.MAGIC_OFFSET), total, DEFAULT_MAX_BATCH) !== undefined)
    return { kind: 'corrupt', position: ev.position, code: ev.code, message: ev.message, length: left }
  if (total > left)
    return { kind: 'tail', position: ev.position, length: left, reason: 'truncated', declaredSize: total }
  return undefined
}
