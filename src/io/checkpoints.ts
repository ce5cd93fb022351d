// Text checkpoint files of a broker log directory (Kafka OffsetCheckpointFile / CheckpointFile):
//   line 1 version (0) | line 2 entry count | then `<topic> <partition> <offset>` per line.
// replication-offset-checkpoint holds each partition's high watermark as of the last flush.
// Read through readSmallFile: a FIFO or a link to /dev/zero in their place is refused, never read.
import * as path from 'node:path'
import { readSmallFile } from './file-source.js'

export type OffsetCheckpoint = Map<string, bigint>

export function parseOffsetCheckpoint (text: string): OffsetCheckpoint | null {
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l.length > 0)
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
    return parseOffsetCheckpoint(readSmallFile(path.join(logDir, name)).toString('utf8'))
  } catch {
    return null
  }
}

/** leader-epoch-checkpoint: version, count, `<epoch> <startOffset>` lines */
export function readLeaderEpochCheckpoint (partitionDir: string): Array<{ epoch: number, startOffset: bigint }> | null {
  try {
    const lines = readSmallFile(path.join(partitionDir, 'leader-epoch-checkpoint')).toString('utf8').split('\n').filter((l) => l.trim() !== '')
    return lines.slice(2).map((l) => { const [e, o] = l.trim().split(/\s+/); return { epoch: Number(e), startOffset: BigInt(o!) } })
  } catch {
    return null
  }
}
