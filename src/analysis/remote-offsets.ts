// A remote segment's batches against the __remote_log_metadata entry that describes it. The broker serves a
// fetch below the local log start by that entry (RemoteLogManager.read finds the segment by offset and leader
// epoch: RemoteLogMetadataManager.remoteLogSegmentMetadata(tp, epoch, offset)), so an object whose batches hold
// other offsets or epochs serves consumers other records than the metadata promises. Its end offset is the
// segment's last offset (the next segment's base offset minus one, RemoteLogManager.RLMCopyTask.copyLogSegment);
// tiered topics are never compacted, so the first batch starts at the segment's start offset. Its leader epochs
// are checked by analysis/remote-epochs.ts.
import type { Finding } from './findings.js'
import { finding } from './findings.js'
import type { EpochRun } from './remote-epochs.js'
import { remoteEpochFindings } from './remote-epochs.js'

export interface RemoteExpectation {
  startOffset: bigint
  endOffset: bigint
  leaderEpochs: ReadonlyArray<{ epoch: number; offset: bigint }>
}

/** what the batches of one remote segment held: first and last offsets, and each run of one epoch with its first batch */
export class RemoteSegmentSeen {
  first: bigint | null = null
  last: bigint | null = null
  readonly epochs: EpochRun[] = []

  batch(baseOffset: bigint, lastOffset: bigint, epoch: number, position: number): void {
    if (this.first === null) this.first = baseOffset
    this.last = lastOffset
    if (this.epochs.length === 0 || this.epochs[this.epochs.length - 1]!.epoch !== epoch)
      this.epochs.push({ epoch, offset: baseOffset, position })
  }
}

/**
 * REMOTE_OFFSETS_MISMATCH and REMOTE_EPOCHS_MISMATCH (analysis/remote-epochs.ts) findings of a segment read whole
 * (none when it held no batch: its other findings say why)
 */
export function remoteOffsetFindings(seen: RemoteSegmentSeen, expected: RemoteExpectation, file: string): Finding[] {
  if (seen.first === null || seen.last === null) return []
  const out: Finding[] = []
  if (seen.first !== expected.startOffset || seen.last !== expected.endOffset) {
    out.push(
      finding(
        'REMOTE_OFFSETS_MISMATCH',
        `its batches hold offsets ${seen.first}..${seen.last}, its __remote_log_metadata entry says ${expected.startOffset}..${expected.endOffset}`,
        { file, position: 0 },
      ),
    )
  }
  out.push(...remoteEpochFindings(seen.epochs, expected.startOffset, expected.leaderEpochs, file))
  return out
}
