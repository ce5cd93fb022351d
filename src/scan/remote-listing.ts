// A remote storage's listing read per partition: its objects grouped by segment id (the keys parsed once for every
// partition), and the size an Aiven segment's manifest gives. Split out of remote-segments.ts; `tsdump remote`
// reads the listing through it too.
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { describeFsError } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import { aivenManifest } from '../io/remote/aiven-source.js'
import type { RemoteLayout } from '../io/remote/layout.js'
import type { RemoteObject, RemoteStore } from '../io/remote/store.js'

export interface ListedSegment {
  startOffset: bigint
  topicId: string
  objects: Map<string, RemoteObject>
}

/**
 * A listing's objects grouped by topic and partition, each key parsed here and once more when its partition is
 * taken: parsing every key again for each partition cost O(partitions x objects) short-lived strings (100
 * partitions of 1,100 objects: reconcile from a directory 124 MiB peak RSS, 64 MiB without the storage), and
 * keeping the parsed keys cost 250 bytes an object (100,000 objects: 25 MiB more than the listing).
 */
const byPartition = new WeakMap<readonly RemoteObject[], { layout: RemoteLayout; parts: Map<string, RemoteObject[]> }>()

function partitionObjects(
  objects: readonly RemoteObject[],
  layout: RemoteLayout,
  topic: string,
  partition: number,
): readonly RemoteObject[] {
  let index = byPartition.get(objects)
  if (index === undefined || index.layout !== layout) {
    const parts = new Map<string, RemoteObject[]>()
    for (const o of objects) {
      const k = layout.parse(o.key)
      if (k === null) continue
      const id = `${k.partition} ${k.topic}`
      const list = parts.get(id)
      if (list === undefined) parts.set(id, [o])
      else list.push(o)
    }
    index = { layout, parts }
    byPartition.set(objects, index)
  }
  return index.parts.get(`${partition} ${topic}`) ?? []
}

/** the objects of one partition in the storage, by segment id, each by suffix (.log, .txnindex; Aiven's .indexes, .rsm-manifest) */
export function listedSegments(
  objects: readonly RemoteObject[],
  layout: RemoteLayout,
  topic: string,
  partition: number,
  topicId: string | null,
): Map<string, ListedSegment> {
  const out = new Map<string, ListedSegment>()
  for (const o of partitionObjects(objects, layout, topic, partition)) {
    const k = layout.parse(o.key)!
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
