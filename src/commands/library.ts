// The library side of tsdump: open a segment file, a partition directory or a broker log directory and
// async-iterate its batches and records. Each batch is a view into a reused read window: use it (or call
// detachEvent) before asking for the next one. Problems in the data are not thrown: they arrive as
// findings (tails, damaged regions, CRC mismatches ...) in `segment.findings` as the iteration passes them.
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { decodeFinding, corruptFinding, tailFinding } from '../analysis/log-findings.js'
import type { LegacyFrame, ReadOptions, V2Batch } from '../decode/log-reader.js'
import { readLog } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import { decodeRecords } from '../decode/records.js'
import type { BatchHeader } from '../decode/batch-header.js'
import { codecName } from '../decode/layout.js'
import { DecodeError } from '../decode/errors.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { classify, discover } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import * as path from 'node:path'

export type { V2Batch, LegacyFrame, ReadOptions } from '../decode/log-reader.js'
export type { KafkaRecord } from '../decode/records.js'

/**
 * A record as records() yields it: the record, and the fields of its batch beside it, so that a COMMIT or ABORT
 * marker is told from data (isControl, controlType) and a record from its producer and transaction.
 */
export interface SegmentRecord extends KafkaRecord {
  isControl: boolean
  /** a control record's type: COMMIT, ABORT, LEADER_CHANGE ... (UNKNOWN(n)); null for data */
  controlType: string | null
  isTransactional: boolean
  baseOffset: bigint
  lastOffset: bigint
  /** the batch's absolute file position */
  batchPosition: number
  partitionLeaderEpoch: number
  producerId: bigint
  producerEpoch: number
  baseSequence: number
  timestampType: BatchHeader['timestampType']
  /** the batch's codec: none, gzip, snappy, lz4, zstd */
  compression: string
}

export interface Segment {
  path: string
  /** from the file name; null when it is not a base offset */
  baseOffset: bigint | null
  /** findings met by the iterations so far (tails, damaged regions, CRC and record problems) */
  readonly findings: Finding[]
  /** v2 batches and legacy (magic 0/1) entries in file order */
  batches(opts?: ReadOptions): AsyncGenerator<V2Batch | LegacyFrame>
  /**
   * the records of every v2 data and control batch, in offset order. Entries whose records are not yielded
   * (magic 0/1 entries; batches read header-only with `headersOnly`/`streamLarge`) are counted in a
   * RECORDS_SKIPPED finding in `findings`.
   */
  records(opts?: ReadOptions): AsyncGenerator<SegmentRecord>
}

export interface Partition {
  path: string
  topic: string | null
  partition: number | null
  /** the .log segments, in base-offset order */
  segments: Segment[]
  batches(opts?: ReadOptions): AsyncGenerator<V2Batch | LegacyFrame>
  /** every segment's records() in turn; what they skip is in each segment's `findings` */
  records(opts?: ReadOptions): AsyncGenerator<SegmentRecord>
}

class FileSegment implements Segment {
  readonly findings: Finding[] = []
  constructor(
    readonly path: string,
    readonly baseOffset: bigint | null,
  ) {}

  async *batches(opts: ReadOptions = {}): AsyncGenerator<V2Batch | LegacyFrame> {
    const src = new FileSource(this.path)
    try {
      for (const ev of readLog(src, opts)) {
        if (ev.kind === 'tail') this.findings.push(tailFinding(ev, this.path))
        else if (ev.kind === 'corrupt') this.findings.push(corruptFinding(ev, this.path))
        else {
          if (ev.kind === 'batch') for (const p of ev.problems) this.findings.push(decodeFinding(p, this.path))
          yield ev
        }
      }
    } finally {
      src.close()
    }
  }

  async *records(opts: ReadOptions = {}): AsyncGenerator<SegmentRecord> {
    // What is not yielded is said, not dropped: one RECORDS_SKIPPED finding per kind, pushed also when the
    // caller stops early (the generator's finally runs on return()).
    const legacy = new Skipped()
    const headerOnly = new Skipped()
    try {
      for await (const b of this.batches(opts)) {
        if (b.kind === 'legacy') {
          legacy.add(b.position)
          continue
        }
        if (!b.complete) {
          headerOnly.add(b.position)
          continue
        }
        try {
          const h = b.header
          const batch = {
            isControl: h.isControl,
            controlType: h.isControl ? (b.control?.typeName ?? 'UNKNOWN') : null,
            isTransactional: h.isTransactional,
            baseOffset: h.baseOffset,
            lastOffset: h.lastOffset,
            batchPosition: h.position,
            partitionLeaderEpoch: h.partitionLeaderEpoch,
            producerId: h.producerId,
            producerEpoch: h.producerEpoch,
            baseSequence: h.baseSequence,
            timestampType: h.timestampType,
            compression: codecName(h.compression),
          }
          for (const r of decodeRecords(h, b.bytes, opts)) yield { ...r, ...batch }
        } catch (e) {
          if (!(e instanceof DecodeError)) throw e
          this.findings.push(decodeFinding(e, this.path))
        }
      }
    } finally {
      legacy.report(
        this,
        (n) =>
          `records(): ${count(n, 'magic 0/1 entry', 'magic 0/1 entries')} not yielded (records() yields v2 records; batches() passes legacy entries through)`,
      )
      headerOnly.report(
        this,
        (n) =>
          `records(): ${count(n, 'batch', 'batches')} larger than the read window read header-only (headersOnly/streamLarge), ${n === 1 ? 'its' : 'their'} records not yielded`,
      )
    }
  }
}

/** entries of one kind that records() passed over: how many, and where the first was */
class Skipped {
  private n = 0
  private first = 0
  add(position: number): void {
    if (this.n++ === 0) this.first = position
  }
  report(s: FileSegment, message: (n: number) => string): void {
    if (this.n > 0) s.findings.push(finding('RECORDS_SKIPPED', message(this.n), { file: s.path, position: this.first }))
  }
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

function segmentOf(f: KafkaFile): Segment {
  return new FileSegment(f.path, f.baseOffset)
}

function partitionOf(d: PartitionDir): Partition {
  const segments = d.files.filter((f) => f.kind === 'log').map(segmentOf)
  return {
    path: d.path,
    topic: d.topic,
    partition: d.partition,
    segments,
    async *batches(opts?: ReadOptions) {
      for (const s of segments) yield* s.batches(opts)
    },
    async *records(opts?: ReadOptions): AsyncGenerator<SegmentRecord> {
      for (const s of segments) yield* s.records(opts)
    },
  }
}

function discoverOrThrow(p: string): ReturnType<typeof discover> {
  const d = discover([p])
  const bad = d.problems[0]
  if (bad !== undefined) throw new TsdumpError('UNREADABLE', `${bad.path}: ${bad.message}`, bad.path)
  return d
}

/** A .log segment (or KRaft .checkpoint) file. The file is opened when an iteration starts. */
export function openSegment(file: string): Segment {
  const c = classify(path.basename(file))
  return new FileSegment(file, 'baseOffset' in c ? c.baseOffset : null)
}

/** A partition directory (`<topic>-<partition>`); throws a TsdumpError (code UNREADABLE) when it cannot be read. */
export function openPartition(dir: string): Partition {
  const p = discoverOrThrow(dir).partitions[0]
  if (p === undefined) throw new TsdumpError('UNREADABLE', `${dir}: no Kafka files`, dir)
  return partitionOf(p)
}

/** Every partition directory of a broker log directory; throws a TsdumpError (code UNREADABLE) when it cannot be read. */
export function openLogDir(dir: string): Partition[] {
  return discoverOrThrow(dir).partitions.map(partitionOf)
}
