// A partition's remote segments (--remote-storage), added before its local ones so that every command reads
// them as one log. Which segments: the COPY_SEGMENT_FINISHED ones `__remote_log_metadata` names (when that
// topic is among the paths or in the log directories), else those a listing of the storage finds (said so:
// REMOTE_BY_LISTING). As the broker serves a fetch (RemoteLogManager reads remote storage only below the local
// log start offset, UnifiedLog.localLogStartOffset), a remote segment is read only where the local log has not
// got its offsets.
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { parseRemotePartitionDir, parseRemoteSegmentFile, remoteSegmentKey } from '../io/remote/names.js'
import { partitionTopicId } from '../io/remote/open.js'
import type { RemoteObject, RemoteStore } from '../io/remote/store.js'
import { openRemoteStore } from '../io/remote/store.js'
import type { RemoteLogMetadata, RemoteSegmentMetadata } from './remote-metadata.js'
import { metadataLostFor, metadataPartitions, readRemoteLogMetadata, REMOTE_LOG_METADATA_TOPIC } from './remote-metadata.js'
import { lostAfter, lostText } from '../analysis/lost-records.js'

/** the remote segments' files read with each segment (the other suffixes are the broker's own business) */
const READ_SUFFIXES = ['log', 'txnindex'] as const

export interface RemoteView {
  store: RemoteStore | null
  /** null when no __remote_log_metadata partition was found */
  metadata: RemoteLogMetadata | null
  /** the storage could not be listed or opened */
  error?: string
}

/** The store and the metadata for `partitions` (metadata from among them or from their log directories). */
export function remoteView (storage: string, partitions: readonly PartitionDir[]): RemoteView {
  const dirs = metadataPartitions(partitions)
  const metadata = dirs.length === 0 ? null : readRemoteLogMetadata(dirs)
  try {
    const store = openRemoteStore(storage)
    store.list()
    return { store, metadata }
  } catch (e) {
    return { store: null, metadata, error: describeFsError(e) }
  }
}

/** the objects of one partition in the storage, by segment: its .log and .txnindex objects */
export function listedSegments (objects: readonly RemoteObject[], topic: string, partition: number, topicId: string | null):
  Map<string, { startOffset: bigint, topicId: string, objects: Map<string, RemoteObject> }> {
  const out = new Map<string, { startOffset: bigint, topicId: string, objects: Map<string, RemoteObject> }>()
  for (const o of objects) {
    const slash = o.key.indexOf('/')
    const dir = parseRemotePartitionDir(o.key.slice(0, slash))
    const seg = parseRemoteSegmentFile(o.key.slice(slash + 1))
    if (dir === null || seg === null || dir.topic !== topic || dir.partition !== partition) continue
    if (topicId !== null && dir.topicId !== topicId) continue
    let s = out.get(seg.segmentId)
    if (s === undefined) { s = { startOffset: seg.startOffset, topicId: dir.topicId, objects: new Map() }; out.set(seg.segmentId, s) }
    s.objects.set(seg.suffix, o)
  }
  return out
}

/** the finished segments of a partition the metadata names, in offset order */
export function finishedSegments (metadata: RemoteLogMetadata, topic: string, partition: number, topicId: string | null): RemoteSegmentMetadata[] {
  return metadata.segments.filter((s) => s.topic === topic && s.partition === partition && (topicId === null || s.topicId === topicId) &&
    s.state === 'COPY_SEGMENT_FINISHED' && !metadata.deletedPartitions.has(`${s.topicId}:${s.partition}`))
}

