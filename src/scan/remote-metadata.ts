// The remote segments `__remote_log_metadata` describes (KIP-405, TopicBasedRemoteLogMetadataManager), each
// with its newest state: RemoteLogSegmentMetadataRecord (apiKey 0) creates one, ...UpdateRecord (1) moves it
// on (RemoteLogSegmentState: 0 COPY_SEGMENT_STARTED, 1 COPY_SEGMENT_FINISHED, 2 DELETE_SEGMENT_STARTED,
// 3 DELETE_SEGMENT_FINISHED), RemotePartitionDeleteMetadataRecord (2) marks a whole partition deleted.
import { dataBatchTap, forEachInternalRecord, loseAt, visitBatch } from './internal-records.js'
import type { Frames } from './internal-records.js'
import * as path from 'node:path'
import { FindingList } from '../analysis/finding-list.js'
import type { LostRecords } from '../analysis/lost-records.js'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import type { BatchHeader } from '../decode/batch-header.js'
import type { V2Batch } from '../decode/log-reader.js'
import { readFrame } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { SchemaReadError } from '../decode/protocol/reader.js'
import { decodeRemoteLogMetadataRecord } from '../decode/topics/remote-log-metadata.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { internalPartitionsFor } from './internal-partitions.js'
import type { RemoteSegmentMetadata } from '../analysis/remote-inventory.js'
import { SEGMENT_STATES } from '../analysis/remote-inventory.js'

export type { RemoteSegmentMetadata } from '../analysis/remote-inventory.js'

export const REMOTE_LOG_METADATA_TOPIC = '__remote_log_metadata'
export interface RemoteLogMetadata {
  /** the __remote_log_metadata partition directories read */
  read: string[]
  segments: RemoteSegmentMetadata[]
  /** `<topicId>:<partition>` of partitions whose deletion (RemotePartitionDeleteMetadataRecord) was recorded */
  deletedPartitions: Set<string>
  findings: FindingList
  /** where records could not be read, per __remote_log_metadata partition directory (analysis/lost-records.ts) */
  lost: Map<string, LostRecords[]>
}

type Struct = Record<string, unknown>

/** The __remote_log_metadata partitions among `partitions` or in their log directories (each once): scan/internal-partitions.ts's rule. */
export function metadataPartitions(partitions: readonly PartitionDir[]): PartitionDir[] {
  return internalPartitionsFor(REMOTE_LOG_METADATA_TOPIC, partitions).dirs
}

/** The metadata `dirs` hold, each partition's files read alone. */
export function readRemoteLogMetadata(dirs: readonly PartitionDir[]): RemoteLogMetadata {
  const names = new Map<string, string>()
  return mergeRemoteLogMetadata(
    dirs,
    dirs.map((d) => {
      const r = new RemoteMetadataPartition(d, names)
      r.readAlone()
      return r
    }),
  )
}

/** the codes an I/O error of a segment gives in the partition scan (InputError): records past it are lost */
const IO_CODES = new Set<string>(['UNREADABLE', 'FILE_CHANGED', 'FILE_TOO_LARGE', 'NOT_REGULAR_FILE'])

/**
 * One __remote_log_metadata partition's records applied in file order: read alone, or as a tap on its partition
 * scan's frames (the pass that gives the partition's own facts), so that a command reads its files once.
 */
export class RemoteMetadataPartition {
  readonly findings = new FindingList()
  readonly byId = new Map<string, RemoteSegmentMetadata>()
  readonly deleted = new Set<string>()
  readonly lost: LostRecords[] = []
  private readonly logs: KafkaFile[]

  /** `names`: every segment of a topic names it and its id, one string each across the partitions read */
  constructor(
    readonly dir: PartitionDir,
    private readonly names: Map<string, string>,
  ) {
    this.logs = dir.files.filter((x) => x.kind === 'log')
  }

  /** its segments read alone, when no partition scan reads them; `open`: each segment's source (a FileSource) */
  readAlone(open?: (f: KafkaFile) => SegmentSource): void {
    this.lost.push(
      ...forEachInternalRecord(this.logs, this.findings, (rec, h, f) => this.visit(rec, h, f), notDecoded, open),
    )
  }

