// Turns command-line paths into the Kafka files to read: a file, a partition directory
// (`orders-11-0/`, all its files in offset order) or a broker log directory (each partition in it).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describeFileType, InputError } from './input-error.js'
import type { AivenRef } from './remote/aiven-source.js'
import { fsPath, joinName } from './raw-names.js'

import type { FileKind } from './segment-names.js'
import {
  classify,
  compareSegmentFiles,
  comparePartitionDirNames,
  parsePartitionDirName,
  SUFFIX_KIND,
} from './segment-names.js'

export type { FileKind } from './segment-names.js'
export { classify, parsePartitionDirName } from './segment-names.js'

export interface KafkaFile {
  path: string
  name: string
  kind: FileKind
  /** from the file name (`00000000000000000042.log` → 42n); null when the name is not a number */
  baseOffset: bigint | null
  /** standard input (`-`), not a file */
  stdin?: boolean
  /** the partition directory it is in (`<topic>-<partition>`), set by the dump for its JSON objects */
  topic?: string
  partition?: number
  /** a remote segment's file (--remote-storage): `path` is then its display name (a path or an s3:// URL) */
  remote?: {
    storage: string
    key: string
    /** the object's size in the storage's listing (opening it then needs no listing) */
    size?: number
    /** --remote-concurrency, for the store a worker thread opens */
    concurrency?: number
    aiven?: AivenRef
    /** what its __remote_log_metadata entry says it holds (checked against its batches) */
    expect?: { startOffset: bigint; endOffset: bigint; leaderEpochs: Array<{ epoch: number; offset: bigint }> }
  }
}

export interface PartitionDir {
  path: string
  /** from `<topic>-<partition>`; topics may contain dashes; null for a directory not named that way */
  topic: string | null
  partition: number | null
  /** the broker log directory holding it (where replication-offset-checkpoint lives), if known */
  logDir: string
  files: KafkaFile[]
  /**
   * its entries of the log dir's replication-offset-checkpoint and log-start-offset-checkpoint (null: none), each
   * file read once for all its partitions when the paths are resolved (scan/partition-side-files.ts
   * attachCheckpoints); absent: not read yet
   */
  checkpoints?: PartitionCheckpoints | undefined
  /** partition.metadata's topic id (null: none), once read (io/remote/open.ts topicIdOf); absent: not read yet */
  topicId?: string | null
  /**
   * leader-epoch-checkpoint's entries as the broker loads them (null: none usable), once read
   * (scan/remote-lineage.ts lineageOf); absent: not read yet
   */
  epochLineage?: ReadonlyArray<{ epoch: number; offset: bigint }> | null
  /** what adding the remote segments found (scan/remote-segments.ts), reported with the partition's findings */
  remoteNotes?: Array<{
    code: string
    message: string
    file?: string
    firstOffset?: bigint
    lastOffset?: bigint
    position?: number
  }>
  /**
   * the offsets below its first local segment that are in remote storage and not read (without --remote-storage:
   * scan/remote-not-read.ts, set on the partition its scan reads as the scan starts), its REMOTE_NOT_READ note's
   * figures: the note's text is made when its scan reports it, not held for every partition through the scan
   */
  remoteNotRead?: {
    firstOffset: bigint
    lastOffset: bigint
    evidence: 'remote-log-metadata' | 'log-start-offset-checkpoint'
  }
}

/** a partition's entries of its log dir's offset checkpoints */
export interface PartitionCheckpoints {
  highWatermark: bigint | null
  logStart: bigint | null
}

export interface Skipped {
  path: string
  reason: string
}
/** `inside`: found inside a directory named on the command line (the rest of it may still be read), not named itself */
export interface InputProblem {
  path: string
  message: string
  inside?: true
}

export interface Discovery {
  /** in command-line order, each partition's files in offset order */
  files: KafkaFile[]
  partitions: PartitionDir[]
  skipped: Skipped[]
  problems: InputProblem[]
}

/**
 * What a discovery keeps of a log dir's partition directories. `segmentsOnly`: of each one's files only the segments
 * (`.log`) and snapshots of the metadata log (`.checkpoint`), the files a partition command reads through its list (the
 * side files it reads by name): at 20,000 partitions the others (leader-epoch-checkpoint, partition.metadata; on a
 * real broker the `.index`, `.timeindex`, `.snapshot` of each segment) were two thirds of the listing held through the
 * scan. A directory is a partition found, or one without Kafka files, by all its files as without it.
 */
export interface DiscoverOptions {
  segmentsOnly?: boolean
}

