// `tsdump export`'s rows: one per record (control records too, flagged), the batch's fields beside it, and
// what each isolation level makes of it. Written as Parquet row groups (hyparquet-writer's ParquetWriter, one
// row group per flush, so memory is one group however large the segment) or as NDJSON lines. The column names
// are the library's (STYLE: the wire names, and the derived names the dump's JSON uses).
import { ByteWriter, ParquetWriter } from 'hyparquet-writer'
import type { BatchVisibility } from '../analysis/record-visibility.js'
import { codecName } from '../decode/layout.js'
import type { V2Batch } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'

/** where an output file's bytes go (io/export-files.ts opens it); bytes are the caller's again when it returns */
export type ByteSink = (bytes: Uint8Array) => void

/** a row group is written when it holds this many rows (64 Ki rows: 177 MiB peak RSS on 64 MiB of small transactions, 16 Ki: 161) ... */
export const ROW_GROUP_ROWS = 16384
/** ... or this many key, value and header bytes, whichever comes first (memory is about this, encoded twice) */
export const ROW_GROUP_BYTES = 16 * 1024 * 1024

/** what every row of one partition shares */
export interface ExportPartition {
  topic: string
  partition: number
  /** producer id -> transactional id, from __transaction_state records among the paths */
  transactionalIds: ReadonlyMap<bigint, string>
}

/** one output file: rows in, bytes out */
export interface RowFile {
  add: (rec: KafkaRecord, b: V2Batch, vis: BatchVisibility, controlType: string | null) => void
  close: () => void
}

const opt = 'OPTIONAL' as const
const req = 'REQUIRED' as const
const str = { type: 'BYTE_ARRAY', converted_type: 'UTF8' } as const

/** the Parquet schema; the column order of every row (and of NDJSON's keys) */
const SCHEMA = [
  { name: 'topic', ...str, repetition_type: req },
  { name: 'partition', type: 'INT32', repetition_type: req },
  { name: 'offset', type: 'INT64', repetition_type: req },
  { name: 'timestamp', type: 'INT64', repetition_type: req },
  { name: 'timestampType', ...str, repetition_type: req },
  { name: 'key', type: 'BYTE_ARRAY', repetition_type: opt },
  { name: 'value', type: 'BYTE_ARRAY', repetition_type: opt },
  { name: 'headers', repetition_type: req, converted_type: 'LIST', num_children: 1 },
  { name: 'list', repetition_type: 'REPEATED', num_children: 1 },
  { name: 'element', repetition_type: req, num_children: 2 },
  { name: 'key', ...str, repetition_type: req },
  { name: 'value', type: 'BYTE_ARRAY', repetition_type: opt },
  { name: 'batchBaseOffset', type: 'INT64', repetition_type: req },
  { name: 'batchPosition', type: 'INT64', repetition_type: req },
  { name: 'leaderEpoch', type: 'INT32', repetition_type: req },
  { name: 'producerId', type: 'INT64', repetition_type: req },
  { name: 'producerEpoch', type: 'INT32', repetition_type: req },
  { name: 'baseSequence', type: 'INT32', repetition_type: req },
  { name: 'codec', ...str, repetition_type: req },
  { name: 'isTransactional', type: 'BOOLEAN', repetition_type: req },
  { name: 'isControl', type: 'BOOLEAN', repetition_type: req },
  { name: 'controlType', ...str, repetition_type: opt },
  { name: 'visibleReadCommitted', type: 'BOOLEAN', repetition_type: req },
  { name: 'visibleReadUncommitted', type: 'BOOLEAN', repetition_type: req },
  { name: 'transactionOutcome', ...str, repetition_type: req },
  { name: 'transactionalId', ...str, repetition_type: opt },
]
/** the top-level columns (headers' three nested elements are one column) */
const COLUMNS = [
  'topic',
  'partition',
  'offset',
  'timestamp',
  'timestampType',
  'key',
  'value',
  'headers',
  'batchBaseOffset',
  'batchPosition',
  'leaderEpoch',
  'producerId',
  'producerEpoch',
  'baseSequence',
  'codec',
  'isTransactional',
  'isControl',
  'controlType',
  'visibleReadCommitted',
  'visibleReadUncommitted',
  'transactionOutcome',
  'transactionalId',
] as const
const ROOT = { name: 'root', num_children: COLUMNS.length }

type Header = { key: string; value: Uint8Array | null }
type Cell = string | number | bigint | boolean | Uint8Array | null | Header[]

