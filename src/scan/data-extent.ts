// What `tsdump doctor`'s summary says of the data before any analysis: how many segments and bytes the paths hold,
// and where its time window starts (the first batch's timestamp of each partition's first segment: as the partition
// scan saw it, else one header read).
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { sizeOf } from '../io/dir-listing.js'
import { FileSource } from '../io/file-source.js'
import { readLog } from '../decode/log-reader.js'
import type { ScannedPartition } from './partition-scan.js'

export interface DataExtent {
  segments: number
  /** the segments' sizes (.log files, local and remote), what every analysis reads at least once */
  bytes: number
  /** the earliest first-batch timestamp (baseTimestamp) among the partitions; null without a readable batch */
  firstTimestamp: bigint | null
}

const HEADER_WINDOW = 4096

/** the first batch's baseTimestamp of a segment, null when it has none that frames (damage, an empty file) */
function firstBatchTimestamp(file: KafkaFile): bigint | null {
  if (file.remote !== undefined) return null
  let src: FileSource | null = null
  try {
    src = new FileSource(file.path)
    for (const ev of readLog(src, { window: HEADER_WINDOW })) {
      // a negative timestamp (-1: none, magic 0) says nothing about time
      if (ev.kind === 'batch') return ev.header.baseTimestamp >= 0n ? ev.header.baseTimestamp : null
      if (ev.kind === 'legacy') return null
    }
    return null
  } catch {
    // an unreadable file is the analyses' finding, not the summary's
    return null
  } finally {
    src?.close()
  }
}

/**
 * Segments, bytes and the start of the time window of the partition directories. `firstSeen`: a segment's first
 * batch timestamp as a scan already saw it (undefined: not seen, then its first header is read here)
 */
export function dataExtent(
  partitions: readonly PartitionDir[],
  firstSeen: (file: string) => bigint | null | undefined = () => undefined,
): DataExtent {
  let segments = 0
  let bytes = 0
  let first: bigint | null = null
  for (const p of partitions) {
    const logs = p.files.filter((f) => f.kind === 'log')
    segments += logs.length
    for (const f of logs) bytes += f.remote !== undefined ? 0 : (sizeOf(f.path) ?? 0)
    const head = logs[0]
    const seen = head === undefined || head.remote !== undefined ? undefined : firstSeen(head.path)
    const t = head === undefined ? null : seen !== undefined ? seen : firstBatchTimestamp(head)
    if (t !== null && (first === null || t < first)) first = t
  }
  return { segments, bytes, firstTimestamp: first }
}

/**
 * dataExtent's firstTimestamp taken as each partition's scan ends (doctor): its first local segment's first batch
 * timestamp as the scan saw it (`firstSeen`, by file), else read as dataExtent reads it; the partition's files are
 * then let go of `firstSeen`, so that nothing per partition is held to the end
 */
export class EarliestFirstBatch {
  earliest: bigint | null = null

  partition(firstSeen: Map<string, bigint | null>, s: ScannedPartition): void {
    const head = s.dir.files.find((f) => f.kind === 'log' && f.remote === undefined)
    if (head !== undefined) {
      const seen = firstSeen.get(head.path)
      const t = seen !== undefined ? seen : firstBatchTimestamp(head)
      if (t !== null && (this.earliest === null || t < this.earliest)) this.earliest = t
    }
    for (const f of s.dir.files) firstSeen.delete(f.path)
  }
}