/** one string per topic name and per log dir, shared by their partitions instead of a copy in each */
type Names = Map<string, string>

function shared(names: Names, s: string): string {
  const had = names.get(s)
  if (had !== undefined) return had
  names.set(s, s)
  return s
}

const LISTED_KINDS: ReadonlySet<FileKind> = new Set(['log', 'checkpoint'])

function sortFiles(files: KafkaFile[]): KafkaFile[] {
  return files.sort(compareSegmentFiles)
}

/**
 * Directory entries with their display names and paths. Names are read as bytes so that a name that is
 * not UTF-8 keeps its bytes (io/raw-names.ts) instead of becoming a "no such file" later.
 */
function entries(dir: string): Array<{ ent: fs.Dirent<Buffer>; name: string; path: string }> {
  return fs.readdirSync(fsPath(dir), { withFileTypes: true, encoding: 'buffer' }).map((ent) => {
    const p = joinName(dir, ent.name)
    return { ent, name: path.basename(p), path: p }
  })
}

/** the partition directory and how many Kafka files it holds (all of them, kept or not) */
function readPartitionDir(
  dir: string,
  out: Discovery,
  names: Names,
  opts: DiscoverOptions,
): { part: PartitionDir; listed: number } {
  const files: KafkaFile[] = []
  let listed = 0
  for (const { ent, name, path: p } of entries(dir)) {
    if (!ent.isFile() && !(ent.isSymbolicLink() && statOrNull(p)?.isFile() === true)) {
      // A FIFO, device or dangling/looping link with a segment name would otherwise vanish silently
      // (and opening a FIFO would block): say why it is not read.
      if (!ent.isDirectory() && !('skip' in classify(name))) out.skipped.push({ path: p, reason: notRegular(ent, p) })
      continue
    }
    const c = classify(name)
    if ('skip' in c) {
      if (!['leader-epoch-checkpoint', 'partition.metadata'].includes(name))
        out.skipped.push({ path: p, reason: c.skip })
      else out.skipped.push({ path: p, reason: 'broker metadata file, not a segment' })
      continue
    }
    listed++
    if (opts.segmentsOnly !== true || LISTED_KINDS.has(c.kind))
      files.push({ path: p, name, kind: c.kind, baseOffset: c.baseOffset })
  }
  const resolved = path.resolve(dir)
  const tp = parsePartitionDirName(path.basename(resolved))
  const part: PartitionDir = {
    path: dir,
    topic: tp === null ? null : shared(names, tp.topic),
    partition: tp?.partition ?? null,
    logDir: shared(names, path.dirname(resolved)),
    // copy: the list at its length (an array grown by push keeps 17 slots: 128 bytes more a partition, held
    // through the whole scan at every partition count)
    files: Array.from(sortFiles(files)),
    // a slot for attachCheckpoints' entries: a property added to the object later costs a property array of 40
    // bytes a partition
    checkpoints: undefined,
  }
  return { part, listed }
}

function notRegular(ent: fs.Dirent<Buffer>, p: string): string {
  if (!ent.isSymbolicLink()) return `${describeFileType(ent)}, not a regular file`
  try {
    return `a symbolic link to ${describeFileType(fs.statSync(fsPath(p)))}`
  } catch (e) {
    return `symbolic link: ${describeFsError(e)}`
  }
}

function statOrNull(p: string): fs.Stats | null {
  try {
    return fs.statSync(fsPath(p))
  } catch {
    return null
  }
}

/**
 * `kafka-storage format` writes bootstrap.checkpoint into the metadata log directory, which by default is the
 * first log.dirs entry: it sits beside the partition directories and does not make its directory a partition.
 */
const LOG_DIR_FILE = 'bootstrap.checkpoint'

function hasSegmentFiles(dir: string): boolean {
  try {
    return entries(dir).some(({ name }) => {
      const c = classify(name)
      return !('skip' in c) && c.kind !== 'metadata' && name !== LOG_DIR_FILE
    })
  } catch {
    return false
  }
}

/**
 * Node decodes the command line as UTF-8, so a name whose bytes are not UTF-8 arrives with U+FFFD in place of
 * them and cannot be opened by any spelling: say so, and how to reach it (its directory is listed as bytes).
 */
function argvNameHint(p: string, e: unknown): string {
  if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || !p.includes('\uFFFD')) return ''
  return ' (the name has bytes that are not UTF-8: Node replaces them in command-line arguments, so such a name cannot be given there; give its parent directory instead, which tsdump lists byte for byte)'
}

