// The small text files beside the segments and in a broker log directory that say who the replica is:
// leader-epoch-checkpoint (Kafka LeaderEpochCheckpointFile over CheckpointFile: `0`, a count, then
// `<epoch> <startOffset>` lines), partition.metadata (PartitionMetadataFile: `version: 0`, `topic_id: <id>`)
// and meta.properties (java.util.Properties: `key=value`, `#` comments).
// Parsed strictly as CheckpointFile.read does (a wrong version, count or line makes the file unusable): a
// damaged file is reported with the byte position of the line at fault, never thrown.
import * as path from 'node:path'
import { readSmallFile } from './file-source.js'

export interface FileProblem {
  file: string
  position: number
  message: string
  /** what Kafka does with the file, when it loads it anyway (else its read fails) */
  kafkaLoads?: string
}

export interface EpochEntry { epoch: number, startOffset: bigint }

export type Parsed<T> = { value: T, problem: null } | { value: null, problem: FileProblem }

interface Line { text: string, position: number }

function linesOf (buf: Buffer): Line[] {
  const out: Line[] = []
  let start = 0
  for (let i = 0; i <= buf.length; i++) {
    if (i === buf.length || buf[i] === 0x0a) {
      if (i > start || i < buf.length) out.push({ text: buf.subarray(start, i).toString('utf8').replace(/\r$/, ''), position: start })
      start = i + 1
    }
  }
  return out
}

function bad<T> (file: string, position: number, message: string): Parsed<T> { return { value: null, problem: { file, position, message } } }

/**
 * CheckpointFile.CheckpointReadBuffer.read: an empty file, or one with a version line only, has no entries; else
 * the version (0), a count, and every further line an entry (a blank line is malformed), exactly `count` of them.
 */
function parseCheckpoint<T> (file: string, buf: Buffer, entry: RegExp, make: (m: RegExpExecArray) => T, shape: string): Parsed<{ version: number, entries: T[] }> {
  const lines = linesOf(buf)
  if (lines.length === 0) return { value: { version: 0, entries: [] }, problem: null }
  if (lines[0]!.text !== '0') return bad(file, 0, /^-?\d+$/.test(lines[0]!.text) ? `unrecognised version ${lines[0]!.text} (Kafka reads 0)` : `malformed version line "${lines[0]!.text.slice(0, 20)}"`)
  const countLine = lines[1]
  if (countLine === undefined) return { value: { version: 0, entries: [] }, problem: null }
  if (!/^\d+$/.test(countLine.text)) return bad(file, countLine.position, `malformed entry count line "${countLine.text.slice(0, 20)}"`)
  const count = Number(countLine.text)
  const entries: T[] = []
  for (const l of lines.slice(2)) {
    const m = entry.exec(l.text)
    if (m === null) return bad(file, l.position, `malformed line "${l.text.slice(0, 60)}" (expected "${shape}")`)
    entries.push(make(m))
  }
  // fewer: where the missing entries would begin (the end); more: the first line past the count
  if (entries.length < count) return bad(file, buf.length, `expected ${count} entries but found ${entries.length}`)
  if (entries.length > count) return bad(file, lines[2 + count]!.position, `expected ${count} entries but found ${entries.length}`)
  return { value: { version: 0, entries }, problem: null }
}

/** LeaderEpochCheckpointFile: `<epoch> <startOffset>` entries. */
export function parseLeaderEpochCheckpoint (file: string, buf: Buffer): Parsed<EpochEntry[]> {
  const p = parseCheckpoint(file, buf, /^(-?\d+)\s+(-?\d+)$/, (m) => ({ epoch: Number(m[1]), startOffset: BigInt(m[2]!) }), '<epoch> <startOffset>')
  if (p.problem !== null) return p
  // LeaderEpochFileCache keeps epochs and start offsets increasing: it writes them so, and on load (assign)
  // drops the entries a later one contradicts; a file where they go back was not written by it whole
  const es = p.value.entries
  for (let i = 1; i < es.length; i++) {
    const [a, b] = [es[i - 1]!, es[i]!]
    if (b.epoch <= a.epoch || b.startOffset < a.startOffset) {
      const at = linesOf(buf)[2 + i]?.position ?? 0
      const problem = bad<EpochEntry[]>(file, at, b.epoch <= a.epoch ? `epoch ${b.epoch} follows epoch ${a.epoch} (epochs must increase)`
        : `epoch ${b.epoch} starts at offset ${b.startOffset}, before epoch ${a.epoch}'s start ${a.startOffset} (start offsets must not decrease)`)
      problem.problem!.kafkaLoads = 'Kafka loads it, and its LeaderEpochFileCache drops the earlier entries this one contradicts'
      return problem
    }
  }
  return { value: es, problem: null }
}

/** PartitionMetadataFile: `version: 0` then `topic_id: <base64 uuid>`. */
export function parsePartitionMetadata (file: string, buf: Buffer): Parsed<{ version: number, topicId: string }> {
  const lines = linesOf(buf)
  const v = /^version: (\d+)$/.exec(lines[0]?.text.trim() ?? '')
  if (v === null) return bad(file, 0, 'first line is not "version: <n>"')
  const t = /^topic_id: ([A-Za-z0-9_-]{22})$/.exec(lines[1]?.text.trim() ?? '')
  if (t === null) return bad(file, lines[1]?.position ?? buf.length, 'second line is not "topic_id: <22-character id>"')
  // PartitionMetadataReadBuffer.read: any version but 0 is "Unrecognized version of partition metadata file"
  if (v[1] !== '0') return bad(file, 0, `unrecognised version ${v[1]!} (Kafka reads 0)`)
  return { value: { version: Number(v[1]), topicId: t[1]! }, problem: null }
}

/** meta.properties as java.util.Properties reads the lines Kafka writes (no continuation lines). */
export function parseProperties (buf: Buffer): Map<string, string> {
  const out = new Map<string, string>()
  for (const l of linesOf(buf)) {
    const s = l.text.trim()
    if (s === '' || s.startsWith('#') || s.startsWith('!')) continue
    const m = /^([^=:\s]+)\s*[=:\s]\s*(.*)$/.exec(s)
    if (m !== null) out.set(m[1]!, m[2]!)
  }
  return out
}

/** `<dir>/<name>` as bytes; null when absent; a problem when present but unreadable (a FIFO, too large). */
export function readOptionalFile (dir: string, name: string): { file: string, bytes: Buffer | null, problem: FileProblem | null } {
  const file = path.join(dir, name)
  try {
    return { file, bytes: readSmallFile(file), problem: null }
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    if (err.code === 'ENOENT') return { file, bytes: null, problem: null }
    return { file, bytes: null, problem: { file, position: 0, message: err.message ?? String(e) } }
  }
}

export interface OffsetEntry { topic: string, partition: number, offset: bigint }

/** OffsetCheckpointFile: `<topic> <partition> <offset>` entries. */
export function parseOffsetCheckpointFile (file: string, buf: Buffer): Parsed<{ version: number, entries: OffsetEntry[] }> {
  return parseCheckpoint(file, buf, /^(\S+)\s+(\d+)\s+(-?\d+)$/, (m) => ({ topic: m[1]!, partition: Number(m[2]), offset: BigInt(m[3]!) }), '<topic> <partition> <offset>')
}
