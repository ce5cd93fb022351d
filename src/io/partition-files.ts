// The small text files beside the segments and in a broker log directory that say who the replica is:
// leader-epoch-checkpoint (Kafka LeaderEpochCheckpointFile over CheckpointFile: `0`, a count, then
// `<epoch> <startOffset>` lines), partition.metadata (PartitionMetadataFile: `version: 0`, `topic_id: <id>`)
// and meta.properties (java.util.Properties: `key=value`, `#` comments).
// Parsed strictly as CheckpointFile.read does (a wrong version, count or line makes the file unusable): a
// damaged file is reported with the byte position of the line at fault, never thrown.
import * as path from 'node:path'
import { readSmallFile } from './file-source.js'

export interface FileProblem { file: string, position: number, message: string }

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

/** CheckpointFile.read with LeaderEpochCheckpointFile's formatter: version 0, a count, exactly that many entries. */
export function parseLeaderEpochCheckpoint (file: string, buf: Buffer): Parsed<EpochEntry[]> {
  const lines = linesOf(buf)
  if (lines.length === 0) return bad(file, 0, 'empty file: no version line')
  if (lines[0]!.text.trim() !== '0') return bad(file, 0, `unrecognised version "${lines[0]!.text.slice(0, 20)}" (Kafka writes 0)`)
  const countLine = lines[1]
  if (countLine === undefined || !/^\d+$/.test(countLine.text.trim())) return bad(file, countLine?.position ?? buf.length, 'the entry count line is missing or not a number')
  const count = Number(countLine.text.trim())
  const entries: EpochEntry[] = []
  for (let i = 0; i < count; i++) {
    const l = lines[2 + i]
    if (l === undefined) return bad(file, buf.length, `expected ${count} entries but found only ${i}`)
    const m = /^(\d+) (\d+)$/.exec(l.text.trim())
    if (m === null) return bad(file, l.position, `malformed line "${l.text.slice(0, 40)}" (expected "<epoch> <startOffset>")`)
    entries.push({ epoch: Number(m[1]), startOffset: BigInt(m[2]!) })
  }
  const extra = lines.slice(2 + count).find((l) => l.text.trim() !== '')
  if (extra !== undefined) return bad(file, extra.position, `expected ${count} entries but found more`)
  for (let i = 1; i < entries.length; i++) {
    // LeaderEpochFileCache keeps epochs and start offsets increasing; a file that breaks it was not written by it
    if (entries[i]!.epoch <= entries[i - 1]!.epoch || entries[i]!.startOffset < entries[i - 1]!.startOffset) {
      return bad(file, lines[2 + i]!.position, `entry ${entries[i]!.epoch} ${entries[i]!.startOffset} does not follow ${entries[i - 1]!.epoch} ${entries[i - 1]!.startOffset} (epochs and offsets must increase)`)
    }
  }
  return { value: entries, problem: null }
}

/** PartitionMetadataFile: `version: 0` then `topic_id: <base64 uuid>`. */
export function parsePartitionMetadata (file: string, buf: Buffer): Parsed<{ version: number, topicId: string }> {
  const lines = linesOf(buf)
  const v = /^version: (\d+)$/.exec(lines[0]?.text.trim() ?? '')
  if (v === null) return bad(file, 0, 'first line is not "version: <n>"')
  const t = /^topic_id: ([A-Za-z0-9_-]{22})$/.exec(lines[1]?.text.trim() ?? '')
  if (t === null) return bad(file, lines[1]?.position ?? buf.length, 'second line is not "topic_id: <22-character id>"')
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
