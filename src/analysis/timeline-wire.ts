// Timeline runs as words: as a txns worker posts them (commands/workers/txns-pool.ts), and as txns' one scan of a
// large partition spills them until its first line is known (scan/txns-spill.ts): RUN_SLOTS int64 words a run in one
// BigInt64Array, transferred, not cloned. Structured clone of the run objects (a Transaction each, ten
// BigInts) cost the main thread more than formatting them: 4 partitions x 128 MiB of small transactions took
// 8.7 s of CPU with one worker against 5.3 s with none, the worker waiting on the main thread.
import type { TimelineRun } from './timeline.js'
import type { MarkerType, Transaction } from './transactions.js'
import { outcomeOf } from './partition-transaction.js'

export const RUN_SLOTS = 15

const KIND = ['transaction', 'plain', 'control'] as const
const LISTED = [undefined, 'early', 'end'] as const
const MARKER: ReadonlyArray<MarkerType | null> = [null, 'COMMIT', 'ABORT']
/** the nullable fields of a Transaction, by slot: bit i of the null mask is NULLABLE[i] */
const NULLABLE = [5, 7, 10, 11, 12, 13, 14] as const

/** runs [from, to) of a chunk; control type names are an index into `names` */
export interface WireRuns {
  words: BigInt64Array
  count: number
  names: string[]
  /** the runs whose transaction has a damage reference (damaged logs only: rare), by index */
  damaged?: Array<{ i: number; file: string; position: number }>
}

export function encodeRuns(runs: readonly TimelineRun[]): WireRuns {
  const w: WireRuns = { words: new BigInt64Array(runs.length * RUN_SLOTS), count: runs.length, names: [] }
  for (let i = 0; i < runs.length; i++) encodeRun(w, i, runs[i]!)
  return w
}

/** run `r` into slot `i` of `w.words` (long enough), its control type's name and damage reference into `w` */
export function encodeRun(w: WireRuns, i: number, r: TimelineRun): void {
  const words = w.words
  const names = w.names
  const o = i * RUN_SLOTS
  words[o + 1] = r.firstOffset
  if (r.kind === 'plain') {
    words[o] = 1n
    words[o + 2] = r.lastOffset
    words[o + 3] = r.producerId
    words[o + 4] = BigInt(r.producerEpoch)
    words[o + 5] = BigInt(r.records)
    words[o + 6] = BigInt(r.batches)
  } else if (r.kind === 'control') {
    let n = names.indexOf(r.typeName)
    if (n < 0) n = names.push(r.typeName) - 1
    words[o] = 2n
    words[o + 2] = r.producerId
    words[o + 3] = BigInt(n)
  } else {
    const t = r.txn
    const v: Array<bigint | number | null> = [
      0,
      r.firstOffset,
      t.seq,
      t.producerId,
      t.producerEpoch,
      t.markerEpoch,
      t.firstOffset,
      t.lastDataOffset,
      t.records,
      t.batches,
      t.firstTimestamp,
      t.lastTimestamp,
      t.marker?.offset ?? null,
      t.coordinatorEpoch,
      t.completionLastStableOffset,
    ]
    let nulls = 0
    for (let k = 0; k < NULLABLE.length; k++) if (v[NULLABLE[k]!] === null) nulls |= 1 << k
    const flags =
      (LISTED.indexOf(r.listed) << 2) |
      (r.interleaved ? 1 << 4 : 0) |
      (t.seeded ? 1 << 5 : 0) |
      (t.empty ? 1 << 6 : 0) |
      (MARKER.indexOf(t.marker?.type ?? null) << 7) |
      (nulls << 10)
    words[o] = BigInt(flags)
    for (let k = 2; k < RUN_SLOTS; k++) {
      const x = v[k]!
      words[o + k] = x === null ? 0n : BigInt(x)
    }
    if (t.damage !== undefined) (w.damaged ??= []).push({ i, file: t.damage.file, position: t.damage.position })
  }
}

export function decodeRun(w: WireRuns, i: number): TimelineRun {
  const a = w.words
  const o = i * RUN_SLOTS
  const flags = Number(a[o]!)
  const kind = KIND[flags & 3]!
  if (kind === 'plain') {
    return {
      kind,
      firstOffset: a[o + 1]!,
      lastOffset: a[o + 2]!,
      producerId: a[o + 3]!,
      producerEpoch: Number(a[o + 4]!),
      records: Number(a[o + 5]!),
      batches: Number(a[o + 6]!),
    }
  }
  if (kind === 'control')
    return { kind, firstOffset: a[o + 1]!, typeName: w.names[Number(a[o + 3]!)]!, producerId: a[o + 2]! }
  const nul = (slot: number): boolean =>
    ((flags >> 10) & (1 << NULLABLE.indexOf(slot as (typeof NULLABLE)[number]))) !== 0
  const big = (slot: number): bigint | null => (nul(slot) ? null : a[o + slot]!)
  const num = (slot: number): number | null => (nul(slot) ? null : Number(a[o + slot]!))
  const type = MARKER[(flags >> 7) & 3]!
  const d = w.damaged?.find((x) => x.i === i)
  const damage = d === undefined ? undefined : { file: d.file, position: d.position }
  const txn: Transaction = {
    seq: Number(a[o + 2]!),
    producerId: a[o + 3]!,
    producerEpoch: Number(a[o + 4]!),
    markerEpoch: num(5),
    firstOffset: a[o + 6]!,
    lastDataOffset: big(7),
    records: Number(a[o + 8]!),
    batches: Number(a[o + 9]!),
    firstTimestamp: big(10),
    lastTimestamp: big(11),
    marker: type === null ? null : { offset: a[o + 12]!, type },
    outcome: outcomeOf(type, damage),
    coordinatorEpoch: num(13),
    seeded: (flags & (1 << 5)) !== 0,
    empty: (flags & (1 << 6)) !== 0,
    completionLastStableOffset: big(14),
  }
  if (damage !== undefined) txn.damage = damage
  // built as the recorder builds it (a spread made objects the formatter read slower)
  const run: TimelineRun = { kind, firstOffset: a[o + 1]!, txn, interleaved: (flags & (1 << 4)) !== 0 }
  const listed = LISTED[(flags >> 2) & 3]
  if (listed !== undefined) run.listed = listed
  return run
}