  /** the partition scan's frames of one segment, its records applied on the way (PartitionScanOptions.frames) */
  tap(frames: Frames, src: SegmentSource, file: KafkaFile): Frames {
    return dataBatchTap(
      frames,
      file,
      (f, at) => this.lose(f, at),
      (ev) => this.batch(readFrame(ev, { verifyCrc: false }) as V2Batch, src, file),
    )
  }

  /** after a tapped scan: a segment it could not open or that changed while read loses the records past it */
  finish(scanFindings: readonly Finding[]): void {
    for (const f of scanFindings)
      if (IO_CODES.has(f.code) && f.file !== undefined && this.logs.some((l) => l.path === f.file)) this.lose(f, f.file)
  }

  /** one data batch's records as forEachInternalRecord reads them: an error is a finding and the rest is skipped */
  private batch(b: V2Batch, src: SegmentSource, file: KafkaFile): void {
    visitBatch(b, src, file, this.findings, (rec, h, f) => this.visit(rec, h, f), notDecoded)
  }

  /** framing damage or an I/O error: a finding, and the first place of its file past which records were lost */
  private lose(f: Finding, file: string): void {
    loseAt(
      this.findings,
      this.lost,
      f,
      file,
      this.logs.map((x) => x.path),
    )
  }

  private visit(rec: KafkaRecord, h: BatchHeader, f: KafkaFile): void {
    if (rec.value === null) return
    const at = { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : h.position }
    const r = decodeRemoteLogMetadataRecord(rec.value, rec.filePosition)
    // a version read past its definition may lack fields (decodeFramedRecord reads on with the ones it knows)
    if (r.unknownVersion && (r.apiKey === 0 || r.apiKey === 1 || r.apiKey === 2)) {
      this.findings.push(
        finding(
          'BAD_INTERNAL_RECORD',
          `${r.def.name} v${r.version} at offset ${rec.offset} is not defined in this release: not applied`,
          at,
        ),
      )
      return
    }
    apply(r.apiKey, r.data as Struct, this.byId, this.deleted, at, (x) => intern(this.names, x))
  }
}

function intern(names: Map<string, string>, s: string): string {
  const known = names.get(s)
  if (known !== undefined) return known
  names.set(s, s)
  return s
}

function notDecoded(e: unknown, f: KafkaFile): Finding | undefined {
  return e instanceof SchemaReadError
    ? finding('BAD_INTERNAL_RECORD', `__remote_log_metadata record not decoded: ${e.message}`, {
        file: f.path,
        position: e.position,
      })
    : undefined
}

/** The metadata of `dirs` from each one's reader, in the order of `dirs` */
export function mergeRemoteLogMetadata(
  dirs: readonly PartitionDir[],
  read: readonly RemoteMetadataPartition[],
): RemoteLogMetadata {
  const out: RemoteLogMetadata = {
    read: dirs.map((d) => d.path),
    segments: [],
    deletedPartitions: new Set(),
    findings: new FindingList(),
    lost: new Map(),
  }
  const byId = new Map<string, RemoteSegmentMetadata>()
  for (const r of read) {
    for (const [id, s] of r.byId) byId.set(id, s)
    for (const d of r.deleted) out.deletedPartitions.add(d)
    out.findings.absorb(r.findings)
    if (r.lost.length > 0) out.lost.set(r.dir.path, r.lost)
  }
  out.segments = [...byId.values()].sort((a, b) =>
    a.topic < b.topic
      ? -1
      : a.topic > b.topic
        ? 1
        : a.partition !== b.partition
          ? a.partition - b.partition
          : a.startOffset < b.startOffset
            ? -1
            : a.startOffset > b.startOffset
              ? 1
              : 0,
  )
  return out
}

