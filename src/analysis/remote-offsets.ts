// A remote segment's batches against the __remote_log_metadata entry that describes it. The broker serves a
// fetch below the local log start by that entry (RemoteLogManager.read finds the segment by offset and leader
// epoch: RemoteLogMetadataManager.remoteLogSegmentMetadata(tp, epoch, offset)), so an object whose batches hold
// other offsets or epochs serves consumers other records than the metadata promises. The entry's
// segmentLeaderEpochs are the leader epoch cache's entries within the segment, the first clamped to its start
// (RemoteLogManager.RLMCopyTask.copyLogSegment, getLeaderEpochEntries); its end offset is the segment's last
// offset (the next segment's base offset minus one). Tiered topics are never compacted, so the first batch
// starts at the segment's start offset.
import type { Finding } from './findings.js'
import { finding } from './findings.js'

export interface RemoteExpectation {
  startOffset: bigint
  endOffset: bigint
  leaderEpochs: ReadonlyArray<{ epoch: number; offset: bigint }>
}

/** what the batches of one remote segment held: first and last offsets, and each epoch with its first offset */
export class RemoteSegmentSeen {
  first: bigint | null = null
  last: bigint | null = null
  readonly epochs: Array<{ epoch: number; offset: bigint }> = []

  batch(baseOffset: bigint, lastOffset: bigint, epoch: number): void {
    if (this.first === null) this.first = baseOffset
    this.last = lastOffset
    if (this.epochs.length === 0 || this.epochs[this.epochs.length - 1]!.epoch !== epoch)
      this.epochs.push({ epoch, offset: baseOffset })
  }
}

const epochsText = (e: ReadonlyArray<{ epoch: number; offset: bigint }>): string =>
  `{${e.map((x) => `${x.epoch}=${x.offset}`).join(', ')}}`

/** REMOTE_OFFSETS_MISMATCH findings of a segment read whole (none when it held no batch: its other findings say why) */
export function remoteOffsetFindings(seen: RemoteSegmentSeen, expected: RemoteExpectation, file: string): Finding[] {
  if (seen.first === null || seen.last === null) return []
  const out: Finding[] = []
  const at = { file, position: 0 }
  if (seen.first !== expected.startOffset || seen.last !== expected.endOffset) {
    out.push(
      finding(
        'REMOTE_OFFSETS_MISMATCH',
        `its batches hold offsets ${seen.first}..${seen.last}, its __remote_log_metadata entry says ${expected.startOffset}..${expected.endOffset}`,
        at,
      ),
    )
  }
  const got = seen.epochs.map((e, i) =>
    i === 0 && e.offset < expected.startOffset ? { epoch: e.epoch, offset: expected.startOffset } : e,
  )
  if (expected.leaderEpochs.length > 0 && epochsText(got) !== epochsText(expected.leaderEpochs)) {
    out.push(
      finding(
        'REMOTE_OFFSETS_MISMATCH',
        `its batches' leader epochs are ${epochsText(got)} (epoch=first offset), its __remote_log_metadata entry says ${epochsText(expected.leaderEpochs)}`,
        at,
      ),
    )
  }
  return out
}
