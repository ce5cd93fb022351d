// Text checkpoint files of a broker log directory (Kafka OffsetCheckpointFile / CheckpointFile):
//   line 1 version (0) | line 2 entry count | then `<topic> <partition> <offset>` per line.
// replication-offset-checkpoint holds each partition's high watermark as of the last flush.
// Streamed line by line (partition-files.ts, Kafka's rules: a wrong version, count or line
// makes the file unusable, as the broker refuses it), keeping only the entries of the partitions asked for:
// a 2.6 M-line cleaner-offset-checkpoint kept whole took `cleanup` to 238 MiB. A FIFO or a link to /dev/zero
// in its place is refused, never read.
import { namesIn } from './dir-listing.js'
import { leaderEpochEntries, offsetCheckpointEntries, readOptionalFile } from './partition-files.js'
import type { LineSource } from './text-lines.js'
import { bufferLines } from './text-lines.js'
import { parsePartitionDirName } from './segment-names.js'

/** `<topic>-<partition>` -> offset, for the partitions kept */
export type OffsetCheckpoint = Map<string, bigint>

/** the entries of `src` whose `<topic>-<partition>` `keep` accepts (all without it); null when Kafka would not load it */
function entriesOf(file: string, src: LineSource, keep?: (label: string) => boolean): OffsetCheckpoint | null {
  const out: OffsetCheckpoint = new Map()
  const end = offsetCheckpointEntries(file, src, (e) => {
    const label = `${e.topic}-${e.partition}`
    if (keep === undefined || keep(label)) out.set(label, e.offset)
  })
  return end.problem === null ? out : null
}

export function parseOffsetCheckpoint(content: string | Buffer): OffsetCheckpoint | null {
  return entriesOf('<buffer>', bufferLines(typeof content === 'string' ? Buffer.from(content) : content))
}

/** the `<topic>-<partition>` directories in `logDir`: the entries worth keeping when the caller names none */
function partitionsIn(logDir: string): Set<string> {
  const out = new Set<string>()
  for (const n of namesIn(logDir)) {
    const p = parsePartitionDirName(n)
    if (p !== null) out.add(`${p.topic}-${p.partition}`)
  }
  return out
}

/**
 * Read `<logDir>/<name>`, keeping the entries of `partitions` (default: the partition directories the log
 * directory holds); null when absent, unreadable, not a regular file, too large or not loadable by Kafka.
 */
export function readOffsetCheckpoint(
  logDir: string,
  name: string,
  partitions?: ReadonlySet<string>,
): OffsetCheckpoint | null {
  const wanted = partitions ?? partitionsIn(logDir)
  return readOptionalFile(logDir, name, (src, file) => entriesOf(file, src, (l) => wanted.has(l))).value
}

/** leader-epoch-checkpoint's newest epoch (the last entry's, epochs increasing); -1 without one, or when Kafka would not load the file */
export function newestLeaderEpoch(partitionDir: string): number {
  return (
    readOptionalFile(partitionDir, 'leader-epoch-checkpoint', (src, file) => {
      let newest = -1
      const end = leaderEpochEntries(file, src, (e) => {
        if (e.epoch > newest) newest = e.epoch
      })
      return end.problem === null ? newest : -1
    }).value ?? -1
  )
}