/** Prepend each partition's remote segments to its files (in place). */
export function addRemoteSegments (storage: string, partitions: PartitionDir[]): void {
  const view = remoteView(storage, partitions)
  for (const dir of partitions) {
    if (dir.topic === null || dir.partition === null || dir.topic === REMOTE_LOG_METADATA_TOPIC) continue
    const notes: NonNullable<PartitionDir['remoteNotes']> = []
    dir.remoteNotes = notes
    if (view.store === null) { notes.push({ code: 'REMOTE_UNREADABLE', message: `--remote-storage ${storage}: ${view.error ?? 'not readable'}`, file: storage }); continue }
    const store = view.store
    const topicId = partitionTopicId(dir.path)
    const listed = listedSegments(store.list(), dir.topic, dir.partition, topicId)
    const localStart = dir.files.filter((f) => f.kind === 'log' && f.baseOffset !== null).map((f) => f.baseOffset!).reduce<bigint | null>((a, b) => a === null || b < a ? b : a, null)
    const segments: Array<{ startOffset: bigint, endOffset: bigint | null, topicId: string, segmentId: string, sizeInBytes?: number }> = []
    const lost = view.metadata === null ? undefined : metadataLostFor(view.metadata, dir.topic, dir.partition)
    if (view.metadata !== null && lost !== undefined) {
      // records of its metadata could not be read: a FINISHED may be lost, a segment's creation too; every segment
      // the storage holds is read (where the local log has not got its offsets), and that is said
      const named = new Map(view.metadata.segments.filter((s) => s.topic === dir.topic && s.partition === dir.partition).map((s) => [s.segmentId, s]))
      for (const [segmentId, s] of listed) {
        const m = named.get(segmentId)
        if (m !== undefined && m.state === 'DELETE_SEGMENT_FINISHED' && lostAfter([lost], m.file, m.position) === undefined) continue
        if (s.objects.has('log')) segments.push({ startOffset: s.startOffset, endOffset: m?.endOffset ?? null, topicId: s.topicId, segmentId })
      }
      notes.push({ code: 'REMOTE_STATE_UNKNOWN', message: `${dir.topic}-${dir.partition}: the states of its remote segments are unknown (${lostText(lost)}, where records of them may be): the ${segments.length} segment(s) the storage holds were read as its remote log`, file: lost.file, position: lost.position })
    } else if (view.metadata !== null) {
      for (const s of finishedSegments(view.metadata, dir.topic, dir.partition, topicId)) segments.push(s)
    } else {
      for (const [segmentId, s] of listed) if (s.objects.has('log')) segments.push({ startOffset: s.startOffset, endOffset: null, topicId: s.topicId, segmentId })
      if (segments.length > 0) notes.push({ code: 'REMOTE_BY_LISTING', message: `no ${REMOTE_LOG_METADATA_TOPIC} partition among the paths or in ${dir.logDir}: the ${segments.length} remote segments were found by listing ${storage} (unfinished uploads cannot be told from finished ones)` })
    }
    segments.sort((a, b) => (a.startOffset < b.startOffset ? -1 : a.startOffset > b.startOffset ? 1 : 0))
    const files: KafkaFile[] = []
    let covered: bigint | null = null
    for (const s of segments) {
      // below the local log start only, and one segment per offset range (a re-upload after a leader change)
      if (localStart !== null && s.startOffset >= localStart) continue
      if (covered !== null && s.endOffset !== null && s.endOffset <= covered) continue
      const objects = listed.get(s.segmentId)?.objects
      const logKey = remoteSegmentKey(dir.topic, dir.partition, s.topicId, s.startOffset, s.segmentId, 'log')
      if (objects?.has('log') !== true) {
        notes.push({ code: 'REMOTE_SEGMENT_MISSING', message: `segment ${s.segmentId} (offsets ${s.startOffset}..${s.endOffset ?? '?'}) is COPY_SEGMENT_FINISHED but not in the storage: not read`, file: store.nameOf(logKey) })
        continue
      }
      const stored = objects.get('log')!.size
      if (s.sizeInBytes !== undefined && stored !== s.sizeInBytes) {
        notes.push({ code: 'REMOTE_SIZE_MISMATCH', message: `the metadata says ${s.sizeInBytes} bytes, the storage has ${stored}: read as it is`, file: store.nameOf(logKey) })
      }
      for (const suffix of READ_SUFFIXES) {
        const key = remoteSegmentKey(dir.topic, dir.partition, s.topicId, s.startOffset, s.segmentId, suffix)
        // a missing .log is reported when it is opened (REMOTE_SEGMENT_MISSING in `tsdump remote`); a missing .txnindex is normal
        if (suffix === 'txnindex' && objects?.has(suffix) !== true) continue
        files.push({ path: store.nameOf(key), name: key, kind: suffix, baseOffset: s.startOffset, remote: { storage, key }, topic: dir.topic, partition: dir.partition })
      }
      if (s.endOffset !== null) covered = covered === null || s.endOffset > covered ? s.endOffset : covered
    }
    dir.files = [...files, ...dir.files]
  }
}
