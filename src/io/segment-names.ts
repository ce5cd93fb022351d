// What a file or directory name says: the kind of Kafka file, its base offset, the topic and partition of
// a partition directory, and the order names are read in. Pure string functions (no node:fs), so the
// discovery code that lists directories can change how it reads names without touching these rules.

export type FileKind = 'log' | 'index' | 'timeindex' | 'txnindex' | 'snapshot' | 'checkpoint' | 'metadata'

export const SUFFIX_KIND: Record<string, FileKind> = {
  '.log': 'log',
  '.index': 'index',
  '.timeindex': 'timeindex',
  '.txnindex': 'txnindex',
  '.snapshot': 'snapshot',
  '.checkpoint': 'checkpoint',
}
const KIND_ORDER: Record<FileKind, number> = {
  log: 0,
  index: 1,
  timeindex: 2,
  txnindex: 3,
  snapshot: 4,
  checkpoint: 5,
  metadata: 6,
}

/**
 * The text files of a partition directory (leader-epoch-checkpoint, partition.metadata) and of a broker log
 * directory (meta.properties and the offset checkpoints LogManager / ReplicaManager write): kind `metadata`.
 */
export const METADATA_FILE_NAMES: ReadonlySet<string> = new Set([
  'leader-epoch-checkpoint',
  'partition.metadata',
  'meta.properties',
  'replication-offset-checkpoint',
  'recovery-point-offset-checkpoint',
  'log-start-offset-checkpoint',
  'cleaner-offset-checkpoint',
])
const MAX_INT64 = 0x7fffffffffffffffn

// A plain segment name is the 20-digit base offset (LogFileUtils.filenamePrefixFromOffset). Tiered-storage
// copies are `<offset>-<remote log segment id>.<suffix>` (RemoteLogSegmentFileset: the id is a Kafka Uuid,
// 22 base64url characters; a 36-character textual UUID is accepted too): the offset is the digits before '-'.
const PLAIN_STEM = /^\d{1,20}$/
const TIERED_STEM = /^(\d{1,20})-[A-Za-z0-9_-]{1,64}$/

function offsetOf(stem: string): bigint | null {
  const digits = PLAIN_STEM.test(stem) ? stem : TIERED_STEM.exec(stem)?.[1]
  if (digits === undefined) return null
  const n = BigInt(digits)
  return n <= MAX_INT64 ? n : null
}

/** What kind of Kafka file a name is, or why it is skipped. */
export function classify(name: string): { kind: FileKind; baseOffset: bigint | null } | { skip: string } {
  if (METADATA_FILE_NAMES.has(name)) return { kind: 'metadata', baseOffset: null }
  const dot = name.lastIndexOf('.')
  if (dot < 0) return { skip: 'not a segment file (no suffix)' }
  const suffix = name.slice(dot)
  const kind = SUFFIX_KIND[suffix]
  if (kind === undefined) {
    if (/\.(deleted|cleaned|swap|part)$/.test(name))
      return { skip: `${suffix.slice(1)} file: an in-flight broker operation` }
    return { skip: `unknown suffix ${suffix}` }
  }
  return { kind, baseOffset: offsetOf(name.slice(0, name.indexOf('.'))) }
}

/** `orders-11-0` → topic `orders-11`, partition 0 (also `topic-0.<id>-delete` and `-future` directories) */
export function parsePartitionDirName(name: string): { topic: string; partition: number } | null {
  const m = /^(.+)-(\d+)(?:\.[0-9a-f]+-(?:delete|future|stray))?$/.exec(name)
  if (m === null) return null
  return { topic: m[1]!, partition: Number(m[2]) }
}

interface NamedFile {
  name: string
  kind: FileKind
  baseOffset: bigint | null
}

/**
 * Segment order: base offset (names that are not offsets first), then the whole stem, so the files of
 * one tiered copy (same offset and id) stay together, then log, index, timeindex, txnindex, snapshot.
 */
export function compareSegmentFiles(a: NamedFile, b: NamedFile): number {
  // a partition's own files (leader-epoch-checkpoint, partition.metadata) after its segments: the dump of a
  // partition directory starts with its first .log, as kafka-dump-log's of the segment files does
  const am = a.kind === 'metadata'
  const bm = b.kind === 'metadata'
  if (am !== bm) return am ? 1 : -1
  const ao = a.baseOffset ?? -1n
  const bo = b.baseOffset ?? -1n
  if (ao !== bo) return ao < bo ? -1 : 1
  const as = a.name.slice(0, a.name.indexOf('.'))
  const bs = b.name.slice(0, b.name.indexOf('.'))
  if (as !== bs) return as < bs ? -1 : 1
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] - KIND_ORDER[b.kind]
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0
}

/**
 * Directory order of a broker log directory: by topic, then partition number (t-2 before t-10, which a
 * plain string sort gets wrong); names that are not `<topic>-<partition>` sort by name after them.
 */
export function comparePartitionDirNames(a: string, b: string): number {
  const pa = parsePartitionDirName(a)
  const pb = parsePartitionDirName(b)
  if (pa !== null && pb !== null) {
    if (pa.topic !== pb.topic) return pa.topic < pb.topic ? -1 : 1
    if (pa.partition !== pb.partition) return pa.partition - pb.partition
  } else if (pa !== null || pb !== null) {
    return pa !== null ? -1 : 1
  }
  return a < b ? -1 : a > b ? 1 : 0
}

/** The names of one kind among `names` (a directory listing) with their base offsets, in segment order. */
export function namesOfKind(names: readonly string[], kind: FileKind): Array<{ name: string; baseOffset: bigint }> {
  const out: Array<{ name: string; kind: FileKind; baseOffset: bigint }> = []
  for (const name of names) {
    const c = classify(name)
    if ('kind' in c && c.kind === kind && c.baseOffset !== null) out.push({ name, kind, baseOffset: c.baseOffset })
  }
  return out.sort(compareSegmentFiles).map(({ name, baseOffset }) => ({ name, baseOffset }))
}
