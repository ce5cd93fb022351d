// A run of `transactions` written to its bucket's temp file straight from the partition analyzer's transaction
// (analysis/run-sink.ts StreamedTransaction, its 64-bit fields as I64 numbers): the same bytes as runW of the
// PartitionRun transaction-runs.ts would make of it (scan/transaction-wire.ts), without that object and the
// BigInt of each of its offsets and timestamps, which were most of the collection pass' cost per run.
import type { StreamedTransaction } from '../analysis/run-sink.js'
import type { FileTable } from '../analysis/transaction-join/wire.js'
import type { I64 } from '../bytes/int64.js'
import { toBigInt } from '../bytes/int64.js'
import type { ByteOut } from '../io/spill-bytes.js'
import { nameW } from './transaction-wire.js'

/** ByteOut.i64's bytes (io/spill-bytes.ts) of an I64 or null, without a BigInt below 2^50 */
const VARINT_LIMIT = 2 ** 50
export function i64W(o: ByteOut, v: I64 | null): void {
  if (v === null) {
    o.u8(0)
    return
  }
  const n = typeof v === 'number' ? v : Number(v)
  if (n < VARINT_LIMIT && n > -VARINT_LIMIT) {
    o.uv((n >= 0 ? n * 2 : -n * 2 - 1) + 2)
    return
  }
  o.u8(1)
  o.ensure(8)
  o.buf.writeBigInt64LE(toBigInt(v), o.pos)
  o.pos += 8
}

/** runW's bytes of the run `t` (ended by its marker, no damage), its first batch at `file`, `position`: field by field in runW's order */
export function txnRunW(
  o: ByteOut,
  f: FileTable,
  topic: string,
  partition: number,
  t: StreamedTransaction,
  file: string,
  position: number,
  markerTimestamp: I64,
  markerFile: string,
  markerPosition: number,
): void {
  const m = t.marker!
  nameW(o, f, topic)
  o.sv(partition)
  i64W(o, t.producerId)
  o.sv(t.producerEpoch)
  i64W(o, t.firstOffset)
  i64W(o, t.lastDataOffset)
  o.sv(t.records)
  i64W(o, t.firstTimestamp)
  i64W(o, t.lastTimestamp)
  // the marker
  o.u8(1)
  i64W(o, m.offset)
  nameW(o, f, m.type)
  o.nsv(t.coordinatorEpoch)
  o.sv(t.markerEpoch ?? t.producerEpoch)
  i64W(o, markerTimestamp)
  nameW(o, f, markerFile)
  o.sv(markerPosition)
  o.bool(t.seeded)
  nameW(o, f, file)
  o.sv(position)
  // no damage, no verdict
  o.u8(0)
  o.u8(0)
}
