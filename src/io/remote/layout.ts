// The two object layouts a tiered storage is found in, and which one a storage holds. Never guessed: either the
// user says (--remote-layout, --remote-prefix) or the object names say it without doubt; otherwise the storage is
// a usage error naming what was found, since reading it in the wrong layout would report every segment missing.
//  - Kafka's LocalTieredStorage (names.ts): `<topic>-<partition>-<topicId>/<offset:020d>-<segmentId>.<suffix>`
//  - Aiven's tiered-storage-for-apache-kafka (io.aiven.kafka.tieredstorage.ObjectKeyFactory.mainPath, its
//    Suffix enum): `<key.prefix><topic>-<topicId>/<partition>/<offset:020d>-<segmentId>.{log,indexes,rsm-manifest}`
import { InputError } from '../input-error.js'
import { parseRemotePartitionDir, parseRemoteSegmentFile, remoteSegmentKey } from './names.js'
import type { RemoteObject } from './remote-store.js'

export type RemoteLayoutName = 'local-tiered' | 'aiven'
export const REMOTE_LAYOUTS: readonly RemoteLayoutName[] = ['local-tiered', 'aiven']

/** one object of a remote segment, as its key names it */
export interface RemoteKey {
  topic: string
  partition: number
  topicId: string
  startOffset: bigint
  segmentId: string
  suffix: string
}

export interface RemoteLayout {
  readonly name: RemoteLayoutName
  /** Aiven's key.prefix ('' for LocalTieredStorage) */
  readonly prefix: string
  parse(key: string): RemoteKey | null
  keyOf(s: Omit<RemoteKey, 'suffix'>, suffix: string): string
}

const UUID_B64 = /^[A-Za-z0-9_-]{22}$/
const AIVEN_FILE = /^(\d{20})-([A-Za-z0-9_-]{22})\.(log|indexes|rsm-manifest)$/

export const LOCAL_TIERED: RemoteLayout = {
  name: 'local-tiered',
  prefix: '',
  parse(key) {
    const slash = key.indexOf('/')
    if (slash < 0 || key.indexOf('/', slash + 1) >= 0) return null
    const dir = parseRemotePartitionDir(key.slice(0, slash))
    const seg = parseRemoteSegmentFile(key.slice(slash + 1))
    if (dir === null || seg === null) return null
    // one literal, one shape: spread copies gave each of 100,000 parsed keys a hidden class of its own (30 MiB)
    return remoteKey(dir.topic, dir.partition, dir.topicId, seg.startOffset, seg.segmentId, seg.suffix)
  },
  keyOf: (s, suffix) => remoteSegmentKey(s.topic, s.partition, s.topicId, s.startOffset, s.segmentId, suffix),
}

const remoteKey = (
  topic: string,
  partition: number,
  topicId: string,
  startOffset: bigint,
  segmentId: string,
  suffix: string,
): RemoteKey => ({ topic, partition, topicId, startOffset, segmentId, suffix })

/** `<topic>-<topicId>/<partition>/<offset>-<segmentId>.<suffix>` after the prefix, and the prefix */
function parseAivenTail(key: string): (RemoteKey & { prefix: string }) | null {
  const parts = key.split('/')
  if (parts.length < 3) return null
  const file = AIVEN_FILE.exec(parts[parts.length - 1]!)
  const partition = parts[parts.length - 2]!
  const topicDir = parts[parts.length - 3]!
  if (file === null || !/^\d+$/.test(partition) || topicDir.length < 24 || topicDir[topicDir.length - 23] !== '-')
    return null
  const topicId = topicDir.slice(-22)
  if (!UUID_B64.test(topicId)) return null
  const prefix = parts
    .slice(0, -3)
    .map((p) => p + '/')
    .join('')
  return {
    prefix,
    topic: topicDir.slice(0, -23),
    partition: Number(partition),
    topicId,
    startOffset: BigInt(file[1]!),
    segmentId: file[2]!,
    suffix: file[3]!,
  }
}