type Bytes = (b: Buffer | null) => Uint8Array | null
// copy: the record's bytes are views into a read window that the next batch reuses, and a row group outlives it
const copy: Bytes = (b) => (b === null ? null : Buffer.from(b))
const view: Bytes = (b) => b

/** the row's cells in COLUMNS order, the binary fields through `bytes` */
function cells(
  rec: KafkaRecord,
  b: V2Batch,
  vis: BatchVisibility,
  controlType: string | null,
  p: ExportPartition,
  bytes: Bytes,
): Cell[] {
  const h = b.header
  return [
    p.topic,
    p.partition,
    rec.offset,
    rec.timestamp,
    h.timestampType,
    bytes(rec.key),
    bytes(rec.value),
    rec.headers.map((x) => ({ key: x.key.toString('utf8'), value: bytes(x.value) })),
    h.baseOffset,
    BigInt(h.position),
    h.partitionLeaderEpoch,
    h.producerId,
    h.producerEpoch,
    h.baseSequence,
    codecName(h.compression),
    h.isTransactional,
    h.isControl,
    controlType,
    vis.visibleReadCommitted && rec.offset >= vis.fromOffset,
    vis.visibleReadUncommitted && rec.offset >= vis.fromOffset,
    vis.transactionOutcome,
    p.transactionalIds.get(h.producerId) ?? null,
  ]
}

function sizeOf(rec: KafkaRecord): number {
  let n = (rec.key?.length ?? 0) + (rec.value?.length ?? 0) + 64
  for (const x of rec.headers) n += x.key.length + (x.value?.length ?? 0)
  return n
}

/** hyparquet's byte writer, emptied into the sink after each row group instead of growing with the file */
class SinkWriter extends ByteWriter {
  constructor(private readonly sink: ByteSink) {
    super(1 << 20)
  }
  flush(): void {
    if (this.index > 0) this.sink(new Uint8Array(this.buffer, 0, this.index))
    this.index = 0
  }

  override finish(): void {
    this.flush()
  }
}

/** A Parquet file of rows, written a row group at a time. */
export function parquetRowFile(p: ExportPartition, sink: ByteSink, createdBy: string): RowFile {
  const writer = new ParquetWriter({ writer: new SinkWriter(sink), schema: [ROOT, ...SCHEMA] as never, createdBy })
  let columns: Cell[][] = COLUMNS.map(() => [])
  let rows = 0
  let bytes = 0
  const flush = (): void => {
    if (rows === 0) return
    // no offset index: hyparquet-writer holds every row group's until the footer, memory growing with the file
    writer.write({
      columnData: COLUMNS.map((name, i) => ({ name, data: columns[i]! as never, offsetIndex: false })),
      rowGroupSize: rows,
    })
    columns = COLUMNS.map(() => [])
    rows = 0
    bytes = 0
  }
  return {
    add(rec, b, vis, controlType) {
      const c = cells(rec, b, vis, controlType, p, copy)
      for (let i = 0; i < c.length; i++) columns[i]!.push(c[i]!)
      rows++
      bytes += sizeOf(rec)
      if (rows >= ROW_GROUP_ROWS || bytes >= ROW_GROUP_BYTES) flush()
    },
    close() {
      flush()
      writer.finish()
    },
  }
}

/**
 * An NDJSON file of rows: keys, values and header values in base64 (the bytes exactly; DuckDB's from_base64),
 * int64 fields as numbers (as DuckDB and Spark read them), strings beyond 2^53.
 */
export function ndjsonRowFile(p: ExportPartition, sink: ByteSink): RowFile {
  const b64 = (v: Uint8Array | null): string | null =>
    v === null ? null : Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64')
  const json = (v: Cell): unknown =>
    typeof v === 'bigint'
      ? Number.isSafeInteger(Number(v))
        ? Number(v)
        : v.toString()
      : v instanceof Uint8Array
        ? b64(v)
        : Array.isArray(v)
          ? v.map((x) => ({ key: x.key, value: b64(x.value) }))
          : v
  let pending = ''
  return {
    add(rec, b, vis, controlType) {
      // views, not copies: the line is made before the next record
      const row: Record<string, unknown> = {}
      const c = cells(rec, b, vis, controlType, p, view)
      for (let i = 0; i < COLUMNS.length; i++) row[COLUMNS[i]!] = json(c[i]!)
      pending += JSON.stringify(row) + '\n'
      if (pending.length >= 1 << 20) {
        sink(Buffer.from(pending))
        pending = ''
      }
    },
    close() {
      if (pending.length > 0) sink(Buffer.from(pending))
      pending = ''
    },
  }
}
