// Text checkpoint files of a broker log directory (Kafka OffsetCheckpointFile / CheckpointFile):
//   line 1 version (0) | line 2 entry count | then `<topic> <partition> <offset>` per line.
// replication-offset-checkpoint holds each partition's high watermark as of the last flush.
// Read through readSmallFile: a FIFO or a link to /dev/zero in their place is refused, never read.
import * as path from 'node:path'
import { readSmallFile } from './file-source.js'

export type OffsetCheckpoint = Map<string, bigint>

/**
 * The longest line a checkpoint can hold: a topic name (at most 249 characters), a partition and an offset.
 * A longer line is damage, and is refused before it becomes a string (a 16 MiB line split and matched cost
 * 168 MiB and 8 s).
 */
const MAX_LINE = 512

/** the file's lines as strings, or null when one is longer than any checkpoint line can be */
function boundedLines (buf: Buffer): string[] | null {
  const lines: string[] = []
  for (let start = 0; start < buf.length;) {
    let end = buf.indexOf(0x0a, start)
    if (end < 0) end = buf.length
    if (end - start > MAX_LINE) return null
    const l = buf.toString('utf8', start, end).trim()
    if (l.length > 0) lines.push(l)
    start = end + 1
  }
  return lines
}

export function parseOffsetCheckpoint (content: string | Buffer): OffsetCheckpoint | null {
  const lines = boundedLines(typeof content === 'string' ? Buffer.from(content) : content)
  if (lines === null) return null
  // Kafka's CheckpointFile creates the file empty and reads an empty file as no entries
  if (lines.length === 0) return new Map()
  if (lines.length < 2 || lines[0] !== '0') return null
  const count = Number(lines[1])
  const out: OffsetCheckpoint = new Map()
  for (const line of lines.slice(2, 2 + count)) {
    const m = /^(\S+) (\d+) (-?\d+)$/.exec(line)
    if (m === null) return null
    out.set(`${m[1]}-${m[2]}`, BigInt(m[3]!))
  }
  return out
}

/** Read `<logDir>/<name>`; null when absent, unreadable, not a regular file or too large. */
export function readOffsetCheckpoint (logDir: string, name: string): OffsetCheckpoint | null {
  try {
    return parseOffsetCheckpoint(readSmallFile(path.join(logDir, name)))
  } catch {
    return null
  }
}

/** leader-epoch-checkpoint: version, count, `<epoch> <startOffset>` lines */
export function readLeaderEpochCheckpoint (partitionDir: string): Array<{ epoch: number, startOffset: bigint }> | null {
  try {
    const lines = boundedLines(readSmallFile(path.join(partitionDir, 'leader-epoch-checkpoint')))
    if (lines === null) return null
    return lines.slice(2).map((l) => { const [e, o] = l.trim().split(/\s+/); return { epoch: Number(e), startOffset: BigInt(o!) } })
  } catch {
    return null
  }
}
