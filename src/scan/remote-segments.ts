// A partition's remote segments (--remote-storage), added before its local ones so that every command reads
// them as one log. Which segments: the COPY_SEGMENT_FINISHED ones `__remote_log_metadata` names (when that
// topic is among the paths or in the log directories), else those a listing of the storage finds (said so:
// REMOTE_BY_LISTING). As the broker serves a fetch (RemoteLogManager reads remote storage only below the local
// log start offset, UnifiedLog.localLogStartOffset), a remote segment is read only where the local log has not
// got its offsets. The storage's layout (Kafka's LocalTieredStorage or Aiven's plugin) is the one the user gave
// or the one its object names show (io/remote/layout.ts); a storage in neither is a usage error.
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import type { RemoteLayout } from '../io/remote/layout.js'
import { topicIdOf } from '../io/remote/open.js'
import type { RemoteInput, RemoteSpec } from '../io/remote/spec.js'
import { remoteSpecOf } from '../io/remote/spec.js'
import type { RemoteObject, RemoteStore } from '../io/remote/store.js'
import { openRemoteStore } from '../io/remote/store.js'
import { finishedSegments, metadataLostFor, segmentsOf, REMOTE_LOG_METADATA_TOPIC } from './remote-metadata.js'
import { localStartOf, withRemoteNotRead } from './remote-not-read.js'
import { RemoteMetadataRead } from './remote-metadata-read.js'
import { lostAfter, lostText } from '../analysis/lost-records.js'
import type { ListedSegment, StorageSurvey } from './remote-listing.js'
import { listedSegments, surveyStorage } from './remote-listing.js'
import { segmentFiles } from './remote-files.js'
import type { EpochStart } from '../analysis/remote-epochs.js'
import { isRemoteSegmentWithinLeaderEpochs, lineageText } from '../analysis/remote-epochs.js'
import { lineageOf } from './remote-lineage.js'

export interface RemoteView {
  store: RemoteStore | null
  /** null when the store could not be listed */
  layout: RemoteLayout | null
  /** the metadata, read when a partition's plan first asks (null: no __remote_log_metadata partition was found) */
  meta: RemoteMetadataRead
  /** the storage could not be listed or opened */
  error?: string
  /** a partition's .log bytes in a directory store, by its key prefix (surveyStorage's; 0 in S3) */
  logBytesUnder?: (prefix: string) => number
}

/**
 * The store, its layout and the metadata `meta` reads (from among the partitions or from their log directories).
 * @throws InputError REMOTE_LAYOUT_UNKNOWN (a usage error) when the storage's layout is neither one, or both
 */
export function remoteView(remote: RemoteInput, meta: RemoteMetadataRead): RemoteView {
  const spec = remoteSpecOf(remote)
  let store: RemoteStore
  let survey: StorageSurvey
  try {
    store = openRemoteStore(spec.storage, spec.concurrency)
    survey = surveyStorage(store, spec.storage, spec, false, !spec.storage.startsWith('s3://'))
  } catch (e) {
    // a storage in neither layout is a usage error, not a storage that cannot be read
    if (e instanceof InputError && e.code === 'REMOTE_LAYOUT_UNKNOWN') throw e
    return { store: null, layout: null, meta, error: describeFsError(e) }
  }
  return { store, layout: survey.layout, meta, logBytesUnder: survey.logBytesUnder }
}

/** a command's remote storage, opened and its layout known: each partition's remote segments are listed when asked */
interface Planner {
  spec: RemoteSpec
  view: RemoteView
}

/** a partition whose remote segments are planned when its scan starts (withRemoteSegments) */
interface Pending {
  planner: Planner
  /** the first partition: what the listing could not read is said with its findings */
  first: boolean
  /** its local files, as discovered */
  local: KafkaFile[]
  /** whether it has a remote segment to read (a partition with no local segment is still scanned then) */
  logs: boolean
  /** its remote .log files' bytes where they are files (a directory store), as a stat of each would give */
  bytes: number
}

const pending = new WeakMap<PartitionDir, Pending>()