/** Resolve command-line paths. Unreadable paths become problems, never exceptions. */
export function discover(paths: string[], opts: DiscoverOptions = {}): Discovery {
  const out: Discovery = { files: [], partitions: [], skipped: [], problems: [] }
  const names: Names = new Map()
  for (const p of paths) {
    let st: fs.Stats
    try {
      st = fs.statSync(p)
    } catch (e) {
      out.problems.push({ path: p, message: describeFsError(e) + argvNameHint(p, e) })
      continue
    }
    try {
      if (st.isFile()) addSingleFile(p, out)
      else if (st.isDirectory()) addDirectory(p, out, names, opts)
      else out.problems.push({ path: p, message: `${describeFileType(st)}, not a regular file or directory: not read` })
    } catch (e) {
      out.problems.push({ path: p, message: describeFsError(e) })
    }
  }
  return out
}

function addSingleFile(p: string, out: Discovery): void {
  const name = path.basename(p)
  const c = classify(name)
  // A file named on the command line is meant to be read: one tsdump cannot read (/etc/hostname) is a
  // usage error, not a skip that exits 0.
  if ('skip' in c) {
    out.problems.push({
      path: p,
      message: `not a Kafka file (${c.skip}); tsdump reads ${Object.keys(SUFFIX_KIND).join(', ')} files and partition or log directories`,
    })
    return
  }
  const f: KafkaFile = { path: p, name, kind: c.kind, baseOffset: c.baseOffset }
  out.files.push(f)
  const parent = path.dirname(p)
  const tp = parsePartitionDirName(path.basename(path.resolve(parent)))
  let part = out.partitions.find((x) => x.path === parent)
  if (part === undefined) {
    part = {
      path: parent,
      topic: tp?.topic ?? null,
      partition: tp?.partition ?? null,
      logDir: path.dirname(path.resolve(parent)),
      files: [],
    }
    out.partitions.push(part)
  }
  part.files.push(f)
  sortFiles(part.files)
}

function addDirectory(p: string, out: Discovery, names: Names, opts: DiscoverOptions): void {
  if (hasSegmentFiles(p)) {
    const { part, listed } = readPartitionDir(p, out, names, opts)
    out.partitions.push(part)
    out.files.push(...part.files)
    if (listed === 0)
      out.problems.push({ path: p, message: 'no readable Kafka segment files (see the skipped entries)' })
    return
  }
  // a broker log directory: one level of partition directories (no deeper recursion, so symlink loops end here)
  const ents = entries(p)
  const subdirs = ents
    .filter((e) => e.ent.isDirectory() || (e.ent.isSymbolicLink() && statOrNull(e.path)?.isDirectory() === true))
    .map((e) => e.name)
    .sort(comparePartitionDirNames)
  // dangling or looping links would otherwise vanish without a word
  for (const e of ents) {
    if (e.ent.isSymbolicLink() && statOrNull(e.path) === null)
      out.skipped.push({ path: e.path, reason: notRegular(e.ent, e.path) })
  }
  let found = 0
  const bootstrap = path.join(p, LOG_DIR_FILE)
  if (statOrNull(bootstrap)?.isFile() === true) {
    const f: KafkaFile = { path: bootstrap, name: LOG_DIR_FILE, kind: 'checkpoint', baseOffset: null }
    out.partitions.push({ path: p, topic: null, partition: null, logDir: path.resolve(p), files: [f] })
    out.files.push(f)
    found++
  }
  for (const name of subdirs) {
    const sub = path.join(p, name)
    if (parsePartitionDirName(name) === null && !hasSegmentFiles(sub)) {
      out.skipped.push({ path: sub, reason: 'not a partition directory' })
      continue
    }
    try {
      const { part, listed } = readPartitionDir(sub, out, names, opts)
      out.partitions.push(part)
      out.files.push(...part.files)
      if (listed > 0) found++ // an empty directory (or a link back to this one) is not a partition found
    } catch (e) {
      out.problems.push({ path: sub, message: describeFsError(e), inside: true })
    }
  }
  if (found === 0) out.problems.push({ path: p, message: 'no Kafka segment files or partition directories found' })
}

export function describeFsError(e: unknown): string {
  if (e instanceof InputError) return e.message
  const err = e as NodeJS.ErrnoException
  switch (err.code) {
    case 'ENOENT':
      return 'no such file or directory'
    case 'EACCES':
    case 'EPERM':
      return 'permission denied'
    case 'ELOOP':
      return 'too many levels of symbolic links'
    case 'EISDIR':
      return 'is a directory'
    case 'ENOTDIR':
      return 'not a directory'
    case 'ENOTFILE':
      return 'not a regular file'
    default:
      return err.message ?? String(e)
  }
}
