// A listed remote segment's files as the scan reads them: its .log and its .txnindex (in Aiven's layout, the
// .indexes object's transaction index), each with the size the listing gave, so that opening it needs no listing
// (io/remote/remote-store.ts open: the listing is dropped once the files are known, and a worker thread's S3 store
// lists nothing). Split out of remote-segments.ts.
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import type { RemoteLayout } from '../io/remote/layout.js'
import type { RemoteSpec } from '../io/remote/spec.js'
import type { RemoteObject, RemoteStore } from '../io/remote/store.js'

const concurrencyOf = (spec: RemoteSpec): { concurrency?: number } =>
  spec.concurrency !== undefined ? { concurrency: spec.concurrency } : {}

/**
 * The string as one sequence of characters. A key or path built by concatenation is a tree of its pieces (V8's cons
 * strings) until something flattens it, and kept whole for every remote segment of a scan it was most of the
 * files' memory: 100 partitions of 1,000 remote segments held 50 MiB of string pieces.
 */
export function flat(s: string): string {
  const f = Buffer.from(s, 'utf8').toString('utf8')
  // a string UTF-8 cannot carry (a lone surrogate) is kept as it is
  return f === s ? f : s
}

/** a listed segment's files: its .log and its .txnindex (in Aiven's layout, from .indexes) */
export function segmentFiles(
  spec: RemoteSpec,
  layout: RemoteLayout,
  seg: Parameters<RemoteLayout['keyOf']>[0],
  objects: Map<string, RemoteObject>,
  notes: NonNullable<PartitionDir['remoteNotes']>,
  store: RemoteStore,
  sizeInBytes: number | undefined,
): KafkaFile[] {
  const base = { baseOffset: seg.startOffset, topic: seg.topic, partition: seg.partition }
  const file = (
    suffix: string,
    kind: 'log' | 'txnindex',
    extra: Partial<NonNullable<KafkaFile['remote']>> = {},
  ): KafkaFile => {
    const key = flat(layout.keyOf(seg, suffix))
    return {
      path: flat(store.nameOf(key)),
      name: key,
      kind,
      remote: { storage: spec.storage, key, size: objects.get(suffix)!.size, ...extra, ...concurrencyOf(spec) },
      ...base,
    }
  }
  if (layout.name === 'aiven') {
    // the .log object holds the transformed chunks: its size is compared with the manifest's (by `tsdump remote`), not the metadata's
    const manifest = objects.get('rsm-manifest')
    const aiven = {
      manifest: flat(layout.keyOf(seg, 'rsm-manifest')),
      ...(manifest !== undefined ? { manifestSize: manifest.size } : {}),
      ...(spec.keyFile !== undefined ? { keyFile: spec.keyFile } : {}),
    }
    const out = [file('log', 'log', { aiven })]
    if (objects.has('indexes')) out.push(file('indexes', 'txnindex', { aiven: { ...aiven, index: 'transaction' } }))
    return out
  }
  const stored = objects.get('log')!.size
  if (sizeInBytes !== undefined && stored !== sizeInBytes) {
    notes.push({
      code: 'REMOTE_SIZE_MISMATCH',
      message: `the metadata says ${sizeInBytes} bytes, the storage has ${stored}: read as it is`,
      file: store.nameOf(layout.keyOf(seg, 'log')),
    })
  }
  const out = [file('log', 'log')]
  // a missing .txnindex is normal (no aborted transactions)
  if (objects.has('txnindex')) out.push(file('txnindex', 'txnindex'))
  return out
}