/**
 * Make each partition's remote segments known to withRemoteSegments, which prepends them to its files when its scan
 * starts; nothing per segment is kept here, so that memory follows the largest partition, not the storage (100
 * partitions of 100 remote segments held 0.45 KiB a segment for the whole run when every plan was built first).
 * The metadata is `meta`'s, asked at the first plan: its partitions' scans, taken first, read it (a partition with no
 * local segment needs its plan now, whether to scan it at all, and has the metadata read alone, which holds the
 * metadata partitions' segments for their scans: scan/remote-metadata-read.ts).
 * @throws InputError REMOTE_LAYOUT_UNKNOWN (see remoteView)
 */
export function addRemoteSegments(
  remote: RemoteInput,
  partitions: readonly PartitionDir[],
  meta: RemoteMetadataRead = new RemoteMetadataRead(partitions),
): void {
  const spec = remoteSpecOf(remote)
  const view = remoteView(spec, meta)
  const planner: Planner = { spec, view }
  let first = true
  for (const dir of partitions) {
    if (dir.topic === null || dir.partition === null || dir.topic === REMOTE_LOG_METADATA_TOPIC) continue
    const p: Pending = { planner, first: first && view.layout !== null, local: dir.files, logs: false, bytes: 0 }
    if (view.layout !== null) first = false
    // only a partition without a local segment needs its listing now (whether to scan it at all): the others are
    // listed once, when their scan starts. Their bytes choose worker threads for a directory store only
    // (remoteLogBytes): the survey's sum of the .log objects under the partition's prefix
    if (dir.files.some((f) => f.kind === 'log')) {
      p.logs = true
      if (view.layout !== null && view.logBytesUnder !== undefined)
        p.bytes = view.logBytesUnder(view.layout.partitionPrefix(dir.topic, dir.partition, topicIdOf(dir)))
    } else {
      const { files } = planPartition(p, dir, true)
      p.logs = files.length > 0
      p.bytes = spec.storage.startsWith('s3://') ? 0 : files.reduce((n, f) => n + (f.remote?.size ?? 0), 0)
    }
    pending.set(dir, p)
  }
}

/** the bytes of the partition's remote .log files in a directory store (0 in S3), for the choice of worker threads */
export function remoteLogBytes(dir: PartitionDir): number {
  return pending.get(dir)?.bytes ?? 0
}

/** whether the partition has remote segments to read (addRemoteSegments; true for one with a local segment, listed when its scan starts) */
export function hasRemoteSegments(dir: PartitionDir): boolean {
  return pending.get(dir)?.logs === true
}

/**
 * The partition with its remote segments before its local files and what finding them noted (`remoteNotes`): made
 * when its scan starts and dropped with it. Without remote storage, the partition with its REMOTE_NOT_READ note when it
 * has one (noteRemoteNotRead), else itself.
 */
export function withRemoteSegments(dir: PartitionDir): PartitionDir {
  const p = pending.get(dir)
  if (p === undefined) return withRemoteNotRead(dir)
  const { files, notes } = planPartition(p, dir)
  return { ...dir, files: [...files, ...p.local], remoteNotes: notes }
}

/** what finding the partition's remote segments notes (withRemoteSegments' remoteNotes), its files dropped */
export function remoteNotesOf(dir: PartitionDir): NonNullable<PartitionDir['remoteNotes']> {
  const p = pending.get(dir)
  return p === undefined ? [] : planPartition(p, dir).notes
}

/**
 * The partition as a scan's result keeps it: its local files after its first remote segment (where its log starts),
 * not every remote segment's file, which results kept for the whole run made grow with the segment count;
 * withRemoteSegments gives them again.
 */
export function scannedDir(dir: PartitionDir, scanned: PartitionDir): PartitionDir {
  const p = pending.get(dir)
  if (p === undefined || scanned === dir) return dir
  const head = scanned.files.find((f) => f.remote !== undefined && f.kind === 'log')
  if (head === undefined) return dir
  const out = { ...dir, files: [head, ...p.local] }
  pending.set(out, p)
  return out
}

