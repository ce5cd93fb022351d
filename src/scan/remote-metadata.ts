// The remote segments `__remote_log_metadata` describes (KIP-405, TopicBasedRemoteLogMetadataManager), each
// with its newest state: RemoteLogSegmentMetadataRecord (apiKey 0) creates one, ...UpdateRecord (1) moves it
// on (RemoteLogSegmentState: 0 COPY_SEGMENT_STARTED, 1 COPY_SEGMENT_FINISHED, 2 DELETE_SEGMENT_STARTED,
// 3 DELETE_SEGMENT_FINISHED), RemotePartitionDeleteMetadataRecord (2) marks a whole partition deleted.
import { forEachInternalRecord } from './internal-records.js'
import * as path from 'node:path'
import { FindingList } from '../analysis/finding-list.js'
import type { LostRecords } from '../analysis/lost-records.js'
import { finding } from '../analysis/findings.js'
import { SchemaReadError } from '../decode/protocol/reader.js'
import { decodeRemoteLogMetadataRecord } from '../decode/topics/remote-log-metadata.js'
import type { PartitionDir } from '../io/discover.js'
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

export function readRemoteLogMetadata(dirs: readonly PartitionDir[]): RemoteLogMetadata {
  const out: RemoteLogMetadata = {
    read: dirs.map((d) => d.path),
    segments: [],
    deletedPartitions: new Set(),
    findings: new FindingList(),
    lost: new Map(),
  }
  const byId = new Map<string, RemoteSegmentMetadata>()
  // every segment of a topic names it and its id: one string each, not one per segment (kept for the whole run)
  const names = new Map<string, string>()
  const intern = (s: string): string => {
    const known = names.get(s)
    if (known !== undefined) return known
    names.set(s, s)
    return s
  }
  for (const dir of dirs) {
    const lost = forEachInternalRecord(
      dir.files.filter((x) => x.kind === 'log'),
      out.findings,
      (rec, h, f) => {
        if (rec.value === null) return
        const at = { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : h.position }
        const r = decodeRemoteLogMetadataRecord(rec.value, rec.filePosition)
        // a version read past its definition may lack fields (decodeFramedRecord reads on with the ones it knows)
        if (r.unknownVersion && (r.apiKey === 0 || r.apiKey === 1 || r.apiKey === 2)) {
          out.findings.push(
            finding(
              'BAD_INTERNAL_RECORD',
              `${r.def.name} v${r.version} at offset ${rec.offset} is not defined in this release: not applied`,
              at,
            ),
          )
          return
        }
        apply(r.apiKey, r.data as Struct, byId, out, at, intern)
      },
      (e, f) =>
        e instanceof SchemaReadError
          ? finding('BAD_INTERNAL_RECORD', `__remote_log_metadata record not decoded: ${e.message}`, {
              file: f.path,
              position: e.position,
            })
          : undefined,
    )
    if (lost.length > 0) out.lost.set(dir.path, lost)
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
  out: RemoteLogMetadata,
  at: { file: string; position: number },
  intern: (s: string) => string,
): void {
  if (apiKey === 2) {
    const tip = d.topicIdPartition as Struct
    out.deletedPartitions.add(`${String(tip.id)}:${String(tip.partition)}`)
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