/** Aiven's layout with its key prefix (which may end in any character, not only `/`) */
export function aivenLayout(prefix: string): RemoteLayout {
  return {
    name: 'aiven',
    prefix,
    parse(key) {
      if (!key.startsWith(prefix)) return null
      // the prefix may end inside the topic directory's name (`key.prefix` "kafka-" gives `kafka-orders-<id>/...`)
      const tail = parseAivenTail(key.slice(prefix.length))
      if (tail === null || tail.prefix !== '') return null
      return remoteKey(tail.topic, tail.partition, tail.topicId, tail.startOffset, tail.segmentId, tail.suffix)
    },
    keyOf: (s, suffix) =>
      `${prefix}${s.topic}-${s.topicId}/${s.partition}/${s.startOffset.toString().padStart(20, '0')}-${s.segmentId}.${suffix}`,
  }
}

/** what the user said about the layout (--remote-layout, --remote-prefix) */
export interface LayoutChoice {
  layout?: RemoteLayoutName
  prefix?: string
}

const SHOWN = 3

/**
 * The layout of a storage: the one asked for, or the one its object names show (LocalTieredStorage's names, or
 * Aiven's with `.rsm-manifest` objects under one prefix). @throws InputError (a usage error) when neither or both
 * fit, or Aiven's objects lie under several prefixes: the message names what was found.
 */
export function detectLayout(objects: readonly RemoteObject[], spec: string, choice: LayoutChoice = {}): RemoteLayout {
  if (choice.layout === 'local-tiered') return LOCAL_TIERED
  if (choice.layout === 'aiven' || choice.prefix !== undefined) {
    if (choice.prefix !== undefined) return aivenLayout(choice.prefix)
    return aivenLayout(onePrefix(objects, spec) ?? '')
  }
  if (objects.length === 0) return LOCAL_TIERED
  const local = objects.filter((o) => LOCAL_TIERED.parse(o.key) !== null).length
  const manifests = objects.filter((o) => o.key.endsWith('.rsm-manifest') && parseAivenTail(o.key) !== null).length
  if (local > 0 && manifests > 0) {
    throw layoutError(
      spec,
      `both layouts are present: ${local} objects named as Kafka's LocalTieredStorage names them and ${manifests} Aiven .rsm-manifest objects; give --remote-layout local-tiered|aiven`,
    )
  }
  if (manifests > 0) return aivenLayout(onePrefix(objects, spec) ?? '')
  if (local > 0) return LOCAL_TIERED
  const seen = objects
    .slice(0, SHOWN)
    .map((o) => o.key)
    .join(', ')
  throw layoutError(
    spec,
    `no object is named as Kafka's LocalTieredStorage (<topic>-<partition>-<topicId>/<offset>-<segmentId>.log) or Aiven's plugin (<prefix><topic>-<topicId>/<partition>/<offset>-<segmentId>.rsm-manifest) names them; found ${objects.length} objects: ${seen}${objects.length > SHOWN ? ', ...' : ''}. Give --remote-layout (and --remote-prefix) if this is one of them`,
  )
}

/** the one prefix Aiven's manifests lie under; several: a usage error */
function onePrefix(objects: readonly RemoteObject[], spec: string): string | null {
  const prefixes = new Set<string>()
  for (const o of objects) {
    if (!o.key.endsWith('.rsm-manifest')) continue
    const t = parseAivenTail(o.key)
    if (t !== null) prefixes.add(t.prefix)
  }
  if (prefixes.size > 1) {
    const shown = [...prefixes]
      .slice(0, SHOWN)
      .map((p) => (p === '' ? '(none)' : p))
      .join(', ')
    throw layoutError(
      spec,
      `Aiven .rsm-manifest objects lie under ${prefixes.size} key prefixes (${shown}): give --remote-prefix`,
    )
  }
  return prefixes.size === 0 ? null : [...prefixes][0]!
}

function layoutError(spec: string, message: string): InputError {
  return new InputError('REMOTE_LAYOUT_UNKNOWN', spec, `--remote-storage ${spec}: ${message}`)
}
