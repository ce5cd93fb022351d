// The two object layouts a tiered storage is found in, and which one a storage holds. Never guessed: either the
// user says (--remote-layout, --remote-prefix) or the object names say it without doubt; otherwise the storage is
// a usage error naming what was found, since reading it in the wrong layout would report every segment missing.
//  - Kafka's LocalTieredStorage (names.ts): `<topic>-<partition>-<topicId>/<offset:020d>-<segmentId>.<suffix>`
//  - Aiven's tiered-storage-for-apache-kafka (io.aiven.kafka.tieredstorage.ObjectKeyFactory.mainPath, its
//    Suffix enum): `<key.prefix><topic>-<topicId>/<partition>/<offset:020d>-<segmentId>.{log,indexes,rsm-manifest}`
import { InputError } from '../input-error.js'
import { parseRemotePartitionDir, parseRemoteSegmentFile, remotePartitionDir, remoteSegmentKey } from './names.js'

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
  /**
   * the key prefix every object of the partition has (and maybe a few of other partitions: parse each): what a
   * listing of one partition asks for, so that no scan holds the whole storage's listing
   */
  partitionPrefix(topic: string, partition: number, topicId: string | null): string
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
  partitionPrefix: (topic, partition, topicId) =>
    topicId === null ? `${topic}-${partition}-` : `${remotePartitionDir(topic, partition, topicId)}/`,
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
export function parseAivenTail(key: string): (RemoteKey & { prefix: string }) | null {
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
    partitionPrefix: (topic, partition, topicId) =>
      topicId === null ? `${prefix}${topic}-` : `${prefix}${topic}-${topicId}/${partition}/`,
  }
}

/** what the user said about the layout (--remote-layout, --remote-prefix) */
export interface LayoutChoice {
  layout?: RemoteLayoutName
  prefix?: string
}

const SHOWN = 3

/**
 * What detection needs of a storage's objects, gathered as they are listed (LayoutFacts.add) so that the listing
 * itself is not kept: the count of objects in each layout, Aiven's prefixes, the first keys (for the message).
 */
export class LayoutFacts {
  count = 0
  local = 0
  manifests = 0
  /** the first SHOWN keys in the listing's order */
  readonly first: string[] = []
  /** each prefix Aiven's manifests lie under, with its first key in the listing's order */
  private readonly prefixFirst = new Map<string, string>()

  /** `order`: the listing's order of keys (a directory's sorted listing; S3's by UTF-8 bytes) */
  constructor(private readonly order: (a: string, b: string) => number) {}

  add(key: string): void {
    this.count++
    if (LOCAL_TIERED.parse(key) !== null) this.local++
    if (this.first.length < SHOWN || this.order(key, this.first[this.first.length - 1]!) < 0) {
      this.first.push(key)
      this.first.sort(this.order)
      if (this.first.length > SHOWN) this.first.pop()
    }
    if (!key.endsWith('.rsm-manifest')) return
    const t = parseAivenTail(key)
    if (t === null) return
    this.manifests++
    const seen = this.prefixFirst.get(t.prefix)
    if (seen === undefined || this.order(key, seen) < 0) this.prefixFirst.set(t.prefix, key)
  }

  /** the prefixes in the order the listing first names them */
  prefixes(): string[] {
    return [...this.prefixFirst].sort((a, b) => this.order(a[1], b[1])).map(([p]) => p)
  }
}

/**
 * The layout of a storage: the one asked for, or the one its object names show (LocalTieredStorage's names, or
 * Aiven's with `.rsm-manifest` objects under one prefix). @throws InputError (a usage error) when neither or both
 * fit, or Aiven's objects lie under several prefixes: the message names what was found.
 */
export function detectLayout(facts: LayoutFacts, spec: string, choice: LayoutChoice = {}): RemoteLayout {
  if (choice.layout === 'local-tiered') return LOCAL_TIERED
  if (choice.layout === 'aiven' || choice.prefix !== undefined) {
    if (choice.prefix !== undefined) return aivenLayout(choice.prefix)
    return aivenLayout(onePrefix(facts, spec) ?? '')
  }
  if (facts.count === 0) return LOCAL_TIERED
  const { local, manifests } = facts
  if (local > 0 && manifests > 0) {
    throw layoutError(
      spec,
      `both layouts are present: ${local} objects named as Kafka's LocalTieredStorage names them and ${manifests} Aiven .rsm-manifest objects; give --remote-layout local-tiered|aiven`,
    )
  }
  if (manifests > 0) return aivenLayout(onePrefix(facts, spec) ?? '')
  if (local > 0) return LOCAL_TIERED
  const seen = facts.first.join(', ')
  throw layoutError(
    spec,
    `no object is named as Kafka's LocalTieredStorage (<topic>-<partition>-<topicId>/<offset>-<segmentId>.log) or Aiven's plugin (<prefix><topic>-<topicId>/<partition>/<offset>-<segmentId>.rsm-manifest) names them; found ${facts.count} objects: ${seen}${facts.count > SHOWN ? ', ...' : ''}. Give --remote-layout (and --remote-prefix) if this is one of them`,
  )
}

/** the one prefix Aiven's manifests lie under; several: a usage error */
function onePrefix(facts: LayoutFacts, spec: string): string | null {
  const prefixes = facts.prefixes()
  if (prefixes.length > 1) {
    const shown = prefixes
      .slice(0, SHOWN)
      .map((p) => (p === '' ? '(none)' : p))
      .join(', ')
    throw layoutError(
      spec,
      `Aiven .rsm-manifest objects lie under ${prefixes.length} key prefixes (${shown}): give --remote-prefix`,
    )
  }
  return prefixes.length === 0 ? null : prefixes[0]!
}

function layoutError(spec: string, message: string): InputError {
  return new InputError('REMOTE_LAYOUT_UNKNOWN', spec, `--remote-storage ${spec}: ${message}`)
}
