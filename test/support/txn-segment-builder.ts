// A tiny encoder for synthetic partitions: v2 batches with correct CRC-32C, COMMIT/ABORT markers,
// KRaft LEADER_CHANGE control batches, .txnindex entries, producer snapshots and checkpoints.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { crc32c } from '../../src/bytes/crc32c.js'

export type MarkerType = 'COMMIT' | 'ABORT'

export interface BatchSpec {
  baseOffset: bigint
  /** records in the batch (recordsCount); default 1 */
  count?: number
  /** default count - 1; set larger to mimic compaction gaps */
  lastOffsetDelta?: number
  producerId?: bigint
  producerEpoch?: number
  transactional?: boolean
  /** control batch: a marker, or any control type id (2 = LEADER_CHANGE) */
  control?: MarkerType | number
  coordinatorEpoch?: number
  timestamp?: bigint
  baseSequence?: number
  /** each record's value: this many bytes (default `value <i>`) */
  valueBytes?: number
}

function uvarint(n: number): number[] {
  const out: number[] = []
  let v = n >>> 0
  while (v >= 0x80) {
    out.push((v & 0x7f) | 0x80)
    v >>>= 7
  }
  out.push(v)
  return out
}
const varint = (n: number): number[] => uvarint(((n << 1) ^ (n >> 31)) >>> 0)

function encodeRecord(offsetDelta: number, key: Buffer | null, value: Buffer | null): Buffer {
  const body = [0, ...varint(0), ...varint(offsetDelta)]
  const parts: Buffer[] = [Buffer.from(body)]
  parts.push(Buffer.from(varint(key === null ? -1 : key.length)))
  if (key !== null) parts.push(key)
  parts.push(Buffer.from(varint(value === null ? -1 : value.length)))
  if (value !== null) parts.push(value)
  parts.push(Buffer.from(varint(0)))
  const rec = Buffer.concat(parts)
  return Buffer.concat([Buffer.from(varint(rec.length)), rec])
}

function controlRecord(type: number, coordinatorEpoch: number): Buffer {
  const key = Buffer.alloc(4)
  key.writeInt16BE(0, 0)
  key.writeInt16BE(type, 2)
  let value: Buffer
  if (type === 0 || type === 1) {
    value = Buffer.alloc(6)
    value.writeInt16BE(0, 0)
    value.writeInt32BE(coordinatorEpoch, 2)
  } else {
    // LeaderChangeMessage v0: version, leaderId, voters [voterId], grantingVoters [], tagged fields
    value = Buffer.from([0, 0, 0, 0, 0, 1, ...uvarint(2), 0, 0, 0, 1, 0, ...uvarint(1), 0])
  }
  return encodeRecord(0, key, value)
}

/** One v2 batch with a valid CRC-32C. */
export function encodeBatch(s: BatchSpec): Buffer {
  const isControl = s.control !== undefined
  const count = isControl ? 1 : (s.count ?? 1)
  const records: Buffer[] = []
  if (isControl) {
    const type = s.control === 'ABORT' ? 0 : s.control === 'COMMIT' ? 1 : (s.control as number)
    records.push(controlRecord(type, s.coordinatorEpoch ?? 0))
  } else {
    for (let i = 0; i < count; i++)
      records.push(
        encodeRecord(
          i,
          Buffer.from(`k${i}`),
          s.valueBytes === undefined ? Buffer.from(`value ${i}`) : Buffer.alloc(s.valueBytes, 97 + (i % 26)),
        ),
      )
  }
  const body = Buffer.concat(records)
  const h = Buffer.alloc(61)
  const ts = s.timestamp ?? 1_700_000_000_000n
  h.writeBigInt64BE(s.baseOffset, 0)
  h.writeInt32BE(61 - 12 + body.length, 8)
  h.writeInt32BE(0, 12)
  h.writeInt8(2, 16)
  const markerLike = isControl && (s.control === 'COMMIT' || s.control === 'ABORT')
  const attributes = (s.transactional === true || markerLike ? 0x10 : 0) | (isControl ? 0x20 : 0)
  h.writeInt16BE(attributes, 21)
  h.writeInt32BE(s.lastOffsetDelta ?? count - 1, 23)
  h.writeBigInt64BE(ts, 27)
  h.writeBigInt64BE(ts, 35)
  h.writeBigInt64BE(s.producerId ?? -1n, 43)
  h.writeInt16BE(s.producerEpoch ?? -1, 51)
  h.writeInt32BE(isControl ? -1 : (s.baseSequence ?? (s.producerId !== undefined && s.producerId >= 0n ? 0 : -1)), 53)
  h.writeInt32BE(count, 57)
  const batch = Buffer.concat([h, body])
  batch.writeUInt32BE(crc32c(batch.subarray(21)), 17)
  return batch
}

