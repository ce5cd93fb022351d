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
  /** every object under the root (cached: one listing per store) */
  list(): RemoteObject[]
  /** the name messages and the dump use for an object: a path, or `s3://bucket/prefix/key` */
  nameOf(key: string): string
  /** entries below the root that could not be listed (unreadable directories, names that are not UTF-8) */
  readonly skipped?: ReadonlyArray<{ key: string; reason: string }>
  /** an object, read in windows like a local file (.txnindex and .snapshot too: any size) */
  open(key: string): SegmentSource
  /** the objects in the order they will be read, so that a store with latency reads ahead across them (S3) */
  plan?: (keys: readonly string[]) => void
}
