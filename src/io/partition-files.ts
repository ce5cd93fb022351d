// The small text files beside the segments and in a broker log directory that say who the replica is:
// leader-epoch-checkpoint (Kafka LeaderEpochCheckpointFile over CheckpointFile: `0`, a count, then
// `<epoch> <startOffset>` lines), partition.metadata (PartitionMetadataFile: `version: 0`, `topic_id: <id>`)
// and meta.properties (java.util.Properties: `key=value`, `#` comments).
// Parsed strictly as CheckpointFile.read does (a wrong version, count or line makes the file unusable): a
// damaged file is reported with the byte position of the line at fault, never thrown. Each is streamed line
// by line (text-lines.ts): what a caller keeps of the entries is its own choice.
import * as path from 'node:path'
import type { FileSource } from './file-source.js'
import type { LineSource, TextLine } from './text-lines.js'
import { openSmallFile, textLines } from './text-lines.js'

export interface FileProblem {
  file: string
  position: number
  message: string
  /** what Kafka does with the file, when it loads it anyway (else its read fails) */
  kafkaLoads?: string
}

export interface EpochEntry {
  epoch: number
  startOffset: bigint
}

export type Parsed<T> = { value: T; problem: null } | { value: null; problem: FileProblem }

function bad<T>(file: string, position: number, message: string): Parsed<T> {
  return { value: null, problem: { file, position, message } }
}

/** no checkpoint line is longer: a topic name (at most 249 characters), a partition and an offset */
export const MAX_CHECKPOINT_LINE = 512

export interface CheckpointEnd {
  /** the count line's number (0 for a file without one) */
  declared: number
  /** entry lines read */
  found: number
  /** why Kafka would not load the file; null when it would */
  problem: FileProblem | null
  /** the first entry out of the order the file's writer keeps (Kafka loads the file anyway); null when in order */
  order: FileProblem | null
}

/**
 * CheckpointFile.CheckpointReadBuffer.read, line by line: an empty file, or one with a version line only, has
 * no entries; else the version (0), a count, and every further line an entry (a blank line is malformed),
 * exactly `count` of them. Each entry is yielded as it is read, before the end is known to hold (`end` is
 * filled in when the walk completes): a caller that must not act on a file Kafka refuses reads it twice
 * (nothing is kept here but counts).
 */
function* checkpointEntries<T>(
  file: string,
  src: LineSource,
  entry: RegExp,
  make: (m: RegExpExecArray) => T,
  shape: string,
  end: CheckpointEnd,
  outOfOrder?: (e: T) => string | null,
): Generator<T> {
  let n = 0
  let pastCount = -1
  const fail = (position: number, message: string): void => {
    end.problem = { file, position, message }
  }
  for (const l of textLines(src, MAX_CHECKPOINT_LINE)) {
    const text = l.text
    if (n === 0) {
      if (text !== '0')
        return fail(
          0,
          text !== null && /^-?\d+$/.test(text)
            ? `unrecognised version ${text} (Kafka reads 0)`
            : `malformed version line "${(text ?? '').slice(0, 20)}"`,
        )
    } else if (n === 1) {
      if (text === null || !/^\d+$/.test(text))
        return fail(l.position, `malformed entry count line "${(text ?? '').slice(0, 20)}"`)
      end.declared = Number(text)
    } else {
      const m = text === null ? null : entry.exec(text)
      if (m === null)
        return fail(
          l.position,
          text === null
            ? `malformed line of more than ${MAX_CHECKPOINT_LINE} bytes (expected "${shape}")`
            : `malformed line "${text.slice(0, 60)}" (expected "${shape}")`,
        )
      if (end.found === end.declared) pastCount = l.position
      end.found++
      const e = make(m)
      if (outOfOrder !== undefined && end.order === null) {
        const why = outOfOrder(e)
        if (why !== null)
          end.order = {
            file,
            position: l.position,
            message: why,
            kafkaLoads: 'Kafka loads it, and its LeaderEpochFileCache drops the earlier entries this one contradicts',
          }
      }
      yield e
    }
    n++
  }
  // fewer: where the missing entries would begin (the end); more: the first line past the count
  if (end.found < end.declared) fail(src.size, `expected ${end.declared} entries but found ${end.found}`)
  else if (end.found > end.declared) fail(pastCount, `expected ${end.declared} entries but found ${end.found}`)
}

function walk<T>(entries: Generator<T>, onEntry: (e: T) => void, end: CheckpointEnd): CheckpointEnd {
  for (const e of entries) onEntry(e)
  return end
}

const newEnd = (): CheckpointEnd => ({ declared: 0, found: 0, problem: null, order: null })

/**
 * LeaderEpochFileCache writes epochs increasing and start offsets not decreasing (an epoch that wrote nothing
 * shares its start offset with the next); a file where they go back was not written by it whole
 */
function epochOrder(): (e: EpochEntry) => string | null {
  let prev: EpochEntry | null = null
  return (e) => {
    const a = prev
    prev = e
    if (a === null) return null
    if (e.epoch <= a.epoch) return `epoch ${e.epoch} follows epoch ${a.epoch} (epochs must increase)`
    if (e.startOffset < a.startOffset)
      return `epoch ${e.epoch} starts at offset ${e.startOffset}, before epoch ${a.epoch}'s start ${a.startOffset} (start offsets must not decrease)`
    return null
  }
}
const EPOCH_LINE = /^(-?\d+)\s+(-?\d+)$/
const epochEntry = (m: RegExpExecArray): EpochEntry => ({ epoch: Number(m[1]), startOffset: BigInt(m[2]!) })
const OFFSET_LINE = /^(\S+)\s+(\d+)\s+(-?\d+)$/

