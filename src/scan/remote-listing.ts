// A remote storage's listing: one pass over it for its layout and the partitions it names (nothing per object
// kept), each partition's objects listed by its key prefix and grouped by segment id when it is read, and the
// size an Aiven segment's manifest gives. Split out of remote-segments.ts; `tsdump remote`
// reads the listing through it too.
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { describeFsError } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import { aivenManifest } from '../io/remote/aiven-source.js'
import type { LayoutChoice, RemoteLayout } from '../io/remote/layout.js'
import { aivenLayout, detectLayout, LayoutFacts, LOCAL_TIERED, parseAivenTail } from '../io/remote/layout.js'
import type { RemoteObject, RemoteStore } from '../io/remote/store.js'

export interface ListedSegment {
  startOffset: bigint
  topicId: string
  objects: Map<string, RemoteObject>
}

/** a partition the storage's objects name, with the topic id of its first object in the listing's order */
export interface StoredPartition {
  topic: string
  partition: number
  topicId: string
}

/** the partitions a listing names (one entry each, whatever its object count) */
class PartitionsSeen {
  readonly byName = new Map<string, StoredPartition & { key: string }>()
  constructor(private readonly order: (a: string, b: string) => number) {}
  add(k: StoredPartition, key: string): void {
    const id = `${k.topic}\u0000${k.partition}`
    const seen = this.byName.get(id)
    if (seen === undefined) this.byName.set(id, { topic: k.topic, partition: k.partition, topicId: k.topicId, key })
    else if (this.order(key, seen.key) < 0) Object.assign(seen, { topicId: k.topicId, key })
  }
}

export interface StorageSurvey {
  layout: RemoteLayout
  /** the partitions its objects name in that layout (when asked for) */
  partitions: StoredPartition[]
  /**
   * the bytes of the .log objects under a partition's key prefix (RemoteLayout.partitionPrefix), when asked for and
   * the store gives sizes in its listing (a directory); 0 otherwise
   */
  logBytesUnder: (prefix: string) => number
}

/** .log bytes by the directory of their keys (one entry a partition, not an object) */
class LogBytes {
  private readonly byDir = new Map<string, number>()
  add(key: string, size: number): void {
    const dir = key.slice(0, key.lastIndexOf('/') + 1)
    this.byDir.set(dir, (this.byDir.get(dir) ?? 0) + size)
  }
  under(prefix: string): number {
    // a partition's prefix is its directory, or (its topic id unknown) the start of its directories' names
    if (prefix.endsWith('/')) return this.byDir.get(prefix) ?? 0
    let n = 0
    for (const [dir, size] of this.byDir) if (dir.startsWith(prefix)) n += size
    return n
  }
}

/**
 * One pass over a storage's listing, none of it kept: its layout (the one asked for, or the one its names show:
 * io/remote/layout.ts detectLayout) and, `withPartitions`, the partitions its objects name. Each partition's objects
 * are listed again when it is read (listedSegments): a listing kept for the whole run grew with the storage (100
 * partitions of 300 remote segments from S3: 136 MiB peak RSS). `withLogBytes`: each partition's .log bytes too,
 * where the listing has sizes (a directory's), so that a partition with local segments is listed once, at its scan.
 * @throws InputError as detectLayout, or when the storage cannot be listed
 */
export function surveyStorage(
  store: RemoteStore,
  storage: string,
  choice: LayoutChoice,
  withPartitions: boolean,
  withLogBytes = false,
): StorageSurvey {
  const order = (a: string, b: string): number => store.compareKeys(a, b)
  const facts = new LayoutFacts(order)
  const fixed =
    choice.layout === 'local-tiered' ? LOCAL_TIERED : choice.prefix !== undefined ? aivenLayout(choice.prefix) : null
  // until the names have shown the layout, the partitions of either (Aiven's by prefix)
  const given = new PartitionsSeen(order)
  const local = new PartitionsSeen(order)
  const aiven = new Map<string, PartitionsSeen>()
  const bytes = new LogBytes()
  store.forEachKey((key, size) => {
    facts.add(key)
    if (size !== undefined) bytes.add(key, size)
    if (!withPartitions) return
    if (fixed !== null) {
      const k = fixed.parse(key)
      if (k !== null) given.add(k, key)
      return
    }
    const k = LOCAL_TIERED.parse(key)
    if (k !== null) local.add(k, key)
    const t = parseAivenTail(key)
    if (t === null) return
    let seen = aiven.get(t.prefix)
    if (seen === undefined) aiven.set(t.prefix, (seen = new PartitionsSeen(order)))
    seen.add(t, key)
  }, withLogBytes)
  const layout = detectLayout(facts, storage, choice)
  // a detected Aiven prefix ends in `/` (or is empty): its keys are those whose tail parses under it
  const seen = fixed !== null ? given : layout.name === 'local-tiered' ? local : aiven.get(layout.prefix)
  return {
    layout,
    partitions: [...(seen?.byName.values() ?? [])].map(({ topic, partition, topicId }) => ({
      topic,
      partition,
      topicId,
    })),
    logBytesUnder: (prefix) => bytes.under(prefix),
  }
}

/** the objects of one partition in the storage, by segment id, each by suffix (.log, .txnindex; Aiven's .indexes, .rsm-manifest) */
export function listedSegments(
  store: RemoteStore,
  layout: RemoteLayout,
  topic: string,
  partition: number,
  topicId: string | null,
): Map<string, ListedSegment> {
  const out = new Map<string, ListedSegment>()
  for (const o of store.listPrefix(layout.partitionPrefix(topic, partition, topicId))) {
    const k = layout.parse(o.key)
    if (k === null || k.topic !== topic || k.partition !== partition) continue
    if (topicId !== null && k.topicId !== topicId) continue
    let s = out.get(k.segmentId)
    if (s === undefined) {
      s = { startOffset: k.startOffset, topicId: k.topicId, objects: new Map() }
      out.set(k.segmentId, s)
    }
    s.objects.set(k.suffix, o)
  }
  return out
}

/**
 * The segment size an Aiven `.log` object holds: its manifest's originalFileSize (what __remote_log_metadata's
 * segmentSizeInBytes is compared with). An object whose size is not the chunk index's total, or a manifest that
 * cannot be read, is a finding; null then when the size is unknown.
 */
export function aivenSegmentSize(
  store: RemoteStore,
  s: ListedSegment,
  log: RemoteObject,
  findings: Finding[],
): number | null {
  const manifest = s.objects.get('rsm-manifest')
  if (manifest === undefined) {
    findings.push(
      finding(
        'REMOTE_UNREADABLE',
        `no .rsm-manifest beside it: Aiven's plugin cannot read the segment, nor can tsdump`,
        { file: store.nameOf(log.key), position: 0 },
      ),
    )
    return null
  }
  let m
  try {
    m = aivenManifest(store, manifest.key, manifest.size)
  } catch (e) {
    findings.push(
      finding(e instanceof InputError ? e.code : 'REMOTE_UNREADABLE', describeFsError(e), {
        file: store.nameOf(manifest.key),
        position: 0,
      }),
    )
    return null
  }
  const last = m.chunks[m.chunks.length - 1]
  const total = last === undefined ? 0 : last.transformedPosition + last.transformedSize
  if (total !== log.size)
    findings.push(
      finding('REMOTE_SIZE_MISMATCH', `the manifest's chunk index totals ${total} bytes, the object has ${log.size}`, {
        file: store.nameOf(log.key),
        position: 0,
      }),
    )
  return m.originalFileSize
}
