// Where the records of an internal topic's partition could not be read (framing damage, a torn tail, a file
// that cannot be opened), and the one rule of what that leaves unknown: a compacted topic's newest record per
// key wins, so a value read before the lost bytes may have been replaced in them (TransactionStateManager,
// the metadata image and TopicBasedRemoteLogMetadataManager all keep the newest). A record read after them
// replaced whatever was lost.
import type { FindingCode } from './findings.js'

export interface LostRecords {
  file: string
  /** the first byte that could not be read */
  position: number
  /** the finding that says so (TRUNCATED_TAIL, BAD_LENGTH, UNREADABLE ...) */
  code: FindingCode
  /** the files of the same partition read before `file` */
  earlierFiles: readonly string[]
}

/** the first place of `lost` that follows the record at `file`/`position` (its value may be stale), else undefined */
export function lostAfter(
  lost: readonly LostRecords[],
  file: string | undefined,
  position: number | undefined,
): LostRecords | undefined {
  if (file === undefined || position === undefined) return lost[0]
  return lost.find((d) => (d.file === file && d.position > position) || d.earlierFiles.includes(file))
}

/** "<file> past position <p> (<CODE>)": what an unknown value names as its reason */
export function lostText(d: LostRecords): string {
  return `${d.file} could not be read past position ${d.position} (${d.code})`
}