/** LeaderEpochCheckpointFile: `<epoch> <startOffset>` entries, each to `onEntry`. */
export function leaderEpochEntries(file: string, src: LineSource, onEntry: (e: EpochEntry) => void): CheckpointEnd {
  const end = newEnd()
  return walk(
    checkpointEntries(file, src, EPOCH_LINE, epochEntry, '<epoch> <startOffset>', end, epochOrder()),
    onEntry,
    end,
  )
}

/** the entries of a leader-epoch-checkpoint leaderEpochEntries found whole, read again */
export function* leaderEpochList(file: string, src: LineSource): Generator<EpochEntry> {
  yield* checkpointEntries(file, src, EPOCH_LINE, epochEntry, '<epoch> <startOffset>', newEnd())
}

export interface OffsetEntry {
  topic: string
  partition: number
  offset: bigint
}
const offsetEntry = (m: RegExpExecArray): OffsetEntry => ({
  topic: m[1]!,
  partition: Number(m[2]),
  offset: BigInt(m[3]!),
})

/** OffsetCheckpointFile: `<topic> <partition> <offset>` entries, each to `onEntry`. */
export function offsetCheckpointEntries(
  file: string,
  src: LineSource,
  onEntry: (e: OffsetEntry) => void,
): CheckpointEnd {
  const end = newEnd()
  return walk(checkpointEntries(file, src, OFFSET_LINE, offsetEntry, '<topic> <partition> <offset>', end), onEntry, end)
}

/** the entries of an offset checkpoint offsetCheckpointEntries found whole, read again */
export function* offsetCheckpointList(file: string, src: LineSource): Generator<OffsetEntry> {
  yield* checkpointEntries(file, src, OFFSET_LINE, offsetEntry, '<topic> <partition> <offset>', newEnd())
}

/** PartitionMetadataFile: `version: 0` then `topic_id: <base64 uuid>` (its first two lines only are read). */
export function parsePartitionMetadata(file: string, src: LineSource): Parsed<{ version: number; topicId: string }> {
  const lines: TextLine[] = []
  for (const l of textLines(src, MAX_CHECKPOINT_LINE)) {
    lines.push(l)
    if (lines.length === 2) break
  }
  const v = /^version: (\d+)$/.exec(lines[0]?.text?.trim() ?? '')
  if (v === null) return bad(file, 0, 'first line is not "version: <n>"')
  const t = /^topic_id: ([A-Za-z0-9_-]{22})$/.exec(lines[1]?.text?.trim() ?? '')
  if (t === null) return bad(file, lines[1]?.position ?? src.size, 'second line is not "topic_id: <22-character id>"')
  // PartitionMetadataReadBuffer.read: any version but 0 is "Unrecognized version of partition metadata file"
  if (v[1] !== '0') return bad(file, 0, `unrecognised version ${v[1]!} (Kafka reads 0)`)
  return { value: { version: Number(v[1]), topicId: t[1]! }, problem: null }
}

/** the longest meta.properties line read (Kafka writes a handful of short `key=value` lines) */
const MAX_PROPERTY_LINE = 4096

/**
 * meta.properties as java.util.Properties reads the lines Kafka writes (no continuation lines): the keys
 * `keep` accepts (all without it), at most `maxKeys` distinct ones; `more` counts the distinct keys past that.
 */
export function parseProperties(
  src: LineSource,
  keep?: (key: string) => boolean,
  maxKeys = Infinity,
): { properties: Map<string, string>; more: number } {
  const out = new Map<string, string>()
  let more = 0
  for (const l of textLines(src, MAX_PROPERTY_LINE)) {
    const s = l.text?.trim() ?? ''
    if (s === '' || s.startsWith('#') || s.startsWith('!')) continue
    const m = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(s)
    if (m === null || (keep !== undefined && !keep(m[1]!))) continue
    if (out.size >= maxKeys && !out.has(m[1]!)) {
      more++
      continue
    }
    out.set(m[1]!, m[2]!)
  }
  return { properties: out, more }
}

/**
 * `read` over `<dir>/<name>` streamed: null when absent; a problem when present but unreadable (a FIFO,
 * larger than a small file can be, a read error).
 */
export function readOptionalFile<R>(
  dir: string,
  name: string,
  read: (src: LineSource, file: string) => R,
): { file: string; value: R | null; problem: FileProblem | null } {
  const file = path.join(dir, name)
  let src: FileSource
  try {
    src = openSmallFile(file)
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    if (err.code === 'ENOENT') return { file, value: null, problem: null }
    return { file, value: null, problem: { file, position: 0, message: err.message ?? String(e) } }
  }
  try {
    return { file, value: read(src, file), problem: null }
  } catch (e) {
    return { file, value: null, problem: { file, position: 0, message: (e as Error).message ?? String(e) } }
  } finally {
    src.close()
  }
}