/** Appends batches with consecutive offsets; the scripts of tests read like the producer's calls. */
export class LogWriter {
  readonly batches: BatchSpec[] = []
  next: bigint
  time: bigint
  constructor(start = 0n, time = 1_700_000_000_000n) {
    this.next = start
    this.time = time
  }

  private push(s: Omit<BatchSpec, 'baseOffset'>, span: number): BatchSpec {
    const b: BatchSpec = { ...s, baseOffset: this.next, timestamp: s.timestamp ?? this.time }
    this.batches.push(b)
    this.next += BigInt(span)
    this.time += 1000n
    return b
  }

  plain(count: number, producerId = -1n, valueBytes?: number): BatchSpec {
    return this.push(
      {
        count,
        producerId,
        producerEpoch: producerId >= 0n ? 0 : -1,
        ...(valueBytes !== undefined ? { valueBytes } : {}),
      },
      count,
    )
  }
  txn(producerId: bigint, producerEpoch: number, count: number, timestamp?: bigint, valueBytes?: number): BatchSpec {
    return this.push(
      {
        count,
        producerId,
        producerEpoch,
        transactional: true,
        ...(timestamp !== undefined ? { timestamp } : {}),
        ...(valueBytes !== undefined ? { valueBytes } : {}),
      },
      count,
    )
  }
  marker(producerId: bigint, producerEpoch: number, type: MarkerType, coordinatorEpoch = 0): BatchSpec {
    return this.push({ producerId, producerEpoch, control: type, coordinatorEpoch }, 1)
  }
  leaderChange(): BatchSpec {
    return this.push({ control: 2 }, 1)
  }
  /** a compacted batch: `count` records left over an offset span of `span` */
  compacted(count: number, span: number): BatchSpec {
    return this.push({ count, lastOffsetDelta: span - 1 }, span)
  }
  /** offsets skipped (a gap between segments is fine too) */
  skip(n: number): void {
    this.next += BigInt(n)
  }
}

export interface AbortedTxnSpec {
  producerId: bigint
  firstOffset: bigint
  lastOffset: bigint
  lastStableOffset: bigint
}

export function encodeTxnIndex(entries: readonly AbortedTxnSpec[]): Buffer {
  const b = Buffer.alloc(entries.length * 34)
  entries.forEach((e, i) => {
    const o = i * 34
    b.writeInt16BE(0, o)
    b.writeBigInt64BE(e.producerId, o + 2)
    b.writeBigInt64BE(e.firstOffset, o + 10)
    b.writeBigInt64BE(e.lastOffset, o + 18)
    b.writeBigInt64BE(e.lastStableOffset, o + 26)
  })
  return b
}

export interface SnapshotEntrySpec {
  producerId: bigint
  producerEpoch: number
  coordinatorEpoch?: number
  currentTxnFirstOffset?: bigint | null
  lastOffset?: bigint
  timestamp?: bigint
}

export function encodeProducerSnapshot(entries: readonly SnapshotEntrySpec[]): Buffer {
  const b = Buffer.alloc(10 + entries.length * 46)
  b.writeInt16BE(1, 0)
  b.writeInt32BE(entries.length, 6)
  entries.forEach((e, i) => {
    const o = 10 + i * 46
    b.writeBigInt64BE(e.producerId, o)
    b.writeInt16BE(e.producerEpoch, o + 8)
    b.writeInt32BE(0, o + 10)
    b.writeBigInt64BE(e.lastOffset ?? 0n, o + 14)
    b.writeInt32BE(0, o + 22)
    b.writeBigInt64BE(e.timestamp ?? 1_700_000_000_000n, o + 26)
    b.writeInt32BE(e.coordinatorEpoch ?? 0, o + 34)
    b.writeBigInt64BE(e.currentTxnFirstOffset ?? -1n, o + 38)
  })
  b.writeUInt32BE(crc32c(b.subarray(6)), 2)
  return b
}

