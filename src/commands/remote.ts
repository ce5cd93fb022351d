// `tsdump remote`: per partition, the remote segments __remote_log_metadata describes joined with the storage
// listing and the local log (analysis/remote-inventory.ts), as a table or one JSON object.
import type { Finding } from '../analysis/findings.js'
import { EXIT_USAGE, finding } from '../analysis/findings.js'
import type { RemotePartitionInventory, RemoteResult, StoredSegment } from '../analysis/remote-inventory.js'
import { joinInventory } from '../analysis/remote-inventory.js'
import { writeRemoteJson } from '../format/remote-json.js'
import { printRemoteText } from '../format/remote-text.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError, discover } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { remoteSpecOf } from '../io/remote/spec.js'
import { topicIdOf } from '../io/remote/open.js'
import { closeRemoteStores, openRemoteStore } from '../io/remote/store.js'
import {
  metadataLostFor,
  metadataPartitions,
  readRemoteLogMetadata,
  REMOTE_LOG_METADATA_TOPIC,
  segmentsOf,
} from '../scan/remote-metadata.js'
import type { RemoteLogMetadata } from '../scan/remote-metadata.js'
import { aivenSegmentSize, listedSegments, surveyStorage } from '../scan/remote-listing.js'
import type { CommandContext } from './context.js'
import { partitionExitCode, writeUnusable } from './partition-command.js'

export interface RemoteOptions {
  paths: string[]
  /** --remote-storage: a directory or s3://bucket/prefix (with its layout, prefix and key) */
  storage: RemoteInput
  format?: 'text' | 'json'
  color?: boolean
  wide?: boolean
}

/** remote()'s options (the library) */
export interface RemoteLibraryOptions {
  /** a directory or s3://bucket/prefix (with its layout, prefix and key), as --remote-storage */
  storage: RemoteInput
}

/** The remote segments of each partition under `paths`, joined with the storage's listing and the local log (`tsdump remote`). */
export function remote(paths: string[], opts: RemoteLibraryOptions): RemoteResult & { unusable: Finding[] } {
  // an S3 store's connections end with the call, as the command's do
  try {
    return remoteInventory(paths, opts.storage)
  } finally {
    closeRemoteStores()
  }
}

/**
 * What a caller that read the same paths already holds (doctor's broker model): each partition's topic id and the
 * __remote_log_metadata records, not read again
 */
export interface InventoryReads {
  partitions: readonly PartitionDir[]
  metadata: () => RemoteLogMetadata
}

/** The inventory; `unusable` when the paths or the storage cannot be read at all. */
export function remoteInventory(
  paths: string[],
  remote: RemoteInput,
  reads?: InventoryReads,
): RemoteResult & { unusable: Finding[] } {
  const r = inventoryStream(paths, remote, reads)
  return { ...r, partitions: [...r.partitions] }
}

/** the inventory with its partitions joined one at a time as they are iterated (each iteration joins them again) */
type InventoryStream = Omit<RemoteResult, 'partitions'> & {
  unusable: Finding[]
  partitions: Iterable<RemotePartitionInventory>
}

/**
 * The inventory, each partition joined when it is asked for: `tsdump remote --json` writes it and drops it, so that
 * its segment rows (about 0.9 KiB each) are not all held before the first is printed.
 */
