// The paths a partition command was given, resolved to the partitions it scans: which cannot be used at all (exit 2),
// which partition directories inside a log dir cannot be read while others can (exit 1), and the one scan of each.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { PartitionDir } from '../io/discover.js'
import { discover } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { comparePartitionDirNames } from '../io/segment-names.js'
import type { PartitionScanOptions, ScannedPartition } from './partition-scan.js'
import { scanPartition } from './partition-scan.js'
import { attachCheckpoints } from './partition-side-files.js'
import { addRemoteSegments, hasRemoteSegments } from './remote-segments.js'
import { noteRemoteNotRead } from './remote-not-read.js'
import { RemoteMetadataRead } from './remote-metadata-read.js'
/** Paths to partitions with .log files; `unusable`: UNREADABLE per path that cannot be used (exit 2); `unreadable`:
 * per partition directory inside a named log dir that cannot be read while others can (answered, exit 1). */
export function resolvePartitions(paths: string[], remote?: RemoteInput): ResolvedPartitions {
  // a partition's analysis needs its directory (txnindex, snapshots, checkpoint), which a pipe has not
  if (paths.includes('-'))
    return {
      partitions: [],
      unusable: [
        finding(
          'UNREADABLE',
          'standard input is read by the dump only (tsdump -); reconcile, txns and lso need the partition directory',
          { file: '-' },
        ),
      ],
      unreadable: [],
      remoteMetadata: new RemoteMetadataRead([]),
    }
  // of each partition's files only what the scans read through its list (io/discover.ts DiscoverOptions)
  const d = discover(paths, { segmentsOnly: true })
  attachCheckpoints(d.partitions)
  const unusable = d.problems
    .filter((p) => p.inside !== true)
    .map((p) => finding('UNREADABLE', p.message, { file: p.path }))
  const inner = d.problems
    .filter((p) => p.inside === true)
    .map((p) => finding('UNREADABLE', p.message, { file: p.path }))
  const remoteMetadata = new RemoteMetadataRead(unusable.length > 0 ? [] : d.partitions)
  if (unusable.length > 0) return { partitions: [], unusable: [...unusable, ...inner], unreadable: [], remoteMetadata }
  if (remote !== undefined) {
    // a storage in no known layout is a usage error, as a path that cannot be used
    try {
      addRemoteSegments(remote, d.partitions, remoteMetadata)
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      return {
        partitions: [],
        unusable: [finding(e.code, e.message, { file: e.file, position: 0 })],
        unreadable: [],
        remoteMetadata,
      }
    }
  } else noteRemoteNotRead(d.partitions, remoteMetadata)
  // reports list partitions in topic, then numeric partition order, however the shell expanded the paths
  const partitions = d.partitions
    .filter((p) => p.files.some((f) => f.kind === 'log') || hasRemoteSegments(p))
    .sort((a, b) => comparePartitionDirNames(path.basename(path.resolve(a.path)), path.basename(path.resolve(b.path))))
  if (partitions.length === 0)
    return {
      partitions,
      unusable:
        inner.length > 0 ? inner : paths.map((p) => finding('UNREADABLE', 'no .log segment files found', { file: p })),
      unreadable: [],
      remoteMetadata,
    }
  return { partitions, unusable, unreadable: inner, remoteMetadata }
}

/**
 * resolvePartitions' answer; `remoteMetadata`: the command's one read of __remote_log_metadata, by the scans of its
 * partitions among `partitions` when they run first (remoteMetadataFirst), else alone when first asked
 */
export interface ResolvedPartitions {
  partitions: PartitionDir[]
  unusable: Finding[]
  unreadable: Finding[]
  remoteMetadata: RemoteMetadataRead
}

/** the partitions among `partitions` whose scans read the command's __remote_log_metadata, in order: scan them first */
export function remoteMetadataFirst(r: ResolvedPartitions): PartitionDir[] {
  return r.partitions.filter((p) => r.remoteMetadata.wants(p))
}

/** what a partition command scanned: see resolvePartitions for `unusable` and `unreadable` */
export interface ScannedPaths {
  unusable: Finding[]
  unreadable: Finding[]
  scanned: ScannedPartition[]
}

/** Scan every partition under `paths`, one at a time, on this thread (commands/workers/partition-pool.ts spreads them over threads). */
export function scanPaths(paths: string[], opts: PartitionScanOptions = {}): ScannedPaths {
  const { partitions, unusable, unreadable } = resolvePartitions(paths, opts.remote)
  const cps = new Map<string, OffsetCheckpoint | null>()
  return { unusable, unreadable, scanned: partitions.map((p) => scanPartition(p, cps, opts)) }
}