const name20 = (o: bigint): string => o.toString().padStart(20, '0')

/** A broker log directory in os.tmpdir() holding partition directories. */
export class LogDir {
  readonly root: string
  private readonly hw = new Map<string, bigint>()
  constructor() {
    this.root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-txn-'))
  }

  partitionPath(topic: string, partition: number): string {
    const p = path.join(this.root, `${topic}-${partition}`)
    fs.mkdirSync(p, { recursive: true })
    return p
  }

  /** writes <base>.log (+ an empty .index, like a broker) */
  segment(topic: string, partition: number, base: bigint, batches: readonly BatchSpec[]): string {
    const dir = this.partitionPath(topic, partition)
    fs.writeFileSync(path.join(dir, `${name20(base)}.log`), Buffer.concat(batches.map(encodeBatch)))
    fs.writeFileSync(path.join(dir, `${name20(base)}.index`), Buffer.alloc(0))
    return dir
  }

  txnIndex(topic: string, partition: number, base: bigint, entries: readonly AbortedTxnSpec[]): void {
    fs.writeFileSync(
      path.join(this.partitionPath(topic, partition), `${name20(base)}.txnindex`),
      encodeTxnIndex(entries),
    )
  }

  snapshot(topic: string, partition: number, offset: bigint, entries: readonly SnapshotEntrySpec[]): void {
    fs.writeFileSync(
      path.join(this.partitionPath(topic, partition), `${name20(offset)}.snapshot`),
      encodeProducerSnapshot(entries),
    )
  }

  highWatermark(topic: string, partition: number, hw: bigint): void {
    this.hw.set(`${topic} ${partition}`, hw)
    const lines = [...this.hw].map(([k, v]) => `${k} ${v}`)
    fs.writeFileSync(path.join(this.root, 'replication-offset-checkpoint'), `0\n${lines.length}\n${lines.join('\n')}\n`)
  }

  remove(): void {
    fs.rmSync(this.root, { recursive: true, force: true })
  }
}

/** Runs a command's run*() in-process with string writers. */
export async function runCommand<O>(
  fn: (opts: O, ctx: import('../../src/commands/context.js').CommandContext) => Promise<number>,
  opts: O,
): Promise<{ code: number; out: string; err: string }> {
  const { StringWriter } = await import('../../src/format/writer.js')
  const stdout = new StringWriter()
  const stderr = new StringWriter()
  const code = await fn(opts, {
    stdout,
    stderr,
    colorLevel: 0,
    stderrIsTTY: false,
    env: {},
    now: () => 1_700_000_000_000,
  })
  return { code, out: stdout.text, err: stderr.text }
}

/** The course chapter's orders-11: p0 committed 0..5, COMMIT 6, aborted 7..14, ABORT 15; p1 only an ABORT; p2 0..1 + COMMIT 2. */
export function buildOrders11(d: LogDir): void {
  const p0 = new LogWriter()
  p0.txn(4001n, 0, 6)
  p0.marker(4001n, 0, 'COMMIT')
  p0.txn(4001n, 1, 8)
  p0.marker(4001n, 1, 'ABORT')
  d.segment('orders-11', 0, 0n, p0.batches)
  d.txnIndex('orders-11', 0, 0n, [{ producerId: 4001n, firstOffset: 7n, lastOffset: 15n, lastStableOffset: 16n }])
  const p1 = new LogWriter()
  p1.marker(4001n, 1, 'ABORT')
  d.segment('orders-11', 1, 0n, p1.batches)
  const p2 = new LogWriter()
  p2.txn(4001n, 0, 2)
  p2.marker(4001n, 0, 'COMMIT')
  d.segment('orders-11', 2, 0n, p2.batches)
  d.highWatermark('orders-11', 0, 16n)
  d.highWatermark('orders-11', 1, 1n)
  d.highWatermark('orders-11', 2, 3n)
}
