// What a remote storage offers the scan and the dump (store.ts opens one: a directory or an S3 prefix).
import type { SegmentSource } from '../../decode/segment-source.js'

export interface RemoteObject {
  /** relative to the store's root: `<topic>-<partition>-<topicId>/<offset>-<segmentId>.log` */
  key: string
  size: number
}

export interface RemoteStore {
  /** as the user gave it (`/backup/remote`, `s3://bucket/prefix`) */
  readonly spec: string
  /**
   * the key of every object under the root, each given to `visit` as it is listed and not kept (a storage's listing
   * held for a whole scan grew with every object in it); in the order `compareKeys` gives, or, for a directory, any
   * order. No size, but with `logSizes` each .log's where it costs the store only a stat (a directory's), for the
   * choice of worker threads by bytes (an S3 store gives none: it reads on one I/O thread whatever the threads)
   */
  forEachKey(visit: (key: string, size?: number) => void, logSizes?: boolean): void
  /** the objects whose keys start with `prefix` (one partition's: RemoteLayout.partitionPrefix), in key order */
  listPrefix(prefix: string): RemoteObject[]
  /** the order of the storage's listing (a directory's sorted keys; S3's, by UTF-8 bytes) */
  compareKeys(a: string, b: string): number
  /** the name messages and the dump use for an object: a path, or `s3://bucket/prefix/key` */
  nameOf(key: string): string
  /** entries below the root that could not be listed (unreadable directories, names that are not UTF-8) */
  readonly skipped?: ReadonlyArray<{ key: string; reason: string }>
  /**
   * an object, read in windows like a local file (.txnindex and .snapshot too: any size); `size`, its listed size
   * when the caller kept it, spares an S3 store its listing (a worker thread's store then lists nothing)
   */
  open(key: string, size?: number): SegmentSource
  /** the objects in the order they will be read, so that a store with latency reads ahead across them (S3) */
  plan?: (objects: ReadonlyArray<RemoteObject>) => void
}
