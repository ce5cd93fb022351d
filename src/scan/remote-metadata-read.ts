// A command's one read of `__remote_log_metadata`: each of its partitions read in its own partition scan's pass when
// the command scans it (a tap on the scan's frames, registered here for the partition as discovered), else alone
// when the metadata is first asked for. What asks: the remote segments' plan of each partition as its scan starts
// (scan/remote-segments.ts), the note of remote offsets not read, cleanup's tiered retention and doctor's remote
// inventory. A command's scan therefore takes these partitions first (scan/broker-model.ts remoteMetadataFirst).
import type { Finding } from '../analysis/findings.js'
import type { SegmentSource } from '../decode/segment-source.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import type { Frames } from './internal-records.js'
import type { RemoteLogMetadata } from './remote-metadata.js'
import { mergeRemoteLogMetadata, metadataPartitions, RemoteMetadataPartition } from './remote-metadata.js'
import { BufferSource } from '../io/buffer-source.js'
import { FileSource } from '../io/file-source.js'

/**
 * What the metadata read alone holds of its partitions' segments for their partition scans after it, at most: a
 * partition with no local segment needs its remote plan when the paths are resolved (whether to scan it at all),
 * before any scan, and the metadata's partitions among the paths are scanned then as the others are
 */
const HELD_BYTES = 4 * 1024 * 1024

type Tap = (frames: Frames, src: SegmentSource, file: KafkaFile) => Frames

export class RemoteMetadataRead {
  /** the metadata partitions: among the partitions given, or in their log directories */
  readonly dirs: PartitionDir[]
  private readonly names = new Map<string, string>()
  /** each partition's reader once its records were read (or are being read) in its scan */
  private readonly scanned = new Map<PartitionDir, RemoteMetadataPartition>()
  /** partitions whose --no-resync scan stopped at damage: their records past it are read alone (with resync) */
  private readonly stopped = new Set<PartitionDir>()
  private memo: RemoteLogMetadata | null | undefined

  /** the metadata partitions among the partitions given: a partition scan reads them after a read alone */
  private readonly given: Set<PartitionDir>

  constructor(partitions: readonly PartitionDir[]) {
    this.dirs = metadataPartitions(partitions)
    for (const d of this.dirs) reads.set(d, this)
    this.given = new Set(this.dirs.filter((d) => partitions.includes(d)))
  }

  /** `dir`'s scan is to read its records (`dir` is a metadata partition whose records were not read yet) */
  wants(dir: PartitionDir): boolean {
    return this.memo === undefined && reads.get(dir) === this && !this.scanned.has(dir)
  }

  /**
   * The tap that reads `dir`'s records in its partition scan's pass, when it wants them. `resync` false (--no-resync):
   * the scan stops at framing damage, where the metadata's readers resync past it; the frames up to the end of an
   * undamaged log are the same either way, so the tap's records stand unless a segment ended in damage (a tail or
   * corrupt bytes), and then the partition is read alone when the metadata is asked for.
   */
  tap(dir: PartitionDir, resync = true): Tap | undefined {
    if (!this.wants(dir)) return undefined
    const r = new RemoteMetadataPartition(dir, this.names)
    this.scanned.set(dir, r)
    if (resync) return (frames, src, file) => r.tap(frames, src, file)
    return (frames, src, file) => r.tap(this.watchDamage(dir, frames), src, file)
  }

  /** `frames` as they are, `dir` marked as stopped at the first tail or corrupt bytes among them */
  private watchDamage(dir: PartitionDir, frames: Frames): Frames {
    return {
      next: () => {
        const ev = frames.next()
        if (ev !== undefined && (ev.kind === 'tail' || ev.kind === 'corrupt')) this.stopped.add(dir)
        return ev
      },
    }
  }

  /** `dir`'s scan ended with `findings` (a segment it could not read loses the records past it) */
  scanEnded(dir: PartitionDir, findings: readonly Finding[]): void {
    if (this.memo !== undefined) return
    // a --no-resync scan that stopped at damage did not see what the metadata's readers read past it
    if (this.stopped.delete(dir)) this.scanned.delete(dir)
    else this.scanned.get(dir)?.finish(findings)
  }

  /** the metadata (null: no metadata partition), the partitions no scan read read alone now */
  metadata(): RemoteLogMetadata | null {
    if (this.memo !== undefined) return this.memo
    if (this.dirs.length === 0) {
      this.memo = null
      return null
    }
    let room = HELD_BYTES
    const read = this.dirs.map((d) => {
      let r = this.scanned.get(d)
      if (r === undefined) {
        r = new RemoteMetadataPartition(d, this.names)
        const hold = new Map<string, Buffer>()
        r.readAlone(
          this.given.has(d)
            ? (f) => {
                const src = new FileSource(f.path)
                if (src.size > room) return src
                room -= src.size
                return heldWhole(src, f.path, hold)
              }
            : undefined,
        )
        if (hold.size > 0) held.set(d, hold)
      }
      return r
    })
    this.memo = mergeRemoteLogMetadata(this.dirs, read)
    this.scanned.clear()
    return this.memo
  }
}

/** each metadata partition, as discovered, and the read it belongs to */
const reads = new WeakMap<PartitionDir, RemoteMetadataRead>()

/** the segments a read alone held for a metadata partition's scan after it, by path (let go as that scan ends) */
const held = new WeakMap<PartitionDir, Map<string, Buffer>>()

/** `src` read whole once into `hold` (under `file`), and served from there; a read that fails is left to its reader */
function heldWhole(src: FileSource, file: string, hold: Map<string, Buffer>): SegmentSource {
  // copy: the segment whole, for the read alone and then its partition's scan (at most HELD_BYTES in all)
  const bytes = Buffer.allocUnsafe(src.size)
  try {
    if (src.readInto(bytes, 0, src.size) < src.size) return src
  } catch {
    return src
  }
  src.close()
  hold.set(file, bytes)
  return new BufferSource(bytes, src.name)
}

/** a metadata partition's segment `file` as its read alone held it (its scan reads it from there), else undefined */
export function heldRemoteMetadata(dir: PartitionDir, file: KafkaFile): SegmentSource | undefined {
  const b = held.get(dir)?.get(file.path)
  return b === undefined ? undefined : new BufferSource(b, file.path)
}

/**
 * A partition scan's tap on a segment's frames (`theirs`, a command's) with, when `dir` is a metadata partition whose
 * records its command has not read yet, the metadata's before it; `resync` false (--no-resync): see
 * RemoteMetadataRead.tap
 */
export function withRemoteMetadataTap(theirs: Tap | undefined, dir: PartitionDir, resync: boolean): Tap | undefined {
  const own = reads.get(dir)?.tap(dir, resync)
  if (own === undefined || theirs === undefined) return own ?? theirs
  return (frames, src, file) => theirs(own(frames, src, file), src, file)
}

/** a partition scan of `dir` ended (remoteMetadataTap) */
export function remoteMetadataScanned(dir: PartitionDir, findings: readonly Finding[]): void {
  reads.get(dir)?.scanEnded(dir, findings)
  held.delete(dir)
}