function apply(
  apiKey: number,
  d: Struct,
  byId: Map<string, RemoteSegmentMetadata>,
  deleted: Set<string>,
  at: { file: string; position: number },
  intern: (s: string) => string,
): void {
  if (apiKey === 2) {
    const tip = d.topicIdPartition as Struct
    deleted.add(`${String(tip.id)}:${String(tip.partition)}`)
    return
  }
  if (apiKey !== 0 && apiKey !== 1) return
  const sid = d.remoteLogSegmentId as Struct
  const tip = sid.topicIdPartition as Struct
  const segmentId = String(sid.id)
  const state = SEGMENT_STATES[Number(d.remoteLogSegmentState)] ?? 'COPY_SEGMENT_STARTED'
  const known = byId.get(segmentId)
  if (apiKey === 1) {
    // an update of a segment whose creation this copy of the topic no longer has: nothing to join it with
    if (known === undefined) return
    known.state = state
    known.history.push(state)
    known.eventTimestampMs = BigInt(d.eventTimestampMs as bigint)
    known.file = at.file
    known.position = at.position
    return
  }
  byId.set(segmentId, {
    topic: intern(String(tip.name)),
    partition: Number(tip.partition),
    topicId: intern(String(tip.id)),
    segmentId,
    startOffset: BigInt(d.startOffset as bigint),
    endOffset: BigInt(d.endOffset as bigint),
    brokerId: Number(d.brokerId),
    maxTimestampMs: BigInt(d.maxTimestampMs as bigint),
    eventTimestampMs: BigInt(d.eventTimestampMs as bigint),
    leaderEpochs: ((d.segmentLeaderEpochs as Struct[] | null) ?? []).map((e) => ({
      epoch: Number(e.leaderEpoch),
      offset: BigInt(e.offset as bigint),
    })),
    sizeInBytes: Number(d.segmentSizeInBytes),
    txnIndexEmpty: d.txnIndexEmpty === true,
    state,
    history: [state],
    ...at,
  })
}

/**
 * Where records of the metadata of `topic`-`partition` could not be read: of the metadata partition its segments
 * were read from (one topic partition's records go to one metadata partition,
 * RemoteLogMetadataTopicPartitioner), or, when none of its segments was read, of any metadata partition.
 */
export function metadataLostFor(md: RemoteLogMetadata, topic: string, partition: number): LostRecords | undefined {
  if (md.lost.size === 0) return undefined
  const mine = md.segments.find((s) => s.topic === topic && s.partition === partition && s.file !== undefined)
  if (mine === undefined) return [...md.lost.values()][0]![0]
  const home = path.resolve(path.dirname(mine.file!))
  for (const [dir, lost] of md.lost) if (path.resolve(dir) === home) return lost[0]
  return undefined
}

/**
 * The segments of one topic partition the metadata names, in offset order: indexed once per metadata read, so
 * that a scan of many partitions does not filter every segment for each of them (1,000 partitions of 100
 * segments: 10^8 comparisons).
 */
export function segmentsOf(md: RemoteLogMetadata, topic: string, partition: number): readonly RemoteSegmentMetadata[] {
  let index = byPartition.get(md)
  if (index === undefined) {
    index = new Map()
    for (const s of md.segments) {
      const id = `${s.partition} ${s.topic}`
      const list = index.get(id)
      if (list === undefined) index.set(id, [s])
      else list.push(s)
    }
    byPartition.set(md, index)
  }
  return index.get(`${partition} ${topic}`) ?? []
}
const byPartition = new WeakMap<RemoteLogMetadata, Map<string, RemoteSegmentMetadata[]>>()

/** the finished segments of a partition the metadata names, in offset order */
export function finishedSegments(
  metadata: RemoteLogMetadata,
  topic: string,
  partition: number,
  topicId: string | null,
): RemoteSegmentMetadata[] {
  return segmentsOf(metadata, topic, partition).filter(
    (s) =>
      (topicId === null || s.topicId === topicId) &&
      s.state === 'COPY_SEGMENT_FINISHED' &&
      !metadata.deletedPartitions.has(`${s.topicId}:${s.partition}`),
  )
}