/** withRemoteSegments for a scan: its reads planned (planRemoteReads), and what the scan's result keeps (scannedDir) */
export function remotePlanned(given: PartitionDir): { dir: PartitionDir; kept: PartitionDir } {
  const dir = withRemoteSegments(given)
  if (dir !== given) planRemoteReads(dir.files)
  return { dir, kept: scannedDir(given, dir) }
}

/** One partition's remote segment files and the notes of finding them; `sizes`: each .log only, with its size */
function planPartition(
  p: Pending,
  dir: PartitionDir,
  sizes = false,
): { files: KafkaFile[]; notes: NonNullable<PartitionDir['remoteNotes']> } {
  const { spec, view } = p.planner
  const storage = spec.storage
  const notes: NonNullable<PartitionDir['remoteNotes']> = []
  const files: KafkaFile[] = []
  if (dir.topic === null || dir.partition === null) return { files, notes }
  if (view.store === null || view.layout === null) {
    notes.push({
      code: 'REMOTE_UNREADABLE',
      message: `--remote-storage ${storage}: ${view.error ?? 'not readable'}`,
      file: storage,
    })
    return { files, notes }
  }
  const { store, layout } = view
  // what the listing could not read is said once, with the first partition
  if (p.first)
    for (const s of store.skipped ?? [])
      notes.push({
        code: 'REMOTE_UNREADABLE',
        message: `${s.key}: ${s.reason}; the rest of the storage is read`,
        file: store.nameOf(s.key),
      })
  const topicId = topicIdOf(dir)
  let listed: Map<string, ListedSegment>
  try {
    listed = listedSegments(store, layout, dir.topic, dir.partition, topicId)
  } catch (e) {
    // the partition's listing failed (the storage's whole listing did not): its remote segments cannot be known
    notes.push({
      code: 'REMOTE_UNREADABLE',
      message: `--remote-storage ${storage}: ${describeFsError(e)}`,
      file: storage,
    })
    return { files, notes }
  }
  const localStart = localStartOf({ ...dir, files: p.local })
  const segments: Array<{
    startOffset: bigint
    endOffset: bigint | null
    topicId: string
    segmentId: string
    sizeInBytes?: number
    leaderEpochs?: Array<{ epoch: number; offset: bigint }>
  }> = []
  const metadata = view.meta.metadata()
  const lost = metadata === null ? undefined : metadataLostFor(metadata, dir.topic, dir.partition)
  if (metadata !== null && lost !== undefined) {
    // records of its metadata could not be read: a FINISHED may be lost, a segment's creation too; every segment
    // the storage holds is read (where the local log has not got its offsets), and that is said
    const named = new Map(segmentsOf(metadata, dir.topic, dir.partition).map((s) => [s.segmentId, s]))
    for (const [segmentId, s] of listed) {
      const m = named.get(segmentId)
      if (
        m !== undefined &&
        m.state === 'DELETE_SEGMENT_FINISHED' &&
        lostAfter([lost], m.file, m.position) === undefined
      )
        continue
      if (s.objects.has('log'))
        segments.push({ startOffset: s.startOffset, endOffset: m?.endOffset ?? null, topicId: s.topicId, segmentId })
    }
    notes.push({
      code: 'REMOTE_STATE_UNKNOWN',
      message: `${dir.topic}-${dir.partition}: the states of its remote segments are unknown (${lostText(lost)}, where records of them may be): the ${segments.length} segment(s) the storage holds were read as its remote log`,
      file: lost.file,
      position: lost.position,
    })
  } else if (metadata !== null) {
    for (const s of finishedSegments(metadata, dir.topic, dir.partition, topicId)) segments.push(s)
  } else {
    for (const [segmentId, s] of listed)
      if (s.objects.has('log'))
        segments.push({ startOffset: s.startOffset, endOffset: null, topicId: s.topicId, segmentId })
    if (segments.length > 0)
      notes.push({
        code: 'REMOTE_BY_LISTING',
        message: `no ${REMOTE_LOG_METADATA_TOPIC} partition among the paths or in ${dir.logDir}: the ${segments.length} remote segments were found by listing ${storage} (unfinished uploads cannot be told from finished ones)`,
      })
  }
  segments.sort((a, b) => (a.startOffset < b.startOffset ? -1 : a.startOffset > b.startOffset ? 1 : 0))
  let covered: bigint | null = null
  // the partition's leader-epoch-checkpoint, read when a segment has a lineage to check against it
  let lineage: readonly EpochStart[] | undefined
  for (const s of segments) {
    // below the local log start only, and one segment per offset range (a re-upload after a leader change)
    if (localStart !== null && s.startOffset >= localStart) continue
    if (covered !== null && s.endOffset !== null && s.endOffset <= covered) continue
    const objects = listed.get(s.segmentId)?.objects
    const seg = {
      topic: dir.topic,
      partition: dir.partition,
      topicId: s.topicId,
      startOffset: s.startOffset,
      segmentId: s.segmentId,
    }
    const logKey = layout.keyOf(seg, 'log')
    if (objects?.has('log') !== true) {
      notes.push({
        code: 'REMOTE_SEGMENT_MISSING',
        message: `segment ${s.segmentId} (offsets ${s.startOffset}..${s.endOffset ?? '?'}) is COPY_SEGMENT_FINISHED but not in the storage: not read`,
        file: store.nameOf(logKey),
      })
      continue
    }
    const size = objects.get('log')!.size
    // `sizes`: whether it has any and their sizes, without its files' keys and paths
    const found = sizes
      ? [
          {
            path: logKey,
            name: logKey,
            kind: 'log' as const,
            baseOffset: s.startOffset,
            remote: { storage, key: logKey, size },
          },
        ]
      : segmentFiles(spec, layout, seg, objects, notes, store, s.sizeInBytes)
    if (s.endOffset !== null && s.leaderEpochs !== undefined) {
      found[0]!.remote!.expect = { startOffset: s.startOffset, endOffset: s.endOffset, leaderEpochs: s.leaderEpochs }
      lineage ??= lineageOf(dir) ?? []
      const why = lineageMismatch(s.leaderEpochs, s.endOffset, lineage)
      if (why !== null)
        notes.push({ code: 'REMOTE_EPOCHS_MISMATCH', message: why, file: store.nameOf(logKey), position: 0 })
    }
    files.push(...found)
    if (s.endOffset !== null) covered = covered === null || s.endOffset > covered ? s.endOffset : covered
  }
  return { files, notes }
}