function inventoryStream(paths: string[], remote: RemoteInput, reads?: InventoryReads): InventoryStream {
  const spec = remoteSpecOf(remote)
  const storage = spec.storage
  const d = discover(paths)
  const unusable = d.problems.map((p) => finding('UNREADABLE', p.message, { file: p.path }))
  const empty = { storage, metadataFrom: [], partitions: [], findings: [], unusable }
  if (unusable.length > 0) return empty
  let store
  let survey
  try {
    store = openRemoteStore(storage)
    survey = surveyStorage(store, storage, spec, true)
  } catch (e) {
    return {
      ...empty,
      unusable: [finding(e instanceof InputError ? e.code : 'UNREADABLE', describeFsError(e), { file: storage })],
    }
  }
  const mdirs = metadataPartitions(d.partitions)
  const metadata = mdirs.length === 0 ? null : (reads?.metadata() ?? readRemoteLogMetadata(mdirs))
  // the topic ids the caller's partitions hold (io/remote/open.ts topicIdOf: read once, kept on the partition)
  const held = new Map((reads?.partitions ?? []).map((p) => [p.path, p]))
  const topicIdAt = (dir: PartitionDir): string | null => topicIdOf(held.get(dir.path) ?? dir)
  const findings: Finding[] = [...(metadata?.findings.listed ?? [])]
  if (metadata === null)
    findings.push(
      finding(
        'REMOTE_BY_LISTING',
        `no ${REMOTE_LOG_METADATA_TOPIC} partition among the paths or in their log directories: states, offsets and epochs are unknown, the storage listing alone is shown`,
      ),
    )
  // every partition any of the three sources names
  const parts = new Map<
    string,
    { topic: string; partition: number; topicId: string | null; localStart: bigint | null }
  >()
  const add = (topic: string, partition: number, topicId: string | null, localStart: bigint | null = null): void => {
    const k = `${topic}\u0000${partition}`
    const p = parts.get(k)
    if (p === undefined) {
      parts.set(k, { topic, partition, topicId, localStart })
      return
    }
    p.topicId ??= topicId
    p.localStart ??= localStart
  }
  for (const dir of d.partitions) {
    if (dir.topic === null || dir.partition === null || dir.topic === REMOTE_LOG_METADATA_TOPIC) continue
    const bases = dir.files.filter((f) => f.kind === 'log' && f.baseOffset !== null).map((f) => f.baseOffset!)
    add(dir.topic, dir.partition, topicIdAt(dir), bases.length === 0 ? null : bases.reduce((a, b) => (b < a ? b : a)))
  }
  for (const s of metadata?.segments ?? []) add(s.topic, s.partition, s.topicId)
  for (const p of survey.partitions) add(p.topic, p.partition, p.topicId)
  const { layout } = survey
  for (const s of store.skipped ?? [])
    findings.push(finding('REMOTE_UNREADABLE', `${s.key}: ${s.reason}`, { file: store.nameOf(s.key), position: 0 }))
  const sorted = [...parts.values()].sort((a, b) =>
    a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition,
  )
  parts.clear()
  const join = (p: (typeof sorted)[number]): RemotePartitionInventory => {
    const stored = new Map<string, StoredSegment>()
    const sizeFindings: Finding[] = []
    let listed: ReturnType<typeof listedSegments>
    try {
      listed = listedSegments(store, layout, p.topic, p.partition, p.topicId)
    } catch (e) {
      // the storage was listed whole but this partition's listing failed: its objects are unknown, not missing
      listed = new Map()
      sizeFindings.push(
        finding(
          'REMOTE_UNREADABLE',
          `${describeFsError(e)}: the partition's objects are unknown (a segment shown missing may be there)`,
          { file: store.nameOf(layout.partitionPrefix(p.topic, p.partition, p.topicId)), position: 0 },
        ),
      )
    }
    for (const [id, s] of listed) {
      const log = s.objects.get('log')
      const logBytes =
        log === undefined ? null : layout.name === 'aiven' ? aivenSegmentSize(store, s, log, sizeFindings) : log.size
      stored.set(id, {
        startOffset: s.startOffset,
        topicId: s.topicId,
        logKey: log?.key ?? null,
        logBytes,
        suffixes: [...s.objects.keys()].sort(),
        keys: [...s.objects.values()].map((o) => o.key),
      })
    }
    const md =
      metadata === null
        ? null
        : segmentsOf(metadata, p.topic, p.partition).filter((s) => p.topicId === null || s.topicId === p.topicId)
    const lost = metadata === null ? undefined : metadataLostFor(metadata, p.topic, p.partition)
    const joined = joinInventory({
      topic: p.topic,
      partition: p.partition,
      topicId: p.topicId,
      localStartOffset: p.localStart,
      metadata: md,
      stored,
      nameOf: (k) => store.nameOf(k),
      ...(lost !== undefined ? { metadataLost: lost } : {}),
    })
    joined.findings.push(...sizeFindings)
    return joined
  }
  // each iteration joins the partitions again (the text's two passes)
  const partitions = {
    *[Symbol.iterator](): Generator<RemotePartitionInventory> {
      for (const p of sorted) yield join(p)
    },
  }
  return { storage, metadataFrom: metadata?.read ?? [], partitions, findings, unusable }
}

export async function runRemote(opts: RemoteOptions, ctx: CommandContext): Promise<number> {
  try {
    const s = inventoryStream(opts.paths, opts.storage)
    writeUnusable(s.unusable, ctx)
    if (s.unusable.length > 0) return EXIT_USAGE
    // something was read: a file among them that could not be is a finding, exit 1 at most (2 is for nothing read)
    let code = partitionExitCode([], s.findings)
    const counted = {
      *[Symbol.iterator](): Generator<RemotePartitionInventory> {
        for (const p of s.partitions) {
          code = Math.max(code, partitionExitCode([], p.findings))
          yield p
        }
      },
    }
    if (opts.format === 'json') writeRemoteJson(s, counted, ctx)
    else
      printRemoteText({ ...s, partitions: counted }, ctx, {
        colorLevel: opts.color === false ? 0 : ctx.colorLevel,
        wide: opts.wide === true,
      })
    return code
  } finally {
    closeRemoteStores()
  }
}
