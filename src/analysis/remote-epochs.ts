// A remote segment's leader-epoch lineage, checked against the two other places that hold it. Its
// __remote_log_metadata entry's segmentLeaderEpochs are the partition's leader epoch cache within the segment when
// it was copied (RemoteLogManager.RLMCopyTask.copyLogSegment: getLeaderEpochEntries(log, baseOffset,
// nextSegmentBaseOffset), LeaderEpochFileCache.epochEntriesInRange, the first entry clamped to the base offset).
// The broker finds the remote segment of a fetch by it (RemoteLogManager.read: the cache's epochForOffset, then
// RemoteLogMetadataManager.remoteLogSegmentMetadata(tp, epoch, offset)) and counts a remote segment only while
// its lineage is the partition's (RemoteLogManager.isRemoteSegmentWithinLeaderEpochs, in the expiration task and the
// remote log size): a fetch may not find a segment outside it, retention skips it, and one whose epochs are all
// older than the lineage's is deleted as unreferenced (after an unclean leader election).
//  - the batches read from the segment: each epoch's first batch starts where the entry says, and the entry has
//    every epoch the batches have and no other (epochs that hold no records dropped first:
//    RemoteLogManager.buildFilteredLeaderEpochMap);
//  - the partition's leader-epoch-checkpoint, where it covers the segment: isRemoteSegmentWithinLeaderEpochs.
import type { Finding } from './findings.js'
import { finding } from './findings.js'

export interface EpochStart {
  epoch: number
  offset: bigint
}
/** the first batch of a run of one epoch in the segment: its offset and byte position */
export interface EpochRun extends EpochStart {
  position: number
}

/** RemoteLogManager.buildFilteredLeaderEpochMap: by epoch, without the epochs that start where the next one does (no records) */
export function buildFilteredLeaderEpochMap(entries: readonly EpochStart[]): EpochStart[] {
  const byEpoch = [...entries].sort((a, b) => a.epoch - b.epoch)
  return byEpoch.filter((e, i) => byEpoch[i + 1]?.offset !== e.offset)
}

export const lineageText = (e: readonly EpochStart[]): string =>
  `{${e.map((x) => `${x.epoch}=${x.offset}`).join(', ')}}`

/**
 * The first disagreement between a segment's batches (their epoch runs, in file order) and its metadata entry's
 * lineage, or null. The first run starts at the segment's start offset at the earliest (epochEntriesInRange clamps).
 */
export function segmentEpochsMismatch(
  runs: readonly EpochRun[],
  startOffset: bigint,
  lineage: readonly EpochStart[],
): { position: number; offset: bigint; why: string } | null {
  const map = buildFilteredLeaderEpochMap(lineage)
  const seen = new Set<number>()
  let prev: EpochRun | undefined
  for (const [i, r] of runs.entries()) {
    const offset = i === 0 && r.offset < startOffset ? startOffset : r.offset
    const at = `the batch at offset ${r.offset} (byte ${r.position})`
    if (seen.has(r.epoch) || (prev !== undefined && r.epoch < prev.epoch)) {
      return {
        position: r.position,
        offset: r.offset,
        why: `${at} has leader epoch ${r.epoch} after epoch ${prev!.epoch}: a leader's epochs only grow`,
      }
    }
    seen.add(r.epoch)
    prev = r
    const m = map.find((e) => e.epoch === r.epoch)
    if (m === undefined)
      return {
        position: r.position,
        offset: r.offset,
        why: `${at} has leader epoch ${r.epoch}, which the metadata's lineage does not have`,
      }
    if (m.offset !== offset)
      return {
        position: r.position,
        offset: r.offset,
        why: `epoch ${r.epoch} starts at ${at}, the metadata's lineage starts it at offset ${m.offset}`,
      }
  }
  const missing = map.find((e) => !seen.has(e.epoch))
  if (missing !== undefined && runs.length > 0)
    return {
      position: 0,
      offset: missing.offset,
      why: `the metadata's lineage starts epoch ${missing.epoch} at offset ${missing.offset}, no batch of the segment has that epoch`,
    }
  return null
}

/**
 * RemoteLogManager.isRemoteSegmentWithinLeaderEpochs: why a remote segment's lineage is not within the partition's
 * (its leader epoch cache, without the epochs that hold no records), or null when it is. `logEndOffset` null: its
 * last condition (the segment ends below the log end) is not checked, as before the local segments are read.
 */
export function isRemoteSegmentWithinLeaderEpochs(
  segmentEpochs: readonly EpochStart[],
  endOffset: bigint,
  partitionEpochs: readonly EpochStart[],
  logEndOffset: bigint | null,
): string | null {
  const seg = buildFilteredLeaderEpochMap(segmentEpochs)
  const lin = buildFilteredLeaderEpochMap(partitionEpochs)
  if (seg.length === 0 || lin.length === 0) return null
  const last = seg[seg.length - 1]!.epoch
  if (last < lin[0]!.epoch || last > lin[lin.length - 1]!.epoch)
    return `its last epoch ${last} is outside the partition's epochs ${lin[0]!.epoch}..${lin[lin.length - 1]!.epoch}`
  // the partition's cache may start later (truncated at the log start): the segment is compared from there
  const first = seg.find((e) => e.epoch >= lin[0]!.epoch)!
  for (const [i, e] of seg.entries()) {
    if (e.epoch < first.epoch) continue
    const j = lin.findIndex((l) => l.epoch === e.epoch)
    if (j < 0) return `its epoch ${e.epoch} (from offset ${e.offset}) is not among the partition's epochs`
    if (e === first && j > 0 && e.offset < lin[j]!.offset)
      return `it starts epoch ${e.epoch} at offset ${e.offset}, the partition at ${lin[j]!.offset}`
    const next = lin[j + 1]
    if (e.epoch === last) {
      if (next !== undefined && endOffset > next.offset - 1n)
        return `it ends at offset ${endOffset}, past epoch ${e.epoch}'s end ${next.offset - 1n} (the partition starts epoch ${next.epoch} at ${next.offset})`
    } else if (next === undefined || next.epoch !== seg[i + 1]!.epoch || next.offset !== seg[i + 1]!.offset) {
      return `after epoch ${e.epoch} it starts epoch ${seg[i + 1]!.epoch} at offset ${seg[i + 1]!.offset}, the partition ${next === undefined ? 'has no later epoch' : `starts epoch ${next.epoch} at ${next.offset}`}`
    }
  }
  if (logEndOffset !== null && endOffset >= logEndOffset)
    return `it ends at offset ${endOffset}, at or past the log end offset ${logEndOffset}`
  return null
}

/** REMOTE_EPOCHS_MISMATCH of a segment read whole against its metadata entry (none when it held no batch: its other findings say why) */
export function remoteEpochFindings(
  runs: readonly EpochRun[],
  startOffset: bigint,
  lineage: readonly EpochStart[],
  file: string,
): Finding[] {
  if (lineage.length === 0) return []
  const m = segmentEpochsMismatch(runs, startOffset, lineage)
  if (m === null) return []
  return [
    finding(
      'REMOTE_EPOCHS_MISMATCH',
      `${m.why}: its batches' lineage is ${lineageText(runs)}, its __remote_log_metadata entry's ${lineageText(lineage)} (epoch=first offset)`,
      { file, position: m.position },
    ),
  ]
}