/**
 * A remote segment's metadata lineage against the partition's leader epoch cache where the cache covers it (one
 * truncated at the log start above the segment says nothing of it), by Kafka's rule
 * (analysis/remote-epochs.ts isRemoteSegmentWithinLeaderEpochs); the log end offset is not known yet.
 */
function lineageMismatch(
  segment: readonly EpochStart[],
  endOffset: bigint,
  lineage: readonly EpochStart[],
): string | null {
  if (lineage.length === 0 || endOffset < lineage[0]!.offset) return null
  const why = isRemoteSegmentWithinLeaderEpochs(segment, endOffset, lineage, null)
  return why === null
    ? null
    : `its __remote_log_metadata entry's leader epochs ${lineageText(segment)} are not within the partition's leader-epoch-checkpoint ${lineageText(lineage)} (epoch=first offset): ${why}; the broker looks remote segments up by the checkpoint's epochs, so a fetch may not find this one, and its retention does not count it`
}

/**
 * Tells the store the order these remote files are read in, each .log's first bytes, then the .txnindex files, then
 * the segments (scan/partition-scan.ts), so that an S3 store fetches the next ones ahead. One partition's files at a
 * time: the next partition's scan replaces the plan.
 */
export function planRemoteReads(files: readonly KafkaFile[]): void {
  const remote = files.filter((f) => f.remote?.size !== undefined)
  const head = remote[0]?.remote
  if (head === undefined) return
  const order: RemoteObject[] = []
  for (const f of remote) if (f.kind === 'log') order.push({ key: f.remote!.key, size: f.remote!.size! })
  for (const f of remote) if (f.kind === 'txnindex') order.push({ key: f.remote!.key, size: f.remote!.size! })
  openRemoteStore(head.storage, head.concurrency).plan?.(order)
}
